// Package demo is the embedded cluster of `assignor … -demo`: an
// in-process Kafka-protocol broker (franz-go's kfake on 127.0.0.1), a
// producer writing skewed per-partition rates, and a consumer group of
// sarama members on count-based sticky (this module's sticky assignor
// through the sarama adapter), each with a bounded capacity, so that the
// member given the hot partitions falls behind. The commands then have a
// live group to look at with no cluster of one's own.
//
// # Walk-through
//
// [Start] starts the broker, creates the topics, starts the producer and
// the members, and returns once the group is Stable with every partition
// assigned and traffic has flowed for a moment. [Cluster.Brokers] and
// [Cluster.Group] are what -brokers and -group would be.
// [Cluster.RollingRestart] restarts each member in turn (what `watch
// -demo` watches); [Cluster.Close] stops everything.
//
// The rates: partition r of the shuffled partitions (r = 1, 2, …) gets a
// share proportional to 1/r^1.1 (Zipf), from a fixed seed, so every run
// has the same hot partitions. Each member processes at most Capacity
// records/s (each record costs 1/Capacity s of the member's time).
package demo

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	ibm "github.com/IBM/sarama"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/adapters/saramaassignor"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/wire"
)

// Options shapes the demo. Zero fields take the defaults noted.
type Options struct {
	// Group is the consumer group's ID. Default "demo".
	Group string
	// Topics maps topic names to partition counts. Default orders: 12,
	// payments: 12.
	Topics map[string]int32
	// Members is the number of sarama members. Default 4.
	Members int
	// Rate is the records per second over all partitions. Default 400.
	Rate int
	// Capacity is each member's records per second. Default 1.3 × the
	// mean load per member.
	Capacity float64
	// Seed fixes which partitions are hot. Default 1.
	Seed uint64
	// Session and Heartbeat are the members' group timings. Defaults 3 s
	// and 300 ms.
	Session, Heartbeat time.Duration
	// Logf, if set, receives progress lines.
	Logf func(format string, args ...any)
	// OnSync, if set, sees every leader's SyncGroup on the broker, of any
	// group, as it arrives (before the broker answers): the generation
	// and the plan. Tests compare what the commands infer with it.
	OnSync func(Sync)
}

// Sync is one leader's SyncGroup request: the plan of one generation.
type Sync struct {
	At         time.Time
	Group      string
	Generation int32
	Leader     string
	// Plan maps each member ID to its assigned partitions (sorted); a
	// member whose assignment does not decode is absent.
	Plan map[string][]assignor.TopicPartitions
}

