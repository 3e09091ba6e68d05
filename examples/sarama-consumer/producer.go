package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/IBM/sarama"
)

// offsets are records by partition and offset.
type offsets map[int32]map[int64]bool

// add records one offset and reports whether it is new.
func (o offsets) add(partition int32, offset int64) (fresh bool) {
	if o[partition] == nil {
		o[partition] = map[int64]bool{}
	}
	fresh = !o[partition][offset]
	o[partition][offset] = true
	return fresh
}

func (o offsets) count() int {
	n := 0
	for _, offs := range o {
		n += len(offs)
	}
	return n
}

// producer writes one record to every partition, rate times a second.
type producer struct {
	client sarama.Client
	sync   sarama.SyncProducer
	n      int
	cancel context.CancelFunc
	done   chan struct{}

	mu       sync.Mutex
	produced offsets
	once     sync.Once
}

func startProducer(addrs []string, topic string, rate int, t *tally) (*producer, error) {
	cfg := sarama.NewConfig()
	cfg.Version = sarama.V3_2_0_0
	cfg.Producer.Return.Successes = true
	cfg.Producer.Partitioner = sarama.NewManualPartitioner
	client, err := sarama.NewClient(addrs, cfg)
	if err != nil {
		return nil, err
	}
	partitions, err := client.Partitions(topic)
	if err == nil && len(partitions) == 0 {
		err = fmt.Errorf("topic %q has no partitions", topic)
	}
	var sp sarama.SyncProducer
	if err == nil {
		sp, err = sarama.NewSyncProducerFromClient(client)
	}
	if err != nil {
		_ = client.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &producer{client: client, sync: sp, n: len(partitions), cancel: cancel, done: make(chan struct{}), produced: offsets{}}
	go p.loop(ctx, topic, partitions, max(rate, 1), t)
	return p, nil
}

func (p *producer) loop(ctx context.Context, topic string, partitions []int32, rate int, t *tally) {
	defer close(p.done)
	tick := time.NewTicker(time.Second / time.Duration(rate))
	defer tick.Stop()
	for seq := 0; ; seq++ {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		msgs := make([]*sarama.ProducerMessage, len(partitions))
		for i, part := range partitions {
			msgs[i] = &sarama.ProducerMessage{Topic: topic, Partition: part, Value: sarama.StringEncoder(fmt.Sprint(seq))}
		}
		if err := p.sync.SendMessages(msgs); err != nil {
			t.event(fmt.Sprintf("producer: %v", err))
		}
		p.mu.Lock()
		for _, m := range msgs {
			if m.Offset >= 0 {
				p.produced.add(m.Partition, m.Offset)
			}
		}
		p.mu.Unlock()
	}
}

func (p *producer) partitions() int { return p.n }

// stop stops producing and returns what was produced; later calls return
// it again.
func (p *producer) stop() offsets {
	p.once.Do(func() {
		p.cancel()
		<-p.done
		_ = p.sync.Close()
		_ = p.client.Close()
	})
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.produced
}
