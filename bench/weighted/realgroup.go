package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	ibm "github.com/IBM/sarama"
	"github.com/kgroup/assignor"
)

// realGroup is one consumer group of the experiment: sarama members whose
// leader plans with one assignor, and what they processed.
type realGroup struct {
	run     *realRun
	name    string
	newA    func() assignor.Assignor
	weight  func(string, int32) int64
	members []*realMember

	mu        sync.Mutex
	owner     map[tp]*realMember // current claim
	lastClaim time.Time
	seen      map[tp][]bool // processed offsets
	distinct  map[tp]int64
	overlaps  []string
	dups      int64
	series    []sample
	drained   bool
}

// realMember is one sarama consumer with a bounded capacity: each record
// costs cost of its time, records of all its partitions queue for it.
type realMember struct {
	g      *realGroup
	name   string
	cost   time.Duration
	cg     ibm.ConsumerGroup
	cancel context.CancelFunc
	done   chan struct{}

	busy      sync.Mutex
	next      time.Time
	processed atomic.Int64
	lastCount int64 // at the previous sample
}

// sample is one point of the series: per member (in member order) the lag
// of the partitions it holds and its records per second since the last
// sample.
type sample struct {
	At   time.Duration
	Lag  []int64
	Rate []float64
}

func newRealGroup(r *realRun, name string, newA func() assignor.Assignor, weight func(string, int32) int64) *realGroup {
	return &realGroup{run: r, name: name, newA: newA, weight: weight, owner: map[tp]*realMember{}, seen: map[tp][]bool{}, distinct: map[tp]int64{}}
}

func (g *realGroup) startMembers() error {
	cost := time.Duration(float64(time.Second) / g.run.cfg.capacity())
	for i := range g.run.cfg.Members {
		m := &realMember{g: g, name: fmt.Sprintf("%s-%d", g.name, i), cost: cost, done: make(chan struct{})}
		if err := m.start(); err != nil {
			return err
		}
		g.members = append(g.members, m)
	}
	return nil
}

func (m *realMember) start() error {
	cfg := ibm.NewConfig()
	cfg.Version = ibm.V3_2_0_0
	cfg.ClientID = m.name
	cfg.Metadata.Retry.Backoff = 50 * time.Millisecond
	cfg.Consumer.Group.Rebalance.GroupStrategies = []ibm.BalanceStrategy{&leaderStrategy{a: m.g.newA(), weight: m.g.weight}}
	cfg.Consumer.Group.Session.Timeout = 3 * time.Second
	cfg.Consumer.Group.Heartbeat.Interval = 300 * time.Millisecond
	cfg.Consumer.Group.Rebalance.Timeout = 10 * time.Second
	cfg.Consumer.Group.Rebalance.Retry.Backoff = 50 * time.Millisecond
	cfg.Consumer.Offsets.Initial = ibm.OffsetOldest
	cfg.Consumer.Offsets.AutoCommit.Interval = 100 * time.Millisecond
	cfg.Consumer.MaxWaitTime = 50 * time.Millisecond
	cfg.Consumer.Return.Errors = false
	cg, err := ibm.NewConsumerGroup(m.g.run.cluster.ListenAddrs(), "group-"+m.g.name, cfg)
	if err != nil {
		return fmt.Errorf("%s: %w", m.name, err)
	}
	m.cg = cg
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	go func() {
		defer close(m.done)
		for ctx.Err() == nil {
			if err := cg.Consume(ctx, m.g.run.topicNames(), m); err != nil {
				if errors.Is(err, ibm.ErrClosedConsumerGroup) {
					return
				}
				select {
				case <-ctx.Done():
				case <-time.After(100 * time.Millisecond):
				}
			}
		}
	}()
	return nil
}

func (m *realMember) Setup(ibm.ConsumerGroupSession) error   { return nil }
func (m *realMember) Cleanup(ibm.ConsumerGroupSession) error { return nil }

