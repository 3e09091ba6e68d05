package e2e

import (
	"context"
	"errors"
	"sync"
	"time"

	ibm "github.com/IBM/sarama"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroup/assignor"
)

// Kind is a kind of group member: a client and its strategies.
type Kind struct {
	// Name labels the kind in reports ("ours", "sarama-coop", …).
	Name string
	// Sarama builds a sarama member's GroupStrategies, fresh for each member
	// (stateful strategies serve one member each). Nil for a franz-go member.
	Sarama func() []ibm.BalanceStrategy
	// Kgo builds a franz-go member's balancers. Nil for a sarama member.
	Kgo func() []kgo.GroupBalancer
	// ServerSide makes a franz-go member join with the KIP-848 consumer
	// protocol (kgo.ServerSideBalancer): the broker assigns, with "uniform"
	// when the first balancer is kgo's sticky and "range" when it is kgo's
	// range; kgo falls back to the classic protocol with those balancers
	// when the broker does not serve KIP-848.
	ServerSide bool
}

// Member is one running group member.
type Member struct {
	Name     string
	Kind     Kind
	Instance string // static instance ID, or ""

	h      *Harness
	dialer *CrashDialer
	cancel context.CancelFunc
	done   chan struct{}

	// mu orders record processing against Crash: every record the member
	// recorded was processed before its crash time.
	mu      sync.Mutex
	crashed bool
	owned   map[TP]bool // franz-go: the partitions it holds now
	work    worker      // franz-go: what it polled and has yet to process

	sarama ibm.ConsumerGroup
	kgo    *kgo.Client
}

// process records one consumed record unless the member has crashed; it
// reports whether the record counts as processed.
func (m *Member) process(tp TP, offset int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.crashed {
		return false
	}
	if m.owned != nil && !m.owned[tp] {
		return false
	}
	m.h.rec.consume(m.Name, tp, offset, time.Now())
	return true
}

func (m *Member) isCrashed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.crashed
}

// Crash kills the member's network: its connections are reset, new ones
// refused, its handlers stop processing, and its claims end now. It does not
// leave the group; the coordinator evicts it after the session timeout.
func (m *Member) Crash() {
	m.h.mu.Lock() // before m.mu: coverage holds h.mu while it reads m
	m.h.eventLocked()
	m.h.mu.Unlock()
	m.mu.Lock()
	m.crashed = true
	now := time.Now()
	m.dialer.Crash()
	m.h.rec.endAll(m.Name, now)
	m.mu.Unlock()
}

// Stop shuts the member down: a graceful leave (LeaveGroup, or for a static
// member just closing), or, after Crash, releasing its goroutines. It
// returns when the member's goroutines are done.
func (m *Member) Stop() {
	m.cancel()
	if m.sarama != nil {
		_ = m.sarama.Close()
	}
	<-m.done
	if m.kgo != nil {
		m.kgo.Close()
	}
	m.h.rec.endAll(m.Name, time.Now())
}

