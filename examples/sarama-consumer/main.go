// Command sarama-consumer runs a sarama consumer group with this module's
// cooperative-sticky assignor while records flow, and prints once a second
// how many records each member consumed, so that a rebalance shows who kept
// consuming. With -eager it runs the same script with this module's eager
// sticky assignor, for comparison: on each rebalance every member stops.
//
// Without -brokers it starts an embedded Kafka-protocol broker (franz-go's
// kfake, three brokers on 127.0.0.1) and creates the topic itself. A
// producer writes to every partition throughout; members join one at a time,
// then leave one at a time; the program then waits until every record has
// been consumed, prints a summary, and exits (bounded by -timeout). Every
// member's config goes through saramaassignor.CheckConfig first; its findings
// are printed, not fatal, so that bad settings can be tried.
//
//	go run ./examples/sarama-consumer
//	go run ./examples/sarama-consumer -eager
//	go run ./examples/sarama-consumer -brokers localhost:9092 -topic orders
//
// Each line printed once a second gives, for each member in the group, the
// records it consumed in that second, its longest gap between two records
// in that second, and the partitions it holds:
//
//	12s   member-1  197 gap 0.02s [0 2 6]   member-2  201 gap 0.03s [1 3 7]   member-3   98 gap 0.02s [4 5]
//
// With cooperative-sticky, the members that keep their partitions keep
// their pace through a rebalance; with -eager every member's gap grows to
// the length of the rebalance. A run with three members on the embedded
// broker takes about 15 seconds.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	ibm "github.com/IBM/sarama"
	"github.com/twmb/franz-go/pkg/kfake"
)

func main() {
	if os.Getenv("SARAMA_LOG") != "" {
		ibm.Logger = log.New(os.Stderr, "[sarama] ", log.Lmicroseconds)
	}
	o := defaults()
	brokers := flag.String("brokers", "", "comma-separated brokers; empty starts an embedded kfake cluster")
	timeout := flag.Duration("timeout", 60*time.Second, "exit after this long whatever happens")
	flag.StringVar(&o.topic, "topic", o.topic, "topic to produce to and consume")
	flag.IntVar(&o.partitions, "partitions", o.partitions, "partitions of the topic (embedded cluster only)")
	flag.IntVar(&o.members, "members", o.members, "members to start, one at a time")
	flag.StringVar(&o.group, "group", o.group, "consumer group ID")
	flag.BoolVar(&o.eager, "eager", o.eager, "run eager sticky instead of cooperative-sticky")
	flag.IntVar(&o.rate, "rate", o.rate, "records per second produced to each partition")
	flag.DurationVar(&o.hold, "hold", o.hold, "how long the group runs after each step before the next")
	flag.DurationVar(&o.heartbeat, "heartbeat", o.heartbeat, "Consumer.Group.Heartbeat.Interval")
	flag.DurationVar(&o.session, "session", o.session, "Consumer.Group.Session.Timeout")
	flag.DurationVar(&o.backoff, "retry-backoff", o.backoff, "Consumer.Group.Rebalance.Retry.Backoff (sarama's default: 2s)")
	flag.DurationVar(&o.commit, "commit-interval", o.commit, "Consumer.Offsets.AutoCommit.Interval")
	flag.DurationVar(&o.maxWait, "max-wait", o.maxWait, "Consumer.MaxWaitTime (sarama's default: 500ms)")
	flag.Parse()
	if *brokers != "" {
		o.brokers = strings.Split(*brokers, ",")
	}

	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	if _, err := run(ctx, o); err != nil {
		log.Print(err)
		os.Exit(1)
	}
}

// options are the script's settings.
type options struct {
	brokers    []string // empty: an embedded cluster
	topic      string
	partitions int // embedded cluster only
	members    int
	group      string
	eager      bool
	rate       int           // records per second per partition
	hold       time.Duration // how long each step's group runs once stable

	heartbeat, session, backoff, commit, maxWait time.Duration
}

// defaults are the flags' defaults.
func defaults() options {
	return options{
		topic: "orders", partitions: 8, members: 3, group: "sarama-consumer-example", rate: 50, hold: 2 * time.Second,
		heartbeat: 300 * time.Millisecond, session: 3 * time.Second, backoff: 100 * time.Millisecond,
		commit: time.Second, maxWait: 100 * time.Millisecond,
	}
}

// run runs the script: members join one at a time and leave one at a
// time while records flow, each step waiting until every partition is held
// again; then the producer stops and the last member consumes the rest.
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
		fmt.Printf("embedded kfake cluster at %v, topic %q with %d partitions\n", addrs, o.topic, o.partitions)
	}
	kind := "cooperative-sticky (this module's, cooperative)"
	if o.eager {
		kind = "sticky (this module's, eager)"
	}
	fmt.Printf("%s: %d members join one at a time, then leave; %d records/s to each partition\n", kind, o.members, o.rate)

	began := time.Now()
	t := newTally(began)
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
	step := func(what string) error {
		t.event(what)
		if !t.waitStable(ctx, len(running), p.partitions()) {
			return fmt.Errorf("no stable assignment after %q: %w", what, ctx.Err())
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
	}
	for len(running) > 1 {
		m := running[0]
		running = running[1:]
		m.stop()
		if err := step(m.name + " leaves"); err != nil {
			return summary{}, err
		}
	}
	produced := p.stop()
	t.event("producer stops")
	if !t.waitConsumed(ctx, produced) {
		return summary{}, fmt.Errorf("records left unconsumed: %w", ctx.Err())
	}
	stopPrinting()
	s := t.summary(produced)
	fmt.Print(s)
	return s, nil
}