func (o *Options) defaults() {
	if o.Group == "" {
		o.Group = "demo"
	}
	if len(o.Topics) == 0 {
		o.Topics = map[string]int32{"orders": 12, "payments": 12}
	}
	if o.Members <= 0 {
		o.Members = 4
	}
	if o.Rate <= 0 {
		o.Rate = 400
	}
	if o.Capacity <= 0 {
		o.Capacity = 1.3 * float64(o.Rate) / float64(o.Members)
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Session <= 0 {
		o.Session = 3 * time.Second
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = 300 * time.Millisecond
	}
}

// TP names one partition.
type TP struct {
	Topic     string
	Partition int32
}

// Cluster is a running demo.
type Cluster struct {
	opts    Options
	cluster *kfake.Cluster
	client  *kgo.Client
	rates   map[TP]float64

	prodCancel context.CancelFunc
	prodDone   chan struct{}

	mu      sync.Mutex
	members []*member // by index; a restarted member replaces its slot
	starts  map[int]int
	prodErr error
}

// Start starts the demo and waits (up to a minute) until its group is
// Stable with every partition assigned.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	opts.defaults()
	kc, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.GroupMinSessionTimeout(100*time.Millisecond),
		kfake.BrokerConfigs(map[string]string{"group.consumer.heartbeat.interval.ms": "250", "group.consumer.session.timeout.ms": "3000"}))
	if err != nil {
		return nil, fmt.Errorf("demo: start broker: %w", err)
	}
	c := &Cluster{opts: opts, cluster: kc, rates: zipfRates(opts), starts: map[int]int{}}
	if opts.OnSync != nil {
		kc.ControlKey(int16(kmsg.SyncGroup), func(req kmsg.Request) (kmsg.Response, error, bool) {
			r, ok := req.(*kmsg.SyncGroupRequest)
			if !ok || len(r.GroupAssignment) == 0 {
				return nil, nil, false
			}
			s := Sync{At: time.Now(), Group: r.Group, Generation: r.Generation, Leader: r.MemberID, Plan: map[string][]assignor.TopicPartitions{}}
			for _, a := range r.GroupAssignment {
				if dec, err := wire.DecodeAssignment(a.MemberAssignment); err == nil {
					s.Plan[a.MemberID] = assignor.NormalizeTopicPartitions(dec.Partitions)
				}
			}
			opts.OnSync(s)
			return nil, nil, false // observe only: the broker answers
		})
	}
	c.client, err = kgo.NewClient(kgo.SeedBrokers(kc.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerLinger(0), kgo.RetryTimeout(5*time.Second))
	if err != nil {
		kc.Close()
		return nil, fmt.Errorf("demo: client: %w", err)
	}
	if err := c.createTopics(ctx); err != nil {
		c.client.Close()
		kc.Close()
		return nil, err
	}
	pctx, cancel := context.WithCancel(context.Background())
	c.prodCancel, c.prodDone = cancel, make(chan struct{})
	go c.produce(pctx)
	// One at a time, as a deployment scales out: every member but the
	// first then carries a claim generation, which describe reads.
	for i := range opts.Members {
		m, err := c.startMember(i)
		if err != nil {
			c.Close()
			return nil, err
		}
		c.mu.Lock()
		c.members = append(c.members, m)
		c.mu.Unlock()
		if err := c.WaitStable(ctx, time.Minute); err != nil {
			c.Close()
			return nil, err
		}
	}
	if err := c.waitCommitted(ctx, 10*time.Second); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// waitCommitted waits until the group has committed an offset on every
// partition, so that lag reads.
func (c *Cluster) waitCommitted(ctx context.Context, timeout time.Duration) error {
	want := 0
	for _, n := range c.opts.Topics {
		want += int(n)
	}
	deadline := time.Now().Add(timeout)
	for {
		req := kmsg.NewPtrOffsetFetchRequest()
		req.Group = c.opts.Group
		got := 0
		if resp, err := req.RequestWith(ctx, c.client); err == nil {
			for _, t := range resp.Topics {
				for _, p := range t.Partitions {
					if p.ErrorCode == 0 && p.Offset >= 0 {
						got++
					}
				}
			}
		}
		if got == want {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("demo: group %s committed %d of %d partitions after %v", c.opts.Group, got, want, timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Brokers returns the broker addresses (-brokers).
func (c *Cluster) Brokers() []string { return c.cluster.ListenAddrs() }

// Group returns the group's ID (-group).
func (c *Cluster) Group() string { return c.opts.Group }

// Topics returns the topic names, sorted.
func (c *Cluster) Topics() []string { return slices.Sorted(maps.Keys(c.opts.Topics)) }

// Rates returns each partition's produced records/s.
func (c *Cluster) Rates() map[TP]float64 { return maps.Clone(c.rates) }

// Kfake returns the broker, for tests that watch its requests.
func (c *Cluster) Kfake() *kfake.Cluster { return c.cluster }

// Rate returns the records/s produced over all partitions.
func (c *Cluster) Rate() int { return c.opts.Rate }

// Members returns how many members the demo runs.
func (c *Cluster) Members() int { return c.opts.Members }

// Capacity returns each member's records/s.
func (c *Cluster) Capacity() float64 { return c.opts.Capacity }

func (c *Cluster) logf(format string, args ...any) {
	if c.opts.Logf != nil {
		c.opts.Logf(format, args...)
	}
}

func (c *Cluster) createTopics(ctx context.Context) error {
	req := kmsg.NewPtrCreateTopicsRequest()
	for _, name := range c.Topics() {
		t := kmsg.NewCreateTopicsRequestTopic()
		t.Topic, t.NumPartitions, t.ReplicationFactor = name, c.opts.Topics[name], 1
		req.Topics = append(req.Topics, t)
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	resp, err := req.RequestWith(cctx, c.client)
	if err != nil {
		return fmt.Errorf("demo: create topics: %w", err)
	}
	for _, t := range resp.Topics {
		if t.ErrorCode != 0 {
			return fmt.Errorf("demo: create topic %s: error code %d", t.Topic, t.ErrorCode)
		}
	}
	return nil
}

// zipfRates gives partition of rank r (in an order shuffled from the
// seed) a share of o.Rate proportional to 1/r^1.1.
func zipfRates(o Options) map[TP]float64 {
	var tps []TP
	for _, name := range slices.Sorted(maps.Keys(o.Topics)) {
		for p := range o.Topics[name] {
			tps = append(tps, TP{name, p})
		}
	}
	rng := rand.New(rand.NewPCG(o.Seed, 26))
	rng.Shuffle(len(tps), func(i, j int) { tps[i], tps[j] = tps[j], tps[i] })
	var sum float64
	share := make([]float64, len(tps))
	for i := range tps {
		share[i] = 1 / math.Pow(float64(i+1), 1.1)
		sum += share[i]
	}
	out := make(map[TP]float64, len(tps))
	for i, k := range tps {
		out[k] = float64(o.Rate) * share[i] / sum
	}
	return out
}

// produce writes each partition's rate in batches every 20 ms (fractions
// carry over) until ctx ends.
func (c *Cluster) produce(ctx context.Context) {
	defer close(c.prodDone)
	keys := slices.SortedFunc(maps.Keys(c.rates), func(a, b TP) int {
		if a.Topic != b.Topic {
			if a.Topic < b.Topic {
				return -1
			}
			return 1
		}
		return int(a.Partition - b.Partition)
	})
	credit := make(map[TP]float64, len(keys))
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
				credit[k] += c.rates[k] * dt
				for ; credit[k] >= 1; credit[k]-- {
					batch = append(batch, &kgo.Record{Topic: k.Topic, Partition: k.Partition, Value: []byte("v")})
				}
			}
			if len(batch) == 0 {
				continue
			}
			pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			for _, r := range c.client.ProduceSync(pctx, batch...) {
				if r.Err != nil && !errors.Is(r.Err, context.Canceled) {
					c.mu.Lock()
					c.prodErr = r.Err
					c.mu.Unlock()
				}
			}
			cancel()
		}
	}
}

// member is one sarama consumer with a bounded capacity.
type member struct {
	name   string
	cg     ibm.ConsumerGroup
	cancel context.CancelFunc
	done   chan struct{}
	cost   time.Duration

	busy sync.Mutex
	next time.Time
}

// startMember starts member i: named GROUP-i the first time, GROUP-i.N
// for its Nth start.
func (c *Cluster) startMember(i int) (*member, error) {
	c.mu.Lock()
	c.starts[i]++
	incarnation := c.starts[i]
	c.mu.Unlock()
	name := fmt.Sprintf("%s-%d", c.opts.Group, i)
	if incarnation > 1 {
		name = fmt.Sprintf("%s-%d.%d", c.opts.Group, i, incarnation)
	}
	strategy, err := saramaassignor.New(sticky.New(), saramaassignor.Config{})
	if err != nil {
		return nil, err
	}
	cfg := ibm.NewConfig()
	cfg.Version = ibm.V3_2_0_0
	cfg.ClientID = name
	cfg.Metadata.Retry.Backoff = 50 * time.Millisecond
	cfg.Consumer.Group.Rebalance.GroupStrategies = []ibm.BalanceStrategy{strategy}
	cfg.Consumer.Group.Session.Timeout = c.opts.Session
	cfg.Consumer.Group.Heartbeat.Interval = c.opts.Heartbeat
	cfg.Consumer.Group.Rebalance.Timeout = 10 * time.Second
	cfg.Consumer.Group.Rebalance.Retry.Backoff = 50 * time.Millisecond
	cfg.Consumer.Group.Rebalance.Retry.Max = 20
	cfg.Consumer.Offsets.Initial = ibm.OffsetOldest
	cfg.Consumer.Offsets.AutoCommit.Interval = 200 * time.Millisecond
	cfg.Consumer.MaxWaitTime = 50 * time.Millisecond
	cfg.Consumer.Return.Errors = false
	cg, err := ibm.NewConsumerGroup(c.Brokers(), c.opts.Group, cfg)
	if err != nil {
		return nil, fmt.Errorf("demo: member %s: %w", name, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &member{name: name, cg: cg, cancel: cancel, done: make(chan struct{}), cost: time.Duration(float64(time.Second) / c.opts.Capacity)}
	topics := c.Topics()
	go func() {
		defer close(m.done)
		for ctx.Err() == nil {
			if err := cg.Consume(ctx, topics, m); err != nil {
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
	c.logf("demo: started %s", name)
	return m, nil
}

func (m *member) Setup(ibm.ConsumerGroupSession) error   { return nil }
func (m *member) Cleanup(ibm.ConsumerGroupSession) error { return nil }

func (m *member) ConsumeClaim(sess ibm.ConsumerGroupSession, claim ibm.ConsumerGroupClaim) error {
	for {
		select {
		case msg, ok := <-claim.Messages():
			if !ok {
				return nil
			}
			if !m.work(sess.Context()) {
				return nil
			}
			sess.MarkMessage(msg, "")
		case <-sess.Context().Done():
			return nil
		}
	}
}

// work spends one record's cost of the member's time, queued behind the
// records of its other partitions; false if ctx ended first.
func (m *member) work(ctx context.Context) bool {
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

func (m *member) stop() {
	m.cancel()
	_ = m.cg.Close()
	<-m.done
}

// WaitStable waits until the group is Stable, has as many members as the
// demo runs, and every partition is assigned, or fails after timeout.
func (c *Cluster) WaitStable(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	want := 0
	for _, n := range c.opts.Topics {
		want += int(n)
	}
	var last string
	for {
		c.mu.Lock()
		live := len(c.members)
		c.mu.Unlock()
		state, members, assigned, err := c.describe(ctx)
		switch {
		case err != nil:
			last = err.Error()
		case state == "Stable" && members == live && assigned == want:
			return nil
		default:
			last = fmt.Sprintf("state %s, %d of %d members, %d of %d partitions assigned", state, members, live, assigned, want)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("demo: group %s not stable after %v: %s", c.opts.Group, timeout, last)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// describe returns the group's state, member count and how many partitions
// its members are assigned.
func (c *Cluster) describe(ctx context.Context) (string, int, int, error) {
	req := kmsg.NewPtrDescribeGroupsRequest()
	req.Groups = []string{c.opts.Group}
	dctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	resp, err := req.RequestWith(dctx, c.client)
	if err != nil {
		return "", 0, 0, err
	}
	if len(resp.Groups) != 1 {
		return "", 0, 0, errors.New("no group in the response")
	}
	g := resp.Groups[0]
	assigned := 0
	for _, m := range g.Members {
		var a kmsg.ConsumerMemberAssignment
		if err := a.ReadFrom(m.MemberAssignment); err == nil {
			for _, t := range a.Topics {
				assigned += len(t.Partitions)
			}
		}
	}
	return g.State, len(g.Members), assigned, nil
}

// RollingRestart stops and restarts each member in turn, waiting for the
// group to be stable after each stop and each start, and pause after each
// restart.
func (c *Cluster) RollingRestart(ctx context.Context, pause time.Duration) error {
	c.mu.Lock()
	n := len(c.members)
	c.mu.Unlock()
	for i := range n {
		c.mu.Lock()
		m := c.members[i]
		c.members = slices.Delete(c.members, i, i+1)
		c.mu.Unlock()
		c.logf("demo: stopping %s", m.name)
		m.stop()
		if err := c.WaitStable(ctx, time.Minute); err != nil {
			return err
		}
		nm, err := c.startMember(i)
		if err != nil {
			return err
		}
		c.mu.Lock()
		c.members = slices.Insert(c.members, i, nm)
		c.mu.Unlock()
		if err := c.WaitStable(ctx, time.Minute); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
	}
	return nil
}

// Close stops the members, the producer and the broker, and returns the
// producer's last error, if any.
func (c *Cluster) Close() error {
	c.mu.Lock()
	ms := slices.Clone(c.members)
	c.members = nil
	c.mu.Unlock()
	var wg sync.WaitGroup
	for _, m := range ms {
		wg.Go(m.stop)
	}
	wg.Wait()
	if c.prodCancel != nil {
		c.prodCancel()
		<-c.prodDone
	}
	c.client.Close()
	c.cluster.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.prodErr
}