func (h *Harness) startSarama(m *Member) error {
	cfg := ibm.NewConfig()
	cfg.Version = ibm.V3_2_0_0
	cfg.ClientID = m.Name
	cfg.Net.Proxy.Enable = true
	cfg.Net.Proxy.Dialer = m.dialer
	cfg.Net.DialTimeout = 2 * time.Second
	cfg.Net.ReadTimeout = 3 * time.Second
	cfg.Net.WriteTimeout = 3 * time.Second
	cfg.Metadata.Retry.Backoff = 50 * time.Millisecond
	cfg.Consumer.Group.Rebalance.GroupStrategies = nil // NewConfig's default is [range]
	for _, s := range m.Kind.Sarama() {
		cfg.Consumer.Group.Rebalance.GroupStrategies = append(cfg.Consumer.Group.Rebalance.GroupStrategies,
			observe(s, func(gen int32, tps []assignor.TopicPartitions) { h.rec.receive(m.Name, gen, tps) }))
	}
	cfg.Consumer.Group.Session.Timeout = h.opts.Session
	cfg.Consumer.Group.Heartbeat.Interval = h.opts.Heartbeat
	cfg.Consumer.Group.Rebalance.Timeout = h.opts.RebalanceTimeout
	cfg.Consumer.Group.Rebalance.Retry.Backoff = h.opts.RetryBackoff
	cfg.Consumer.Group.Rebalance.Retry.Max = 20
	cfg.Consumer.Offsets.Initial = ibm.OffsetOldest
	cfg.Consumer.Offsets.AutoCommit.Interval = 100 * time.Millisecond
	cfg.Consumer.MaxWaitTime = 50 * time.Millisecond
	cfg.Consumer.Retry.Backoff = 50 * time.Millisecond
	cfg.Consumer.Return.Errors = false
	if m.Instance != "" {
		cfg.Consumer.Group.InstanceId = m.Instance
	}
	if h.opts.Tune != nil {
		h.opts.Tune(cfg)
	}
	g, err := ibm.NewConsumerGroup(h.addrs(), h.opts.Group, cfg)
	if err != nil {
		return err
	}
	m.sarama = g
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	go func() {
		defer close(m.done)
		handler := &saramaHandler{m: m}
		for ctx.Err() == nil {
			if err := g.Consume(ctx, h.opts.topicNames(), handler); err != nil {
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

type saramaHandler struct{ m *Member }

func (s *saramaHandler) Setup(sess ibm.ConsumerGroupSession) error {
	s.m.h.rec.seenMemberID(s.m.Name, sess.MemberID())
	return nil
}

func (s *saramaHandler) Cleanup(ibm.ConsumerGroupSession) error { return nil }

func (s *saramaHandler) ConsumeClaim(sess ibm.ConsumerGroupSession, claim ibm.ConsumerGroupClaim) error {
	m := s.m
	tp := TP{claim.Topic(), claim.Partition()}
	if m.isCrashed() {
		return nil
	}
	m.h.rec.claimStart(m.Name, sess.MemberID(), tp, sess.GenerationID(), time.Now())
	defer func() {
		if !m.isCrashed() {
			m.h.rec.claimEnd(m.Name, tp, time.Now())
		}
	}()
	for {
		select {
		case msg, ok := <-claim.Messages():
			if !ok {
				return nil
			}
			if !m.process(tp, msg.Offset) {
				return nil
			}
			sess.MarkMessage(msg, "")
		case <-sess.Context().Done():
			return nil
		}
	}
}

func (h *Harness) startKgo(m *Member) error {
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	m.owned = map[TP]bool{}
	m.work = newWorker()
	balancers := m.Kind.Kgo()
	opts := []kgo.Opt{
		kgo.SeedBrokers(h.addrs()...),
		kgo.ClientID(m.Name),
		kgo.Dialer(m.dialer.DialContext),
		kgo.ConsumerGroup(h.opts.Group),
		kgo.ConsumeTopics(h.opts.topicNames()...),
		kgo.Balancers(balancers...),
		kgo.SessionTimeout(h.opts.KgoSession),
		kgo.HeartbeatInterval(h.opts.KgoHeartbeat),
		kgo.RebalanceTimeout(h.opts.RebalanceTimeout),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchMaxWait(50 * time.Millisecond),
		kgo.BlockRebalanceOnPoll(),
		kgo.AutoCommitMarks(),
		kgo.AutoCommitInterval(100 * time.Millisecond),
		kgo.RetryTimeout(5 * time.Second),
		kgo.OnPartitionsAssigned(func(_ context.Context, cl *kgo.Client, assigned map[string][]int32) {
			id, gen := cl.GroupMetadata()
			now := time.Now()
			m.mu.Lock()
			defer m.mu.Unlock()
			if m.crashed {
				return
			}
			var tps []TP
			for topic, ps := range assigned {
				for _, p := range ps {
					tp := TP{topic, p}
					m.owned[tp] = true
					tps = append(tps, tp)
					h.rec.claimStart(m.Name, id, tp, gen, now)
				}
			}
			m.assignedLocked(tps, now)
		}),
		kgo.OnPartitionsRevoked(func(ctx context.Context, cl *kgo.Client, revoked map[string][]int32) {
			if !m.isCrashed() {
				_ = cl.CommitMarkedOffsets(ctx)
			}
			m.release(revoked)
		}),
		kgo.OnPartitionsLost(func(_ context.Context, _ *kgo.Client, lost map[string][]int32) {
			m.release(lost)
		}),
	}
	if m.Instance != "" {
		opts = append(opts, kgo.InstanceID(m.Instance))
	}
	if m.Kind.ServerSide {
		opts = append(opts, kgo.ServerSideBalancer())
	}

	// A balancer that binds itself to its client (this module's franz-go
	// adapter, for fast re-join) is also passed as a hook, as its doc asks.
	for _, b := range balancers {
		if hook, ok := b.(kgo.HookNewClient); ok {
			opts = append(opts, kgo.WithHooks(hook))
		}
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		cancel()
		return err
	}
	m.kgo = cl
	go func() {
		defer close(m.done)
		m.pollLoop(ctx, cl)
	}()
	return nil
}

func (m *Member) release(tps map[string][]int32) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	for topic, ps := range tps {
		for _, p := range ps {
			tp := TP{topic, p}
			delete(m.owned, tp)
			m.revokedLocked(tp)
			if !m.crashed {
				m.h.rec.claimEnd(m.Name, tp, now)
			}
		}
	}
}
