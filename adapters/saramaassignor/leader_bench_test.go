package saramaassignor

import (
	"flag"
	"fmt"
	"testing"
	"time"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/workload"
)

var leaderFull = flag.Bool("leader.full", false, "BenchmarkLeader: add the 1M-partition shape (500x2000/2000)")

// leaderShapes are BenchmarkLeader's shapes: 10k, 40k and 100k partitions,
// and 1M with -leader.full.
func leaderShapes() []workload.Shape {
	shapes := []workload.Shape{
		{Topics: 20, Partitions: 500, Members: 100},
		{Topics: 50, Partitions: 800, Members: 800},
		{Topics: 100, Partitions: 1000, Members: 1000},
	}
	if *leaderFull {
		shapes = append(shapes, workload.FullShape())
	}
	return shapes
}

// leaderInput is what a sarama v1.61 leader holds when it leads one
// rebalance: the JoinGroup response as the coordinator sends it (every
// member's metadata in wire bytes) and the partitions of every subscribed
// topic, as its refreshed metadata gives them.
type leaderInput struct {
	join   *sarama.JoinGroupResponse
	topics map[string][]int32
}

// leaderMode is one way a sarama member runs our sticky assignor, with the
// subscription a sarama v1.61 member configured for Kafka 3.2 or later
// sends (consumer_group.go, subscriptionMetadata: version 2).
type leaderMode struct {
	name     string
	assignor func() assignor.Assignor
	// eager: the member revoked everything before joining, so it sends no
	// owned partitions and generation -1 (sarama's defaultGeneration); its
	// history is only in its sticky user data. Otherwise (cooperative) it
	// sends its owned partitions and their generation, as its held claims.
	eager bool
}

var leaderModes = []leaderMode{
	{name: "cooperative-sticky", assignor: func() assignor.Assignor { return cooperative.Wrap(sticky.New()) }},
	{name: "eager-sticky", assignor: func() assignor.Assignor { return sticky.New() }, eager: true},
}

// newLeaderInput builds the join scenario of workload on shape: one member
// joins a group whose members hold the assignor's own plan of the group
// before the join, at generation 1.
func newLeaderInput(tb testing.TB, mode leaderMode, shape workload.Shape) leaderInput {
	tb.Helper()
	c, err := workload.Build(shape, workload.Join, workload.DefaultSeed)
	if err != nil {
		tb.Fatal(err)
	}
	a := mode.assignor()
	history, err := a.Assign(c.BeforeGroup())
	if err != nil {
		tb.Fatal(err)
	}
	sub := a.(assignor.SubscriptionUserDataAssignor)
	join := &sarama.JoinGroupResponse{Version: 5}
	for _, m := range c.Group(history).Members {
		userData, err := sub.SubscriptionUserData(assignor.MemberState{Topics: m.Topics, Owned: m.Owned, Generation: m.Generation})
		if err != nil {
			tb.Fatal(err)
		}
		meta := &sarama.ConsumerGroupMemberMetadata{Version: 2, Topics: m.Topics, UserData: userData, GenerationID: -1}
		if !mode.eager {
			meta.GenerationID = m.Generation
			for _, tp := range m.Owned {
				meta.OwnedPartitions = append(meta.OwnedPartitions, &sarama.OwnedPartition{Topic: tp.Topic, Partitions: tp.Partitions})
			}
		}
		// sarama's JoinGroupRequest encodes the metadata as the member sends it.
		var req sarama.JoinGroupRequest
		if err := req.AddGroupProtocolMetadata(a.Name(), meta); err != nil {
			tb.Fatal(err)
		}
		join.Members = append(join.Members, sarama.GroupMember{MemberId: m.ID, Metadata: req.OrderedGroupProtocols[0].Metadata})
	}
	topics := make(map[string][]int32, len(c.Topics))
	for _, t := range c.Topics {
		topics[t.Name] = t.Partitions
	}
	return leaderInput{join: join, topics: topics}
}

