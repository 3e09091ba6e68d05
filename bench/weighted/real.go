package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/weighted"
	"github.com/kgroup/assignor/workload"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// realConfig is the real-group experiment: two consumer groups, one
// planned by count-sticky and one by weighted, consuming the same topics
// of an in-process kfake cluster while one producer writes skewed
// per-partition rates. Each member processes one record at a time at a
// fixed cost, so its capacity is bounded.
type realConfig struct {
	Topics     int
	Partitions int32 // per topic
	Members    int   // per group
	Rate       int   // records per second, all partitions together
	// Headroom is each member's capacity over the mean load per member
	// (1.3: the group as a whole is 77% busy).
	Headroom float64
	Duration time.Duration // of traffic, after both groups are stable
	Sample   time.Duration
	Drain    time.Duration // most time given to consume the backlog at the end
	Seed     uint64
}

func defaultReal() realConfig {
	return realConfig{Topics: 2, Partitions: 60, Members: 6, Rate: 1200, Headroom: 1.3,
		Duration: 45 * time.Second, Sample: time.Second, Drain: 90 * time.Second, Seed: workload.DefaultSeed}
}

// capacity is one member's records per second.
func (c realConfig) capacity() float64 {
	return c.Headroom * float64(c.Rate) / float64(c.Members)
}

// tp names one partition.
type tp struct {
	topic string
	p     int32
}

// rates returns each partition's records per second: the workload
// package's Hot5 skew (5% of the partitions carry half the load) on the
// experiment's topics, scaled to c.Rate.
func (c realConfig) rates() (map[tp]float64, []assignor.Topic, error) {
	wc, err := workload.Build(workload.Shape{Topics: c.Topics, Partitions: int(c.Partitions), Members: c.Members}, workload.Fresh, c.Seed)
	if err != nil {
		return nil, nil, err
	}
	if wc, err = wc.Weigh(workload.Hot5, c.Seed); err != nil {
		return nil, nil, err
	}
	var total int64
	for _, t := range wc.Topics {
		for _, w := range t.Weights {
			total += w
		}
	}
	out := map[tp]float64{}
	for _, t := range wc.Topics {
		for i, p := range t.Partitions {
			out[tp{t.Name, p}] = float64(c.Rate) * float64(t.Weights[i]) / float64(total)
		}
	}
	return out, wc.Topics, nil
}

// realRun is one run of the experiment.
type realRun struct {
	cfg     realConfig
	cluster *kfake.Cluster
	client  *kgo.Client
	topics  []assignor.Topic
	rates   map[tp]float64
	groups  []*realGroup
	start   time.Time // of traffic

	mu       sync.Mutex
	produced map[tp]int64
	prodErr  error
}

// runReal runs the experiment and returns the two groups' results,
// count-sticky first. logf, if not nil, reports progress.
func runReal(cfg realConfig, logf func(string, ...any)) (results []groupResult, err error) {
	r := &realRun{cfg: cfg, produced: map[tp]int64{}}
	if r.rates, r.topics, err = cfg.rates(); err != nil {
		return nil, err
	}
	if err := r.startCluster(); err != nil {
		return nil, err
	}
	defer r.cluster.Close()
	defer r.client.Close()
	weight := func(topic string, p int32) int64 { return int64(1000 * r.rates[tp{topic, p}]) }
	r.groups = []*realGroup{
		newRealGroup(r, "count-sticky", func() assignor.Assignor { return sticky.New() }, nil),
		newRealGroup(r, "weighted", func() assignor.Assignor { return weighted.New() }, weight),
	}
	defer func() {
		for _, g := range r.groups {
			g.stop()
		}
	}()
	for _, g := range r.groups {
		if err := g.startMembers(); err != nil {
			return nil, err
		}
	}
	for _, g := range r.groups {
		if err := g.waitStable(2*time.Second, 60*time.Second); err != nil {
			return nil, err
		}
		logf("%s: stable, plan loads %s of capacity", g.name, g.predicted())
	}
	ctx, cancel := context.WithCancel(context.Background())
	prodDone := make(chan struct{})
	r.start = time.Now()
	go r.produce(ctx, prodDone)
	r.sample(r.cfg.Duration, logf)
	cancel()
	<-prodDone
	if r.prodErr != nil {
		return nil, fmt.Errorf("producer: %w", r.prodErr)
	}
	for _, g := range r.groups {
		g.drained = g.waitDrained(cfg.Drain)
		results = append(results, g.result())
	}
	return results, nil
}

func (r *realRun) startCluster() error {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.GroupMinSessionTimeout(100*time.Millisecond))
	if err != nil {
		return fmt.Errorf("kfake: %w", err)
	}
	r.cluster = c
	r.client, err = kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerLinger(0), kgo.RetryTimeout(5*time.Second))
	if err != nil {
		c.Close()
		return err
	}
	req := kmsg.NewPtrCreateTopicsRequest()
	for _, t := range r.topics {
		ct := kmsg.NewCreateTopicsRequestTopic()
		ct.Topic, ct.NumPartitions, ct.ReplicationFactor = t.Name, int32(len(t.Partitions)), 1
		req.Topics = append(req.Topics, ct)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := req.RequestWith(ctx, r.client)
	if err == nil {
		for _, t := range resp.Topics {
			if t.ErrorCode != 0 {
				err = errors.Join(err, fmt.Errorf("create topic %s: error code %d", t.Topic, t.ErrorCode))
			}
		}
	}
	if err != nil {
		r.client.Close()
		c.Close()
	}
	return err
}

func (r *realRun) topicNames() []string {
	var out []string
	for _, t := range r.topics {
		out = append(out, t.Name)
	}
	return out
}

// produce writes each partition's rate, in batches every 20 ms (a
// partition's fractional records carry over), until ctx ends.
func (r *realRun) produce(ctx context.Context, done chan struct{}) {
	defer close(done)
	keys := slices.SortedFunc(maps.Keys(r.rates), func(a, b tp) int {
		if a.topic != b.topic {
			return strings.Compare(a.topic, b.topic)
		}
		return int(a.p - b.p)
	})
	credit := make(map[tp]float64, len(keys))
	rng := rand.New(rand.NewPCG(r.cfg.Seed, 9))
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	last := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			dt := now.Sub(last).Seconds()
			last = now
			var batch []*kgo.Record
			for _, k := range keys {
				credit[k] += r.rates[k] * dt
				for ; credit[k] >= 1; credit[k]-- {
					batch = append(batch, &kgo.Record{Topic: k.topic, Partition: k.p, Value: []byte{byte(rng.IntN(256))}})
				}
			}
			r.send(batch)
		}
	}
}

func (r *realRun) send(batch []*kgo.Record) {
	if len(batch) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	results := r.client.ProduceSync(ctx, batch...)
	cancel()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, res := range results {
		if res.Err != nil {
			r.prodErr = errors.Join(r.prodErr, res.Err)
			continue
		}
		k := tp{res.Record.Topic, res.Record.Partition}
		r.produced[k] = max(r.produced[k], res.Record.Offset+1)
	}
}

func (r *realRun) producedOf(k tp) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.produced[k]
}

// sample records every group's per-member lag and throughput every
// cfg.Sample for d.
func (r *realRun) sample(d time.Duration, logf func(string, ...any)) {
	tick := time.NewTicker(r.cfg.Sample)
	defer tick.Stop()
	end := time.After(d)
	for {
		select {
		case <-end:
			return
		case <-tick.C:
			for _, g := range r.groups {
				s := g.sample(time.Since(r.start))
				logf("%s %5.1fs lag %v", g.name, s.At.Seconds(), s.Lag)
			}
		}
	}
}
