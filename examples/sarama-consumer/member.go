package main

import (
	"context"
	"errors"
	"fmt"

	ibm "github.com/IBM/sarama"

	"github.com/kgroup/assignor/adapters/saramaassignor"
	"github.com/kgroup/assignor/sticky"
)

// member is one consumer group member and its Consume loop.
type member struct {
	name   string
	group  ibm.ConsumerGroup
	cancel context.CancelFunc
	done   chan struct{}
	t      *tally
}

// config is a member's sarama config: this module's cooperative-sticky (or,
// with o.eager, its eager sticky), a fresh strategy per member.
func config(o options, name string) (*ibm.Config, error) {
	cfg := ibm.NewConfig()
	cfg.ClientID = name
	cfg.Version = ibm.V3_2_0_0 // owned partitions and generation in every join
	strategy := saramaassignor.CooperativeSticky()
	if o.eager {
		var err error
		if strategy, err = saramaassignor.New(sticky.New(), saramaassignor.Config{}); err != nil {
			return nil, err
		}
	}
	// The one line: set the list, do not append to it.
	cfg.Consumer.Group.Rebalance.GroupStrategies = []ibm.BalanceStrategy{strategy}
	cfg.Consumer.Group.Session.Timeout = o.session
	cfg.Consumer.Group.Heartbeat.Interval = o.heartbeat
	// A cooperative rebalance has a second round; members still syncing the
	// first get REBALANCE_IN_PROGRESS and retry after this backoff (2 s by
	// default).
	cfg.Consumer.Group.Rebalance.Retry.Backoff = o.backoff
	cfg.Consumer.Offsets.AutoCommit.Interval = o.commit
	// sarama sends fetches and group requests over one connection per
	// broker, answered in order: a heartbeat or join can wait behind a
	// fetch long-poll of MaxWaitTime (500 ms by default); keep it below the
	// heartbeat interval (docs/sarama.md).
	cfg.Consumer.MaxWaitTime = o.maxWait
	cfg.Consumer.Offsets.Initial = ibm.OffsetOldest
	return cfg, nil
}

func startMember(addrs []string, o options, name string, t *tally) (*member, error) {
	cfg, err := config(o, name)
	if err != nil {
		return nil, err
	}
	if err := saramaassignor.CheckConfig(cfg); err != nil {
		// Printed, not fatal, so that the flags can try bad settings.
		fmt.Printf("%s: config check:\n  %v\n", name, err)
	}
	g, err := ibm.NewConsumerGroup(addrs, o.group, cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &member{name: name, group: g, cancel: cancel, done: make(chan struct{}), t: t}
	t.join(name)
	go func() {
		defer close(m.done)
		for ctx.Err() == nil {
			if err := g.Consume(ctx, []string{o.topic}, m); errors.Is(err, ibm.ErrClosedConsumerGroup) {
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

func (m *member) Setup(ibm.ConsumerGroupSession) error   { return nil }
func (m *member) Cleanup(ibm.ConsumerGroupSession) error { return nil }

// ConsumeClaim consumes one partition from the moment sarama hands it over
// until sarama revokes it: with cooperative-sticky, only when it moves; with
// eager sticky, on every rebalance.
func (m *member) ConsumeClaim(sess ibm.ConsumerGroupSession, claim ibm.ConsumerGroupClaim) error {
	m.t.hold(m.name, claim.Partition(), true)
	defer m.t.hold(m.name, claim.Partition(), false)
	for {
		select {
		case msg, ok := <-claim.Messages():
			if !ok {
				return nil
			}
			m.t.consumed(m.name, msg.Partition, msg.Offset)
			sess.MarkMessage(msg, "")
		case <-sess.Context().Done():
			return nil
		}
	}
}
