// Command sarama-consumer runs a sarama consumer group with this module's
// cooperative-sticky assignor and prints each member's assignment as members
// join and leave.
//
// Without -brokers it starts an embedded Kafka-protocol broker (franz-go's
// kfake, three brokers on 127.0.0.1) and creates the topic itself. Members
// join one at a time, then leave one at a time; the program exits on its own
// (bounded by -timeout).
//
//	go run ./examples/sarama-consumer
//	go run ./examples/sarama-consumer -brokers localhost:9092 -topic orders
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	ibm "github.com/IBM/sarama"
	"github.com/twmb/franz-go/pkg/kfake"

	saramaadapter "github.com/kgroup/assignor/adapters/sarama"
)

func main() {
	if os.Getenv("SARAMA_LOG") != "" {
		ibm.Logger = log.New(os.Stderr, "[sarama] ", log.Lmicroseconds)
	}
	brokers := flag.String("brokers", "", "comma-separated brokers; empty starts an embedded kfake cluster")
	topic := flag.String("topic", "orders", "topic to consume")
	partitions := flag.Int("partitions", 8, "partitions of the topic (embedded cluster only)")
	members := flag.Int("members", 3, "members to start, one at a time")
	group := flag.String("group", "sarama-consumer-example", "consumer group ID")
	timeout := flag.Duration("timeout", 60*time.Second, "exit after this long whatever happens")
	flag.DurationVar(&settings.heartbeat, "heartbeat", 300*time.Millisecond, "Consumer.Group.Heartbeat.Interval")
	flag.DurationVar(&settings.session, "session", 3*time.Second, "Consumer.Group.Session.Timeout")
	flag.DurationVar(&settings.backoff, "retry-backoff", 100*time.Millisecond, "Consumer.Group.Rebalance.Retry.Backoff (sarama's default: 2s)")
	flag.DurationVar(&settings.commit, "commit-interval", time.Second, "Consumer.Offsets.AutoCommit.Interval")
	flag.DurationVar(&settings.maxWait, "max-wait", 100*time.Millisecond, "Consumer.MaxWaitTime (sarama's default: 500ms)")
	flag.Parse()

	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	if err := run(ctx, *brokers, *topic, int32(*partitions), *members, *group); err != nil {
		log.Print(err)
		os.Exit(1)
	}
}

// settings are the members' group timings.
var settings = struct{ heartbeat, session, backoff, commit, maxWait time.Duration }{
	300 * time.Millisecond, 3 * time.Second, 100 * time.Millisecond, time.Second, 100 * time.Millisecond,
}

func run(ctx context.Context, brokers, topic string, partitions int32, n int, group string) error {
	addrs := strings.Split(brokers, ",")
	if brokers == "" {
		c, err := kfake.NewCluster(kfake.NumBrokers(3), kfake.SeedTopics(partitions, topic),
			kfake.GroupMinSessionTimeout(100*time.Millisecond))
		if err != nil {
			return err
		}
		defer c.Close()
		addrs = c.ListenAddrs()
		fmt.Printf("embedded kfake cluster at %v, topic %q with %d partitions\n", addrs, topic, partitions)
	}

	total, err := partitionCount(addrs, topic)
	if err != nil {
		return err
	}
	v := newView()
	began := time.Now()
	var running []*member
	step := func(what string) error {
		fmt.Printf("%s (%.1fs)\n", what, time.Since(began).Seconds())
		if !v.waitStable(ctx, len(running), total) {
			return fmt.Errorf("no stable assignment after %q: %w", what, ctx.Err())
		}
		v.print(began)
		return nil
	}
	defer func() {
		for _, m := range running {
			m.stop()
		}
	}()
	for i := range n {
		m, err := startMember(addrs, group, topic, fmt.Sprintf("member-%d", i+1), v)
		if err != nil {
			return err
		}
		running = append(running, m)
		if err := step(m.name + " joins"); err != nil {
			return err
		}
	}
	for len(running) > 1 {
		m := running[0]
		running = running[1:]
		m.stop()
		if err := step(m.name + " leaves"); err != nil {
			return err
		}
	}
	return nil
}

// partitionCount asks the brokers how many partitions topic has.
func partitionCount(addrs []string, topic string) (int, error) {
	cfg := ibm.NewConfig()
	cfg.Version = ibm.V3_2_0_0
	c, err := ibm.NewClient(addrs, cfg)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	ps, err := c.Partitions(topic)
	return len(ps), err
}

// view is what every member holds now, from its handlers.
type view struct {
	mu      sync.Mutex
	held    map[string]map[int32]bool // member → partitions
	changed time.Time
	printed string
}

