package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	ibm "github.com/IBM/sarama"
)

// offsets are records by partition and offset.
type offsets map[int32]map[int64]bool

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
	client ibm.Client
	sync   ibm.SyncProducer
	n      int
	cancel context.CancelFunc
	done   chan struct{}

	mu       sync.Mutex
	produced offsets
	once     sync.Once
}

func startProducer(addrs []string, topic string, rate int, t *tally) (*producer, error) {
	cfg := ibm.NewConfig()
	cfg.Version = ibm.V3_2_0_0
	cfg.Producer.Return.Successes = true
	cfg.Producer.Partitioner = ibm.NewManualPartitioner
	client, err := ibm.NewClient(addrs, cfg)
	if err != nil {
		return nil, err
	}
	partitions, err := client.Partitions(topic)
	if err == nil && len(partitions) == 0 {
		err = fmt.Errorf("topic %q has no partitions", topic)
	}
	var sp ibm.SyncProducer
	if err == nil {
		sp, err = ibm.NewSyncProducerFromClient(client)
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
		msgs := make([]*ibm.ProducerMessage, len(partitions))
		for i, part := range partitions {
			msgs[i] = &ibm.ProducerMessage{Topic: topic, Partition: part, Value: ibm.StringEncoder(fmt.Sprint(seq))}
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

// tally is what the members hold and consume, for the lines printed once a
// second, the steps of the script and the summary.
type tally struct {
	began time.Time

	mu      sync.Mutex
	order   []string                  // members in the order they joined
	running map[string]bool           // members in the group now
	held    map[string]map[int32]bool // member → partitions its handlers hold
	changed time.Time                 // when held last changed
	second  map[string]int            // member → records in the current second
	paused  map[string]time.Duration  // member → longest gap between records ending in it
	last    map[string]time.Time      // member → time of its last record
	gap     map[string]time.Duration  // member → longest time between two of its records
	seen    offsets                   // records consumed
	dups    int
}

func newTally(began time.Time) *tally {
	return &tally{
		began: began, running: map[string]bool{}, held: map[string]map[int32]bool{}, second: map[string]int{}, paused: map[string]time.Duration{},
		last: map[string]time.Time{}, gap: map[string]time.Duration{}, seen: offsets{},
	}
}

// event prints what happens, with the time since the start.
func (t *tally) event(what string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Printf("%6.1fs  %s\n", time.Since(t.began).Seconds(), what)
}

func (t *tally) join(member string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.order = append(t.order, member)
	t.running[member] = true
}

func (t *tally) leave(member string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.running, member)
	delete(t.held, member)
	t.changed = time.Now()
}

// hold records that member's handler for partition started or stopped.
func (t *tally) hold(member string, partition int32, holds bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.held[member] == nil {
		t.held[member] = map[int32]bool{}
	}
	if holds {
		for other, ps := range t.held {
			if other != member && ps[partition] {
				// Never seen with our assignor while both members were in
				// the group; a member evicted without knowing it can still
				// be running its handlers (see docs/sarama.md).
				fmt.Printf("  note: %s starts partition %d while %s still holds it\n", member, partition, other)
			}
		}
		t.held[member][partition] = true
	} else {
		delete(t.held[member], partition)
	}
	t.changed = time.Now()
}

// consumed records one record consumed by member.
func (t *tally) consumed(member string, partition int32, offset int64) {
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.second[member]++
	if last, ok := t.last[member]; ok {
		t.gap[member] = max(t.gap[member], now.Sub(last))
		t.paused[member] = max(t.paused[member], now.Sub(last))
	}
	t.last[member] = now
	if !t.seen.add(partition, offset) {
		t.dups++
	}
}

// printEverySecond prints, once a second, how many records each member in
// the group consumed in that second, and the partitions it holds. It
// returns a function that stops it (safe to call twice).
func (t *tally) printEverySecond() (stop func()) {
	done := make(chan struct{})
	var once sync.Once
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				t.printSecond()
			}
		}
	}()
	return func() {
		once.Do(func() { close(done); <-stopped })
	}
}

func (t *tally) printSecond() {
	t.mu.Lock()
	defer t.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "%6.0fs ", time.Since(t.began).Seconds())
	for _, m := range t.order {
		if t.running[m] || t.second[m] > 0 {
			fmt.Fprintf(&b, "  %s %4d gap %.2fs %-12s", m, t.second[m], t.paused[m].Seconds(), fmt.Sprint(slices.Sorted(maps.Keys(t.held[m]))))
		}
	}
	fmt.Println(strings.TrimRight(b.String(), " "))
	clear(t.second)
	clear(t.paused)
}

// waitStable waits until every partition is held, by as many members as
// there are partitions to go round, and nothing has changed for half a
// second.
func (t *tally) waitStable(ctx context.Context, members, partitions int) bool {
	return poll(ctx, func() bool {
		t.mu.Lock()
		defer t.mu.Unlock()
		holding, held := 0, 0
		for _, ps := range t.held {
			if len(ps) > 0 {
				holding++
			}
			held += len(ps)
		}
		return holding >= min(members, partitions) && held == partitions && time.Since(t.changed) > 500*time.Millisecond
	})
}

// waitConsumed waits until every record of produced has been consumed.
func (t *tally) waitConsumed(ctx context.Context, produced offsets) bool {
	return poll(ctx, func() bool {
		t.mu.Lock()
		defer t.mu.Unlock()
		return t.missing(produced) == 0
	})
}

// missing counts the records of produced nobody consumed; t.mu is held.
func (t *tally) missing(produced offsets) int {
	n := 0
	for p, offs := range produced {
		for off := range offs {
			if !t.seen[p][off] {
				n++
			}
		}
	}
	return n
}

func poll(ctx context.Context, done func() bool) bool {
	for !done() {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(50 * time.Millisecond):
		}
	}
	return true
}

// summary is the outcome of a run.
type summary struct {
	produced, lost, duplicates int
	members                    []string                 // in the order they joined
	longestGap                 map[string]time.Duration // member → longest time between two of its records
}

func (t *tally) summary(produced offsets) summary {
	t.mu.Lock()
	defer t.mu.Unlock()
	return summary{
		produced: produced.count(), lost: t.missing(produced), duplicates: t.dups,
		members: slices.Clone(t.order), longestGap: maps.Clone(t.gap),
	}
}

func (s summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "produced %d records: %d not consumed, %d consumed twice (after a revocation, records\n"+
		"processed since the last auto-commit are consumed again by the next owner)\n", s.produced, s.lost, s.duplicates)
	b.WriteString("longest time each member went without a record while it was consuming:\n")
	for _, m := range s.members {
		fmt.Fprintf(&b, "  %s %.2fs", m, s.longestGap[m].Seconds())
	}
	b.WriteString("\n")
	return b.String()
}
