package e2e

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/IBM/sarama"

	harness "github.com/kgroup/assignor/bench/internal/e2e"
)

// recordingStrategy wraps the strategy of one sarama member and tells the ledger which
// generations that member led. sarama calls, for every JoinGroup of the member,
// SubscriptionUserData first, then Plan if the member is the leader, then, once SyncGroup
// succeeded, OnAssignment with the new generation: a Plan since the last SubscriptionUserData
// means the member led the generation OnAssignment names. The wrapper forwards every optional
// interface the inner strategy has; where the inner strategy lacks SubscriptionUserData it
// returns an error, on which sarama uses the same user data as for a strategy without the hook.
type recordingStrategy struct {
	inner  sarama.BalanceStrategy
	kind   string // the kind a generation this strategy planned is led by
	member string
	ledger *ledger
	planed atomic.Bool
}

var (
	_ sarama.RebalanceProtocolBalanceStrategy    = (*recordingStrategy)(nil)
	_ sarama.SubscriptionUserDataBalanceStrategy = (*recordingStrategy)(nil)
	_ sarama.OnAssignmentBalanceStrategy         = (*recordingStrategy)(nil)
)

var errNoUserDataHook = errors.New("e2e: the inner strategy has no SubscriptionUserData")

func (s *recordingStrategy) Name() string { return s.inner.Name() }

func (s *recordingStrategy) Plan(members map[string]sarama.ConsumerGroupMemberMetadata, topics map[string][]int32) (sarama.BalanceStrategyPlan, error) {
	plan, err := s.inner.Plan(members, topics)
	if err != nil {
		s.ledger.problem("%s: Plan failed: %v", s.member, err)
		return nil, err
	}
	s.planed.Store(true)
	return plan, nil
}

func (s *recordingStrategy) AssignmentData(memberID string, topics map[string][]int32, generationID int32) ([]byte, error) {
	return s.inner.AssignmentData(memberID, topics, generationID)
}

func (s *recordingStrategy) SupportedProtocols() []sarama.RebalanceProtocol {
	if p, ok := s.inner.(sarama.RebalanceProtocolBalanceStrategy); ok {
		return p.SupportedProtocols()
	}
	return []sarama.RebalanceProtocol{sarama.RebalanceProtocolEager}
}

func (s *recordingStrategy) SubscriptionUserData(topics []string) ([]byte, error) {
	s.planed.Store(false)
	if p, ok := s.inner.(sarama.SubscriptionUserDataBalanceStrategy); ok {
		return p.SubscriptionUserData(topics)
	}
	return nil, errNoUserDataHook
}

func (s *recordingStrategy) OnAssignment(assignment *sarama.ConsumerGroupMemberAssignment, generationID int32) {
	if s.planed.Swap(false) {
		s.ledger.ledBy(generationID, s.member, s.kind)
	}
	if p, ok := s.inner.(sarama.OnAssignmentBalanceStrategy); ok {
		p.OnAssignment(assignment, generationID)
	}
}

// goMember is one sarama consumer-group member using the strategy under test.
type goMember struct {
	name    string
	dialer  *harness.CrashDialer
	crashed atomic.Bool
	group   sarama.ConsumerGroup
	ledger  *ledger
	done    chan struct{}
	cancel  context.CancelFunc
}

// goMemberConfig is what a sarama member is started with.
type goMemberConfig struct {
	name      string
	kind      string // the member's kind in the ledger
	instance  string
	group     string
	topics    []string
	bootstrap string
	session   time.Duration
	heartbeat time.Duration
	rebalance time.Duration
	// strategies in order of preference, each with the kind of a generation it leads; sarama
	// uses the cooperative protocol only if every one of them supports it.
	strategies []kindStrategy
	crash      *harness.CrashDialer // nil: no crash
}

type kindStrategy struct {
	kind     string
	strategy sarama.BalanceStrategy
}