// syncRequest is what sarama's leader does with the plan
// (consumer_group.go, syncGroupRequest): it asks the strategy for each
// member's assignment user data and encodes each member's assignment.
func syncRequest(tb testing.TB, s sarama.BalanceStrategy, plan sarama.BalanceStrategyPlan, members map[string]sarama.ConsumerGroupMemberMetadata) *sarama.SyncGroupRequest {
	req := &sarama.SyncGroupRequest{Version: 5}
	for id, topics := range plan {
		ud, err := s.AssignmentData(id, topics, 2)
		if err != nil {
			tb.Fatal(err)
		}
		if err := req.AddGroupAssignmentMember(id, &sarama.ConsumerGroupMemberAssignment{Topics: topics, UserData: ud}); err != nil {
			tb.Fatal(err)
		}
	}
	for id := range members {
		if _, ok := plan[id]; !ok {
			if err := req.AddGroupAssignmentMember(id, &sarama.ConsumerGroupMemberAssignment{}); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return req
}

// BenchmarkLeader times what a sarama v1.61 leader does in one rebalance
// with our sticky assignor through the adapter, phase by phase, on the
// workload's join scenario:
//
//   - sarama-decode: JoinGroupResponse.GetMembers, every member's metadata;
//   - read: the adapter reads sarama's decoded metadata into what the core
//     takes (after: an Index through the IndexBuilder; before: a Group);
//   - core: the assignor on what read built (after: AssignIndex; before:
//     Assign on the Group, the core alone as the bench's ours-coop-core
//     times it, index included);
//   - plan-maps: the adapter fills sarama's plan maps and keeps each
//     member's assignment user data;
//   - forced-minimum: the least any adapter must do to fill those maps
//     (see forcedMinimum), sarama's share of plan-maps;
//   - sarama-encode: AssignmentData and the encoding of every member's
//     assignment, as sarama's syncGroupRequest does;
//   - leader: the three calls sarama makes, end to end.
//
// before is the adapter as it was (legacyPlan), after as it is, run side by
// side. The adapter's own share is read + plan-maps - forced-minimum; its
// target is at most half of core/before.
func BenchmarkLeader(b *testing.B) {
	for _, mode := range leaderModes {
		for _, shape := range leaderShapes() {
			name := fmt.Sprintf("%s/partitions=%d/members=%d", mode.name, shape.Total(), shape.Members)
			b.Run(name, func(b *testing.B) { benchLeader(b, mode, shape) })
		}
	}
}

// bench runs f as the sub-benchmark name, reporting allocations and
// cpu-ns/op: the process's CPU time per operation, the garbage collector's
// included. On a machine shared with other work the wall time (ns/op)
// includes waiting for a core; the CPU time does not, so it is the steadier
// figure there.
func bench(b *testing.B, name string, f func(b *testing.B)) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		var cpu time.Duration
		for b.Loop() {
			if cpu == 0 {
				cpu = processCPU() // after b.Loop's first call, which resets the timer
			}
			f(b)
		}
		if used := processCPU() - cpu; cpu != 0 && b.N > 0 {
			b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	})
}

func benchLeader(b *testing.B, mode leaderMode, shape workload.Shape) {
	in := newLeaderInput(b, mode, shape)
	s := build(mode.assignor(), Config{Logger: discard})
	st := base(s)
	members, err := in.join.GetMembers()
	if err != nil {
		b.Fatal(err)
	}
	out, err := s.Plan(members, in.topics)
	if err != nil {
		b.Fatal(err)
	}
	fatal := func(b *testing.B, err error) {
		if err != nil {
			b.Fatal(err)
		}
	}

	bench(b, "sarama-decode", func(b *testing.B) { _, err := in.join.GetMembers(); fatal(b, err) })
	bench(b, "plan/before", func(b *testing.B) { _, err := st.legacyPlan(members, in.topics); fatal(b, err) })
	bench(b, "plan/after", func(b *testing.B) { _, err := s.Plan(members, in.topics); fatal(b, err) })
	bench(b, "sarama-encode", func(b *testing.B) { syncRequest(b, s, out, members) })
	bench(b, "leader/before", func(b *testing.B) {
		members, err := in.join.GetMembers()
		fatal(b, err)
		plan, err := st.legacyPlan(members, in.topics)
		fatal(b, err)
		syncRequest(b, s, plan, members)
	})
	bench(b, "leader/after", func(b *testing.B) {
		members, err := in.join.GetMembers()
		fatal(b, err)
		plan, err := s.Plan(members, in.topics)
		fatal(b, err)
		syncRequest(b, s, plan, members)
	})
}
