package main

import (
	"context"
	"errors"
	"time"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/adapters/saramaassignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// member is one consumer group member and its Consume loop.
type member struct {
	name   string
	group  sarama.ConsumerGroup
	warmup time.Duration
	cancel context.CancelFunc
	done   chan struct{}
	t      *tally
}

// config is a member's sarama config: this module's cooperative-sticky (or,
// with o.eager, its eager sticky), a fresh strategy per member, reporting
// the leader's plans to onRebalance (nil for none).
func config(o options, name string, onRebalance func(saramaassignor.Stats)) (*sarama.Config, error) {
	var a assignor.Assignor = cooperative.Wrap(sticky.New()) // what saramaassignor.CooperativeSticky() runs
	if o.eager {
		a = sticky.New()
	}
	strategy, err := saramaassignor.New(a, saramaassignor.Config{OnRebalance: onRebalance})
	if err != nil {
		return nil, err
	}

	cfg := sarama.NewConfig()
	cfg.ClientID = name
	cfg.Version = sarama.V3_2_0_0 // owned partitions and generation in every join
	// The one line: set the list, do not append to it.
	cfg.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{strategy}
	cfg.Consumer.Group.Session.Timeout = o.session
	// Members learn of a rebalance, and of a cooperative rebalance's second
	// round, from their next heartbeat.
	cfg.Consumer.Group.Heartbeat.Interval = o.heartbeat
	// Members still syncing a cooperative rebalance's first round when the
	// second begins get REBALANCE_IN_PROGRESS, and retry after this.
	cfg.Consumer.Group.Rebalance.Retry.Backoff = o.backoff
	cfg.Consumer.Offsets.AutoCommit.Interval = o.commit
	// sarama sends fetches and group requests over one connection per
	// broker, answered in order: a heartbeat or join can wait behind a
	// fetch long-poll of MaxWaitTime; keep it below the heartbeat interval
	// (docs/sarama.md).
	cfg.Consumer.MaxWaitTime = o.maxWait
	cfg.Consumer.Offsets.Initial = sarama.OffsetOldest
	return cfg, nil
}

func startMember(addrs []string, o options, name string, t *tally) (*member, error) {
	cfg, err := config(o, name, t.planned)
	if err != nil {
		return nil, err
	}
	g, err := sarama.NewConsumerGroup(addrs, o.group, cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &member{name: name, group: g, warmup: o.warmup, cancel: cancel, done: make(chan struct{}), t: t}
	t.join(name)
	go func() {
		defer close(m.done)
		// With eager sticky, every rebalance ends Consume; with
		// cooperative-sticky, Consume runs until the member leaves.
		for ctx.Err() == nil {
			if err := g.Consume(ctx, []string{o.topic}, m); errors.Is(err, sarama.ErrClosedConsumerGroup) {
				return
			}
		}
	}()
	return m, nil
}

func (m *member) stop() {
	m.cancel()
	_ = m.group.Close()
	<-m.done
	m.t.leave(m.name)
}

func (m *member) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (m *member) Cleanup(sarama.ConsumerGroupSession) error { return nil }

// ConsumeClaim consumes one partition from the moment sarama hands it over
// until sarama revokes it: with cooperative-sticky, only when it moves; with
// eager sticky, on every rebalance. Each time, the member first pays the
// warm-up.
func (m *member) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	m.t.take(m.name, claim.Partition())
	defer m.t.release(m.name, claim.Partition())
	if !warmUp(sess.Context(), m.warmup) {
		return nil
	}
	for {
		select {
		case msg, ok := <-claim.Messages():
			if !ok { // revoked
				return nil
			}
			m.t.consumed(m.name, msg.Partition, msg.Offset)
			sess.MarkMessage(msg, "")
		case <-sess.Context().Done():
			return nil
		}
	}
}

// warmUp stands for what a member does before it can process a partition
// it takes (fill a cache, restore a state): it waits d, or until ctx ends,
// and reports whether it finished. A revoked claim learns it only from its
// Messages channel, so one revoked while warming up returns when the
// warm-up is over.
func warmUp(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}