func startGoMember(l *ledger, c goMemberConfig) (*goMember, error) {
	l.member(c.name, c.kind)
	cfg := clientConfig(c.name)
	cfg.Consumer.Group.Rebalance.GroupStrategies = nil // not sarama's default, range
	for _, ks := range c.strategies {
		cfg.Consumer.Group.Rebalance.GroupStrategies = append(cfg.Consumer.Group.Rebalance.GroupStrategies,
			&recordingStrategy{inner: ks.strategy, kind: ks.kind, member: c.name, ledger: l})
	}
	if c.crash != nil {
		cfg.Net.Proxy.Enable = true
		cfg.Net.Proxy.Dialer = c.crash
	}
	cfg.Consumer.Group.Session.Timeout = c.session
	cfg.Consumer.Group.Heartbeat.Interval = c.heartbeat
	cfg.Consumer.Group.Rebalance.Timeout = c.rebalance
	cfg.Consumer.Group.Rebalance.Retry.Backoff = 100 * time.Millisecond
	cfg.Consumer.Group.InstanceId = c.instance
	cfg.Consumer.Offsets.Initial = sarama.OffsetOldest
	cfg.Consumer.Offsets.AutoCommit.Interval = 100 * time.Millisecond
	cfg.Consumer.MaxWaitTime = 100 * time.Millisecond
	cfg.Consumer.Return.Errors = true
	group, err := sarama.NewConsumerGroup([]string{c.bootstrap}, c.group, cfg)
	if err != nil {
		return nil, fmt.Errorf("member %s: %w", c.name, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &goMember{name: c.name, dialer: c.crash, group: group, ledger: l, done: make(chan struct{}), cancel: cancel}
	go func() {
		for err := range group.Errors() {
			if !errors.Is(err, sarama.ErrRebalanceInProgress) && !m.crashed.Load() {
				l.problem("%s: %v", c.name, err)
			}
		}
	}()
	go func() {
		defer close(m.done)
		h := &handler{member: m, ledger: l}
		for ctx.Err() == nil {
			err := group.Consume(ctx, c.topics, h)
			if errors.Is(err, sarama.ErrClosedConsumerGroup) {
				return
			}
			if err != nil && ctx.Err() == nil && !m.crashed.Load() {
				l.problem("%s: Consume: %v", c.name, err)
				time.Sleep(100 * time.Millisecond)
			}
		}
	}()
	return m, nil
}

// stop closes the member: a dynamic member leaves the group, a static one does not; sarama
// commits what was marked before it returns.
func (m *goMember) stop() error {
	err := m.group.Close()
	m.cancel()
	<-m.done
	if m.crashed.Load() {
		return nil
	}
	m.ledger.memberGone(m.name, time.Now())
	return err
}

// crash cuts the member off: every connection reset, new ones refused, nothing processed any
// more; its claims end now.
func (m *goMember) crash() {
	m.crashed.Store(true)
	m.dialer.Crash()
	m.ledger.memberGone(m.name, time.Now())
}

type handler struct {
	member *goMember
	ledger *ledger
}

func (h *handler) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (h *handler) Cleanup(sarama.ConsumerGroupSession) error { return nil }

func (h *handler) ConsumeClaim(sess sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error {
	tp := topicPartition{c.Topic(), c.Partition()}
	gen := sess.GenerationID()
	if h.member.crashed.Load() {
		return nil
	}
	name := h.member.name
	h.ledger.claimStart(name, tp, gen, time.Now())
	defer func() {
		if !h.member.crashed.Load() {
			h.ledger.claimEnd(name, tp, time.Now())
		}
	}()
	for {
		select {
		case msg, ok := <-c.Messages():
			if !ok || h.member.crashed.Load() {
				return nil
			}
			h.ledger.consume(name, tp, gen, []int64{msg.Offset}, time.Now())
			sess.MarkMessage(msg, "")
		case <-sess.Context().Done():
			return nil
		}
	}
}

// producer writes one record to every partition of the topics in turn, every interval, and
// records each written offset.
type producer struct {
	stopOnce sync.Once
	stopCh   chan struct{}
	done     chan struct{}
}

func startProducer(l *ledger, bootstrap string, topics []string, partitions int32, interval time.Duration) (*producer, error) {
	cfg := clientConfig("producer")
	cfg.Producer.Return.Successes = true
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	cfg.Producer.Partitioner = sarama.NewManualPartitioner
	cfg.Producer.Retry.Max = 10
	cfg.Producer.Retry.Backoff = 50 * time.Millisecond
	sp, err := sarama.NewSyncProducer([]string{bootstrap}, cfg)
	if err != nil {
		return nil, err
	}
	p := &producer{stopCh: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		defer sp.Close()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		n := 0
		for {
			select {
			case <-p.stopCh:
				return
			case <-tick.C:
			}
			var batch []*sarama.ProducerMessage
			for _, topic := range topics {
				for part := range partitions {
					batch = append(batch, &sarama.ProducerMessage{Topic: topic, Partition: part, Value: sarama.StringEncoder(fmt.Sprint(n))})
				}
			}
			n++
			failed := make(map[*sarama.ProducerMessage]bool)
			if err := sp.SendMessages(batch); err != nil {
				var perrs sarama.ProducerErrors
				if !errors.As(err, &perrs) {
					l.problem("producer: %v", err)
					continue
				}
				for _, pe := range perrs {
					failed[pe.Msg] = true
				}
				l.problem("producer: %d of %d records failed: %v", len(perrs), len(batch), perrs[0].Err)
			}
			for _, msg := range batch {
				if !failed[msg] {
					l.produce(topicPartition{msg.Topic, msg.Partition}, msg.Offset)
				}
			}
		}
	}()
	return p, nil
}

func (p *producer) stop() {
	p.stopOnce.Do(func() { close(p.stopCh) })
	<-p.done
}

// everythingToEveryone is a deliberately broken cooperative strategy: every member gets every
// partition. Kafka does not check plans, so every member consumes everything, and the suite's
// checks must report overlapping claims and duplicates.
type everythingToEveryone struct{}

var _ sarama.RebalanceProtocolBalanceStrategy = everythingToEveryone{}

func (everythingToEveryone) Name() string { return "broken-everything" }

func (everythingToEveryone) SupportedProtocols() []sarama.RebalanceProtocol {
	return []sarama.RebalanceProtocol{sarama.RebalanceProtocolCooperative}
}

func (everythingToEveryone) Plan(members map[string]sarama.ConsumerGroupMemberMetadata, topics map[string][]int32) (sarama.BalanceStrategyPlan, error) {
	plan := make(sarama.BalanceStrategyPlan)
	for id := range members {
		for topic, partitions := range topics {
			plan.Add(id, topic, partitions...)
		}
	}
	return plan, nil
}

func (everythingToEveryone) AssignmentData(string, map[string][]int32, int32) ([]byte, error) {
	return nil, nil
}