func (m *realMember) ConsumeClaim(sess ibm.ConsumerGroupSession, claim ibm.ConsumerGroupClaim) error {
	k := tp{claim.Topic(), claim.Partition()}
	m.g.claim(k, m)
	defer m.g.release(k, m)
	for {
		select {
		case msg, ok := <-claim.Messages():
			if !ok {
				return nil
			}
			if !m.work(sess.Context()) {
				return nil
			}
			m.g.processed(k, msg.Offset)
			m.processed.Add(1)
			sess.MarkMessage(msg, "")
		case <-sess.Context().Done():
			return nil
		}
	}
}

// work spends one record's cost of the member's time: it queues behind the
// records of the member's other partitions. It reports false if ctx ended
// first (the record is then not processed).
func (m *realMember) work(ctx context.Context) bool {
	m.busy.Lock()
	now := time.Now()
	start := m.next
	if start.Before(now) {
		start = now
	}
	m.next = start.Add(m.cost)
	until := m.next
	m.busy.Unlock()
	t := time.NewTimer(time.Until(until))
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func (m *realMember) stop() {
	if m.cancel == nil {
		return
	}
	m.cancel()
	_ = m.cg.Close()
	<-m.done
	m.cancel = nil
}

func (g *realGroup) stop() {
	for _, m := range g.members {
		m.stop()
	}
}

func (g *realGroup) claim(k tp, m *realMember) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if o := g.owner[k]; o != nil && o != m {
		g.overlaps = append(g.overlaps, fmt.Sprintf("%s/%d claimed by %s while %s holds it", k.topic, k.p, m.name, o.name))
	}
	g.owner[k] = m
	g.lastClaim = time.Now()
}

func (g *realGroup) release(k tp, m *realMember) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.owner[k] == m {
		delete(g.owner, k)
	}
}

func (g *realGroup) processed(k tp, offset int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.seen[k]
	for int64(len(s)) <= offset {
		s = append(s, false)
	}
	if s[offset] {
		g.dups++
	} else {
		s[offset] = true
		g.distinct[k]++
	}
	g.seen[k] = s
}

// waitStable waits until every partition is claimed and no claim began for
// settle.
func (g *realGroup) waitStable(settle, timeout time.Duration) error {
	total := len(g.run.rates)
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		g.mu.Lock()
		ok := len(g.owner) == total && time.Since(g.lastClaim) >= settle
		g.mu.Unlock()
		if ok {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("%s: not stable after %s (%d of %d partitions claimed)", g.name, timeout, len(g.owner), total)
}

// loads returns each member's share of the produced rate under the current
// claims, in member order.
func (g *realGroup) loads() []float64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]float64, len(g.members))
	for k, m := range g.owner {
		out[slices.Index(g.members, m)] += g.run.rates[k]
	}
	return out
}

// predicted renders each member's load over its capacity.
func (g *realGroup) predicted() string {
	var parts []string
	for _, l := range g.loads() {
		parts = append(parts, fmt.Sprintf("%.0f%%", 100*l/g.run.cfg.capacity()))
	}
	return strings.Join(parts, " ")
}

func (g *realGroup) sample(at time.Duration) sample {
	s := sample{At: at, Lag: make([]int64, len(g.members)), Rate: make([]float64, len(g.members))}
	produced := map[tp]int64{}
	for k := range g.run.rates {
		produced[k] = g.run.producedOf(k)
	}
	g.mu.Lock()
	for k, m := range g.owner {
		s.Lag[slices.Index(g.members, m)] += produced[k] - g.distinct[k]
	}
	g.mu.Unlock()
	var dt float64
	if n := len(g.series); n > 0 {
		dt = (at - g.series[n-1].At).Seconds()
	} else {
		dt = at.Seconds()
	}
	for i, m := range g.members {
		c := m.processed.Load()
		s.Rate[i] = float64(c-m.lastCount) / dt
		m.lastCount = c
	}
	g.mu.Lock()
	g.series = append(g.series, s)
	g.mu.Unlock()
	return s
}

// waitDrained waits up to timeout until every produced record was
// processed, and reports whether it was.
func (g *realGroup) waitDrained(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		lost := g.lost()
		if lost == 0 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// lost counts the produced records not processed.
func (g *realGroup) lost() int64 {
	var n int64
	for k := range g.run.rates {
		p := g.run.producedOf(k)
		g.mu.Lock()
		n += p - g.distinct[k]
		g.mu.Unlock()
	}
	return n
}