func newView() *view { return &view{held: map[string]map[int32]bool{}} }

func (v *view) set(member string, partition int32, holds bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.held[member] == nil {
		v.held[member] = map[int32]bool{}
	}
	if holds {
		for other, ps := range v.held {
			if other != member && ps[partition] {
				// Never seen with our assignor while both members were in
				// the group; a member evicted without knowing it can still
				// be running its handlers (see docs/sarama.md).
				fmt.Printf("  note: %s starts partition %d while %s still holds it\n", member, partition, other)
			}
		}
		v.held[member][partition] = true
	} else {
		delete(v.held[member], partition)
	}
	v.changed = time.Now()
}

func (v *view) drop(member string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	delete(v.held, member)
	v.changed = time.Now()
}

func (v *view) render() string {
	var b strings.Builder
	for _, m := range slices.Sorted(maps.Keys(v.held)) {
		fmt.Fprintf(&b, "  %s: %v\n", m, slices.Sorted(maps.Keys(v.held[m])))
	}
	return b.String()
}

// waitStable waits until every partition is held, by as many members as
// there are partitions to go round, and nothing has changed for half a
// second.
func (v *view) waitStable(ctx context.Context, members, partitions int) bool {
	for {
		v.mu.Lock()
		holding, held := 0, 0
		for _, ps := range v.held {
			if len(ps) > 0 {
				holding++
			}
			held += len(ps)
		}
		quiet := time.Since(v.changed) > 500*time.Millisecond
		v.mu.Unlock()
		if holding >= min(members, partitions) && held == partitions && quiet {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// print prints the assignment if it changed, with the time (since began)
// of its last change.
func (v *view) print(began time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if s := v.render(); s != v.printed {
		fmt.Printf("  assignment at %.1fs:\n%s", v.changed.Sub(began).Seconds(), s)
		v.printed = s
	}
}

type member struct {
	name   string
	group  ibm.ConsumerGroup
	cancel context.CancelFunc
	done   chan struct{}
	v      *view
}

func startMember(addrs []string, group, topic, name string, v *view) (*member, error) {
	cfg := ibm.NewConfig()
	cfg.ClientID = name
	cfg.Version = ibm.V3_2_0_0 // owned partitions and generation in every join
	// The one line: our cooperative-sticky, a fresh strategy per member.
	cfg.Consumer.Group.Rebalance.GroupStrategies = []ibm.BalanceStrategy{saramaadapter.CooperativeSticky()}
	cfg.Consumer.Group.Session.Timeout = settings.session
	cfg.Consumer.Group.Heartbeat.Interval = settings.heartbeat
	// A cooperative rebalance has a second round; members still syncing the
	// first get REBALANCE_IN_PROGRESS and retry after this backoff (2 s by
	// default).
	cfg.Consumer.Group.Rebalance.Retry.Backoff = settings.backoff
	cfg.Consumer.Offsets.AutoCommit.Interval = settings.commit
	// sarama sends fetches and group requests over one connection per
	// broker, and the broker answers them in order: a heartbeat or join can
	// wait behind a fetch long-poll of MaxWaitTime (500 ms by default). With
	// a 3 s session that stretched cooperative rounds to over 10 s and once
	// got a member evicted (docs/sarama.md); keep it well below the session.
	cfg.Consumer.MaxWaitTime = settings.maxWait
	cfg.Consumer.Offsets.Initial = ibm.OffsetOldest
	g, err := ibm.NewConsumerGroup(addrs, group, cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &member{name: name, group: g, cancel: cancel, done: make(chan struct{}), v: v}
	go func() {
		defer close(m.done)
		for ctx.Err() == nil {
			if err := g.Consume(ctx, []string{topic}, m); errors.Is(err, ibm.ErrClosedConsumerGroup) {
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
	m.v.drop(m.name)
}

func (m *member) Setup(ibm.ConsumerGroupSession) error   { return nil }
func (m *member) Cleanup(ibm.ConsumerGroupSession) error { return nil }

// ConsumeClaim holds one partition from the moment sarama hands it over
// until sarama revokes it (cooperative: only the partitions that move).
func (m *member) ConsumeClaim(sess ibm.ConsumerGroupSession, claim ibm.ConsumerGroupClaim) error {
	m.v.set(m.name, claim.Partition(), true)
	defer m.v.set(m.name, claim.Partition(), false)
	for {
		select {
		case msg, ok := <-claim.Messages():
			if !ok {
				return nil
			}
			sess.MarkMessage(msg, "")
		case <-sess.Context().Done():
			return nil
		}
	}
}
