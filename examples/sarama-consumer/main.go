// Command sarama-consumer shows what a rebalance costs the members of a
// sarama consumer group, cooperative against eager. It runs a group with
// this module's cooperative-sticky assignor (with -eager, its eager sticky
// assignor) while records flow: members join one at a time, then leave one
// at a time. It prints once a second what each member consumed and which
// partitions went unconsumed, and at the end, for every partition, the
// longest time it went without a record and, for every member, how long it
// waited for its first record and the longest it stopped after that.
//
//	go run ./examples/sarama-consumer                 # cooperative-sticky
//	go run ./examples/sarama-consumer -eager          # eager sticky
//	go run ./examples/sarama-consumer -warmup 5s      # members pay 5 s to take a partition
//	go run ./examples/sarama-consumer -compare 5      # both, 5 runs each: the table of medians
//	go run ./examples/sarama-consumer -brokers localhost:9092 -topic orders
//
// # What each protocol costs
//
// An eager rebalance stops every partition of every member, and hands them
// all out again. A cooperative one stops only the partitions that move, but
// takes two rounds to move them: in the first the owners revoke them, in
// the second, which the other members learn of from their next heartbeat,
// the new owners get them. So with consumers that can start a partition
// at once, eager stops everything briefly and cooperative stops a few
// partitions longer. Cooperative pays off when taking a partition costs
// something: a cache to warm, a state to restore. -warmup sets that cost,
// a delay before a member processes the first record of a partition it
// takes, and eager pays it for every partition on every rebalance.
//
// # Timings
//
// The group runs with sarama's defaults (heartbeat 3 s, session 10 s,
// Rebalance.Retry.Backoff 2 s, MaxWaitTime 500 ms, auto-commit every
// 1 s), which is what a new user gets; the flags change them. Every
// member's config goes through saramaassignor.CheckConfig first; its
// findings are printed, not fatal, so that bad settings can be tried (at
// sarama's defaults it flags the 2 s backoff of a cooperative group).
//
// Without -brokers the program starts an embedded Kafka-protocol broker
// (franz-go's kfake, three brokers on 127.0.0.1) and creates the topic. An
// embedded broker shows the clients' own timings (heartbeats, backoffs,
// rounds) and nothing else: no network latency, no disk, no load from
// other groups, and consumers that do no work but the warm-up.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"time"

	"github.com/IBM/sarama"
)

func main() {
	if os.Getenv("SARAMA_LOG") != "" {
		sarama.Logger = log.New(os.Stderr, "[sarama] ", log.Lmicroseconds)
	}
	o := defaults()
	brokers := flag.String("brokers", "", "comma-separated brokers; empty starts an embedded kfake cluster")
	timeout := flag.Duration("timeout", 3*time.Minute, "give up a run after this long")
	runs := flag.Int("compare", 0, "run both protocols this many times each, alternately, and print a table of medians")
	flag.StringVar(&o.topic, "topic", o.topic, "topic to produce to and consume")
	flag.IntVar(&o.partitions, "partitions", o.partitions, "partitions of the topic (embedded cluster only)")
	flag.IntVar(&o.members, "members", o.members, "members to start, one at a time")
	flag.StringVar(&o.group, "group", o.group, "consumer group ID")
	flag.BoolVar(&o.eager, "eager", o.eager, "run eager sticky instead of cooperative-sticky")
	flag.DurationVar(&o.warmup, "warmup", o.warmup, "what a member pays to take a partition: a delay before it processes the partition's first record")
	flag.IntVar(&o.rate, "rate", o.rate, "records per second produced to each partition")
	flag.DurationVar(&o.hold, "hold", o.hold, "how long the group runs after each step, once every partition is consumed again")
	flag.DurationVar(&o.heartbeat, "heartbeat", o.heartbeat, "Consumer.Group.Heartbeat.Interval")
	flag.DurationVar(&o.session, "session", o.session, "Consumer.Group.Session.Timeout")
	flag.DurationVar(&o.backoff, "retry-backoff", o.backoff, "Consumer.Group.Rebalance.Retry.Backoff")
	flag.DurationVar(&o.commit, "commit-interval", o.commit, "Consumer.Offsets.AutoCommit.Interval")
	flag.DurationVar(&o.maxWait, "max-wait", o.maxWait, "Consumer.MaxWaitTime")
	flag.Parse()
	if *brokers != "" {
		o.brokers = strings.Split(*brokers, ",")
	}

	if err := start(o, *runs, *timeout); err != nil {
		log.Print(err)
		os.Exit(1)
	}
}

// start runs the script once, printing as it goes, or with runs > 0
// compares the protocols.
func start(o options, runs int, timeout time.Duration) error {
	if runs > 0 {
		return compare(o, runs, timeout)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	s, err := run(ctx, o)
	if err != nil {
		return err
	}
	fmt.Print(s)
	return nil
}

// options are the script's settings.
type options struct {
	brokers    []string // empty: an embedded cluster
	topic      string
	partitions int // embedded cluster only
	members    int
	group      string
	eager      bool
	warmup     time.Duration // before a member processes a partition it took
	rate       int           // records per second per partition
	hold       time.Duration // how long each step's group runs once settled
	log        io.Writer     // the timeline; io.Discard for none

	// sarama's group and consumer settings.
	heartbeat, session, backoff, commit, maxWait time.Duration
}

// defaults are the flags' defaults: sarama's own for its settings.
func defaults() options {
	c := sarama.NewConfig().Consumer
	return options{
		topic: "orders", partitions: 8, members: 3, group: "sarama-consumer-example", rate: 50, hold: 2 * time.Second,
		log:       os.Stdout,
		heartbeat: c.Group.Heartbeat.Interval, session: c.Group.Session.Timeout, backoff: c.Group.Rebalance.Retry.Backoff,
		commit: c.Offsets.AutoCommit.Interval, maxWait: c.MaxWaitTime,
	}
}

func (o options) protocol() string {
	if o.eager {
		return "eager"
	}
	return "cooperative"
}

// describe says what the script runs, in one line.
func (o options) describe() string {
	return fmt.Sprintf("%d members, %d records/s to each partition, warm-up %v; heartbeat %v, session %v, retry backoff %v, max wait %v",
		o.members, o.rate, o.warmup, o.heartbeat, o.session, o.backoff, o.maxWait)
}
