package main

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/kgroup/assignor/adapters/saramaassignor"
)

// run runs the script once. The first member starts the group; once it
// consumes every partition, measuring begins. Then members join one at a
// time and leave one at a time while records flow, each step waiting until
// every partition is consumed again and then for o.hold. Last, the producer
// stops and the last member consumes the rest.
func run(ctx context.Context, o options) (summary, error) {
	addrs := o.brokers
	if len(addrs) == 0 {
		c, err := kfake.NewCluster(kfake.NumBrokers(3), kfake.SeedTopics(int32(o.partitions), o.topic),
			kfake.GroupMinSessionTimeout(100*time.Millisecond))
		if err != nil {
			return summary{}, err
		}
		defer c.Close()
		addrs = c.ListenAddrs()
		fmt.Fprintf(o.log, "embedded kfake cluster at %v, topic %q with %d partitions\n", addrs, o.topic, o.partitions)
	}
	fmt.Fprintf(o.log, "%s: %s\n", o.protocol(), o.describe())
	if err := checkConfig(o); err != nil {
		return summary{}, err
	}

	t := newTally(o.log)
	p, err := startProducer(addrs, o.topic, o.rate, t)
	if err != nil {
		return summary{}, err
	}
	defer p.stop()
	stopPrinting := t.printEverySecond()
	defer stopPrinting()

	var running []*member
	defer func() {
		for _, m := range running {
			m.stop()
		}
	}()
	// step waits until every partition is consumed again, then lets the
	// group run for o.hold.
	step := func(what string) error {
		t.event(what)
		if !t.waitSettled(ctx, len(running), p.partitions()) {
			return fmt.Errorf("partitions left unconsumed after %q: %w", what, ctx.Err())
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(o.hold):
			return nil
		}
	}

	for i := range o.members {
		m, err := startMember(addrs, o, fmt.Sprintf("member-%d", i+1), t)
		if err != nil {
			return summary{}, err
		}
		running = append(running, m)
		if err := step(m.name + " joins"); err != nil {
			return summary{}, err
		}
		if i == 0 {
			t.event("member-1 consumes every partition: measuring from here")
			t.measureFromNow()
		}
	}
	for len(running) > 1 {
		m := running[0]
		running = running[1:]
		m.stop()
		if err := step(m.name + " leaves"); err != nil {
			return summary{}, err
		}
	}

	stopPrinting()
	produced := p.stop()
	t.event("producer stops")
	if !t.waitConsumed(ctx, produced) {
		return summary{}, fmt.Errorf("records left unconsumed: %w", ctx.Err())
	}
	return t.summary(produced, o.protocol(), o.warmup), nil
}

// checkConfig prints what saramaassignor.CheckConfig finds in the members'
// config: printed, not fatal, so that the flags can try bad settings.
func checkConfig(o options) error {
	cfg, err := config(o, "check", nil)
	if err != nil {
		return err
	}
	if err := saramaassignor.CheckConfig(cfg); err != nil {
		fmt.Fprintf(o.log, "config check:\n  %v\n", err)
	}
	return nil
}
