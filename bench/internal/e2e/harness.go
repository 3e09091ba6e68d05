package e2e

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// Harness is an in-process Kafka (kfake, three brokers on 127.0.0.1), a
// producer writing records continuously, and the group members a script
// starts and stops. It records every claim, every consumed record and every
// plan a leader sent.
type Harness struct {
	opts    Options
	cluster *kfake.Cluster // nil on an external cluster
	watch   *watcher
	rec     *recorder
	admin   *kgo.Client

	prodCancel context.CancelFunc
	prodDone   chan struct{}
	prodMu     sync.Mutex
	produced   map[TP]int64 // end offset (last acked + 1)
	prodErr    error

	mu         sync.Mutex
	members    map[string]*Member
	kindOf     map[string]string
	instanceOf map[string]string // member name → static instance ID
	from, to   time.Time
	// eventAt is when the first join, leave or crash since the group was
	// last stable happened (zero if none); settles are the times from such
	// an event to the group's next stable state, within the window.
	eventAt time.Time
	settles []time.Duration
}

// Start starts the cluster (unless Options.Brokers names one) and the
// producer.
func Start(opts Options) (*Harness, error) {
	opts.defaults()
	h := &Harness{opts: opts, rec: newRecorder(), produced: map[TP]int64{}, members: map[string]*Member{}, kindOf: map[string]string{}, instanceOf: map[string]string{}}
	if !h.external() {
		c, err := kfake.NewCluster(
			kfake.NumBrokers(3),
			kfake.GroupMinSessionTimeout(100*time.Millisecond), // listens on 127.0.0.1
			kfake.BrokerConfigs(map[string]string{
				"group.consumer.heartbeat.interval.ms": fmt.Sprint(opts.ConsumerHeartbeat.Milliseconds()),
				"group.consumer.session.timeout.ms":    fmt.Sprint(opts.ConsumerSession.Milliseconds()),
			}),
		)
		if err != nil {
			return nil, fmt.Errorf("e2e: start cluster: %w", err)
		}
		h.cluster = c
	}
	var err error
	h.admin, err = kgo.NewClient(kgo.SeedBrokers(h.addrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerLinger(0), kgo.RetryTimeout(5*time.Second))
	if err != nil {
		h.closeCluster()
		return nil, fmt.Errorf("e2e: admin client: %w", err)
	}
	if err := h.createTopics(); err != nil {
		h.admin.Close()
		h.closeCluster()
		return nil, err
	}
	if h.external() {
		if err := h.setGroupTimings(); err != nil {
			h.admin.Close()
			return nil, err
		}
	} else {
		h.cluster.ControlKey(int16(kmsg.SyncGroup), h.observeSync)
	}
	h.startWatcher()
	ctx, cancel := context.WithCancel(context.Background())
	h.prodCancel, h.prodDone = cancel, make(chan struct{})
	go h.produce(ctx)
	return h, nil
}

// external reports whether the harness runs on an external cluster
// (Options.Brokers) rather than an in-process kfake.
func (h *Harness) external() bool { return len(h.opts.Brokers) > 0 }

// deleteTopics deletes the run's topics from an external cluster (best
// effort: a failure leaves them behind).
func (h *Harness) deleteTopics() {
	if !h.external() {
		return
	}
	req := kmsg.NewPtrDeleteTopicsRequest()
	req.TopicNames = h.opts.topicNames()
	for _, name := range req.TopicNames {
		t := kmsg.NewDeleteTopicsRequestTopic()
		t.Topic = kmsg.StringPtr(name)
		req.Topics = append(req.Topics, t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := req.RequestWith(ctx, h.admin); err != nil {
		h.logf("delete topics %v: %v", req.TopicNames, err)
	}
}

func (h *Harness) closeCluster() {
	if h.cluster != nil {
		h.cluster.Close()
	}
}

// addrs returns the brokers' addresses.
func (h *Harness) addrs() []string {
	if h.external() {
		return h.opts.Brokers
	}
	return h.cluster.ListenAddrs()
}

func (h *Harness) logf(format string, args ...any) {
	if h.opts.Logf != nil {
		h.opts.Logf(format, args...)
	}
}

func (h *Harness) createTopics() error {
	req := kmsg.NewPtrCreateTopicsRequest()
	for _, name := range h.opts.topicNames() {
		t := kmsg.NewCreateTopicsRequestTopic()
		t.Topic, t.NumPartitions, t.ReplicationFactor = name, h.opts.Topics[name], 3
		if h.external() {
			t.ReplicationFactor = 1
		}
		req.Topics = append(req.Topics, t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := req.RequestWith(ctx, h.admin)
	if err != nil {
		return fmt.Errorf("e2e: create topics: %w", err)
	}
	for _, t := range resp.Topics {
		if t.ErrorCode != 0 {
			return fmt.Errorf("e2e: create topic %s: error code %d", t.Topic, t.ErrorCode)
		}
	}
	return nil
}

// observeSync records each leader's SyncGroup plan; it never answers.
func (h *Harness) observeSync(req kmsg.Request) (kmsg.Response, error, bool) {
	r, ok := req.(*kmsg.SyncGroupRequest)
	if !ok || r.Group != h.opts.Group || len(r.GroupAssignment) == 0 {
		return nil, nil, false
	}
	s := leaderSync{At: time.Now(), Generation: r.Generation, Leader: r.MemberID, Plan: map[string][]assignor.TopicPartitions{}}
	if r.Protocol != nil {
		s.Protocol = *r.Protocol
	}
	for _, a := range r.GroupAssignment {
		dec, err := wire.DecodeAssignment(a.MemberAssignment)
		if err != nil && len(a.MemberAssignment) > 0 {
			s.Undecoded = append(s.Undecoded, a.MemberID)
			continue
		}
		s.Plan[a.MemberID] = assignor.NormalizeTopicPartitions(dec.Partitions)
	}
	h.rec.sync(s)
	return nil, nil, false
}

func (h *Harness) subscribed() []TP {
	var out []TP
	for _, name := range h.opts.topicNames() {
		for p := range h.opts.Topics[name] {
			out = append(out, TP{name, p})
		}
	}
	return out
}

// produce writes Rate records per second, round-robin over partitions, in
// batches every 20 ms, until stopped.
func (h *Harness) produce(ctx context.Context) {
	defer close(h.prodDone)
	tps := h.subscribed()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	if h.opts.Rate < 0 {
		<-ctx.Done()
		return
	}
	perTick := max(1, h.opts.Rate/50)
	next := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		batch := make([]*kgo.Record, 0, perTick)
		for range perTick {
			tp := tps[next%len(tps)]
			next++
			batch = append(batch, &kgo.Record{Topic: tp.Topic, Partition: tp.Partition, Value: []byte("v")})
		}
		pctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		results := h.admin.ProduceSync(pctx, batch...)
		cancel()
		acked := time.Now()
		h.prodMu.Lock()
		for _, r := range results {
			if r.Err != nil {
				h.prodErr = errors.Join(h.prodErr, r.Err)
				continue
			}
			tp := TP{r.Record.Topic, r.Record.Partition}
			h.produced[tp] = max(h.produced[tp], r.Record.Offset+1)
			h.rec.produced(tp, r.Record.Offset, acked)
		}
		h.prodMu.Unlock()
	}
}

// Join starts a member of the given kind; instance is its static instance
// ID or "". Names must be unique over the run.
func (h *Harness) Join(name string, kind Kind, instance string) (*Member, error) {
	m := &Member{Name: name, Kind: kind, Instance: instance, h: h, dialer: NewCrashDialer(2 * time.Second), done: make(chan struct{})}
	if kind.ServerSide {
		h.watch.consumerProtocol()
	}
	h.mu.Lock()
	if _, dup := h.kindOf[name]; dup {
		h.mu.Unlock()
		return nil, fmt.Errorf("e2e: member name %q used twice", name)
	}
	h.kindOf[name] = kind.Name
	h.instanceOf[name] = instance
	h.members[name] = m
	h.eventLocked()
	h.mu.Unlock()
	var err error
	if kind.Kgo != nil {
		err = h.startKgo(m)
	} else {
		err = h.startSarama(m)
	}
	if err != nil {
		return nil, fmt.Errorf("e2e: start %s (%s): %w", name, kind.Name, err)
	}
	h.logf("join %s (%s)", name, kind.Name)
	return m, nil
}

// Leave stops a member gracefully and forgets it.
func (h *Harness) Leave(m *Member) {
	h.logf("leave %s", m.Name)
	h.mu.Lock()
	h.eventLocked()
	h.mu.Unlock()
	m.Stop()
	h.mu.Lock()
	delete(h.members, m.Name)
	h.mu.Unlock()
}

// eventLocked notes a join, leave or crash: the start of a settle time
// unless one is already running. h.mu must be held.
func (h *Harness) eventLocked() {
	if h.eventAt.IsZero() {
		h.eventAt = time.Now()
	}
}

// settled ends the running settle time at stableAt, the moment the group
// reached the state it then kept; it counts when it falls in the window.
func (h *Harness) settled(stableAt time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.eventAt.IsZero() {
		return
	}
	if !h.from.IsZero() && h.to.IsZero() {
		h.settles = append(h.settles, max(0, stableAt.Sub(h.eventAt)))
	}
	h.eventAt = time.Time{}
}

// Live returns the running members, by name.
func (h *Harness) Live() []*Member {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.SortedFunc(maps.Values(h.members), func(a, b *Member) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
}

// WaitStable waits until every subscribed partition is held by exactly one
// live, uncrashed member and that has not changed for settle, or fails after
// timeout.
func (h *Harness) WaitStable(settle, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	var stableSince time.Time
	var last string
	for time.Now().Before(deadline) {
		held := h.rec.held()
		state, ok := h.coverage(held)
		switch {
		case !ok:
			stableSince = time.Time{}
		case state != last:
			stableSince = time.Now()
		case time.Since(stableSince) >= settle:
			h.settled(stableSince)
			return nil
		}
		last = state
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("e2e: group not stable after %v: held %v", timeout, h.rec.held())
}

func (h *Harness) coverage(held map[string][]TP) (string, bool) {
	h.mu.Lock()
	live := map[string]bool{}
	for name, m := range h.members {
		live[name] = !m.isCrashed()
	}
	h.mu.Unlock()
	owner := map[TP]string{}
	for name, tps := range held {
		if !live[name] {
			continue
		}
		for _, tp := range tps {
			if _, dup := owner[tp]; dup {
				return "", false
			}
			owner[tp] = name
		}
	}
	sub := h.subscribed()
	if len(owner) != len(sub) || !h.converged(owner) {
		return "", false
	}
	return fmt.Sprint(owner), true
}

// converged reports whether the group holds exactly the newest applied plan
// and that plan names every live member: no rebalance is half done, and no
// member is still joining. Static members are matched by instance ID (kfake
// gives a restarted static member a new member ID and, without a
// rebalance, the old member's assignment).
func (h *Harness) converged(owner map[TP]string) bool {
	h.mu.Lock()
	identity := map[string]string{}
	var live []*Member
	for name, m := range h.members {
		if !m.isCrashed() {
			live = append(live, m)
		}
		identity[name] = name
	}
	for name, inst := range h.instanceOf {
		if inst != "" {
			identity[name] = "instance " + inst
		} else if _, ok := identity[name]; !ok {
			identity[name] = name
		}
	}
	h.mu.Unlock()
	for _, m := range live {
		if m.kgo != nil {
			if id, _ := m.kgo.GroupMetadata(); id != "" {
				h.rec.seenMemberID(m.Name, id)
			}
		}
	}
	var plan map[string][]assignor.TopicPartitions
	var ok bool
	if h.external() && !h.watch.sawConsumerGroup() {
		plan, ok = h.watch.classicPlan()
	} else {
		plan, ok = h.rec.latestPlan()
		ok = ok && (!h.watch.sawConsumerGroup() || h.watch.consumerReconciled())
	}
	if !ok {
		return false
	}
	planned := map[TP]string{}
	members := map[string]bool{}
	for name, tps := range plan {
		members[identity[name]] = true
		for tp := range tpsOf(tps) {
			planned[tp] = identity[name]
		}
	}
	for _, m := range live {
		if !members[identity[m.Name]] {
			return false
		}
	}
	for tp, name := range owner {
		if planned[tp] != identity[name] {
			return false
		}
	}
	return true
}

// MarkStart starts the measured window; MarkEnd ends it.
func (h *Harness) MarkStart() { h.mu.Lock(); h.from = time.Now(); h.mu.Unlock() }

// MarkEnd ends the measured window.
func (h *Harness) MarkEnd() { h.mu.Lock(); h.to = time.Now(); h.mu.Unlock() }

// Finish stops the producer, waits (up to timeout) until every produced
// record is consumed and committed, stops every member and the cluster, and
// returns the report. The harness cannot be used afterwards.
func (h *Harness) Finish(script, kind string, timeout time.Duration) (Report, error) {
	h.mu.Lock()
	if h.to.IsZero() {
		h.to = time.Now()
	}
	if h.from.IsZero() {
		h.from = h.to
	}
	h.mu.Unlock()
	h.prodCancel()
	<-h.prodDone

	h.prodMu.Lock()
	produced := maps.Clone(h.produced)
	prodErr := h.prodErr
	h.prodMu.Unlock()

	var committed map[TP]int64
	deadline := time.Now().Add(timeout)
	for {
		var err error
		committed, err = h.committed()
		if err == nil && h.drained(produced, committed) {
			break
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, m := range h.Live() {
		h.Leave(m)
	}
	if c, err := h.committed(); err == nil {
		committed = c
	}
	h.watch.stop()
	h.deleteTopics()
	h.admin.Close()
	h.closeCluster()

	rep := h.rec.report(h.from, h.to, h.kindOf, h.instanceOf, h.subscribed(), produced, committed)
	rep.Script, rep.Kind = script, kind
	rep.ConsumerGroup = h.watch.sawConsumerGroup()
	h.mu.Lock()
	rep.Settles = slices.Clone(h.settles)
	h.mu.Unlock()
	if prodErr != nil {
		return rep, fmt.Errorf("e2e: produce: %w", prodErr)
	}
	return rep, nil
}

func (h *Harness) drained(produced, committed map[TP]int64) bool {
	h.rec.mu.Lock()
	defer h.rec.mu.Unlock()
	for tp, end := range produced {
		if committed[tp] < end || int64(len(h.rec.consumed[tp])) < end {
			return false
		}
	}
	return true
}

// committed fetches the group's committed offsets.
func (h *Harness) committed() (map[TP]int64, error) {
	req := kmsg.NewPtrOffsetFetchRequest()
	req.Group = h.opts.Group
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	resp, err := req.RequestWith(ctx, h.admin)
	if err != nil {
		return nil, err
	}
	if resp.ErrorCode != 0 {
		return nil, fmt.Errorf("e2e: offset fetch: error code %d", resp.ErrorCode)
	}
	out := map[TP]int64{}
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			if p.ErrorCode == 0 && p.Offset >= 0 {
				out[TP{t.Topic, p.Partition}] = p.Offset
			}
		}
	}
	return out, nil
}

// Close tears everything down without a report (for failed scripts).
func (h *Harness) Close() {
	h.prodCancel()
	<-h.prodDone
	for _, m := range h.Live() {
		h.Leave(m)
	}
	h.watch.stop()
	h.deleteTopics()
	h.admin.Close()
	h.closeCluster()
}
