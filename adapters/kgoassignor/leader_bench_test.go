package kgoassignor

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/wire"
	"github.com/kgroup/assignor/workload"
)

// leaderShapes are BenchmarkLeader's shapes: 10k, 40k and 100k partitions.
var leaderShapes = []workload.Shape{
	{Topics: 20, Partitions: 500, Members: 100},
	{Topics: 50, Partitions: 800, Members: 800},
	{Topics: 100, Partitions: 1000, Members: 1000},
}

// leaderMode is one way a kgo member runs our sticky assignor through the
// adapter, with the bytes such a member sends: the balancer's own
// JoinGroupMetadata (subscription v3) with what kgo passes it, its last
// assignment and generation (kgo's lastAssigned, kept across an eager
// revoke too), and for the racks mode the rack kgo adds (kgo.Rack).
type leaderMode struct {
	name     string
	assignor func() assignor.Assignor
	scenario workload.Scenario
}

var leaderModes = []leaderMode{
	// cooperative-sticky: owned partitions and generation in the
	// subscription, the generation again in the cooperative user data.
	{name: "cooperative-sticky", assignor: func() assignor.Assignor { return cooperative.Wrap(sticky.New()) }, scenario: workload.Join},
	// eager sticky: the history in sticky's user data (kgo's layout).
	{name: "eager-sticky", assignor: func() assignor.Assignor { return sticky.New() }, scenario: workload.Join},
	// cooperative-sticky with member racks and replica racks, a fresh group.
	{name: "cooperative-sticky-racks", assignor: func() assignor.Assignor { return cooperative.Wrap(sticky.New()) }, scenario: workload.Racks},
}

// leaderInput is what kgo's leader holds when it balances: the JoinGroup
// response's members sorted as kgo sorts them (instance ID, then member ID),
// the partition counts, and the generation being balanced into.
type leaderInput struct {
	b          *Balancer
	members    []kmsg.JoinGroupResponseMember
	counts     map[string]int32
	generation int32
}

func newLeaderInput(tb testing.TB, mode leaderMode, shape workload.Shape) leaderInput {
	tb.Helper()
	c, err := workload.Build(shape, mode.scenario, workload.DefaultSeed)
	if err != nil {
		tb.Fatal(err)
	}
	a := mode.assignor()
	history, err := a.Assign(c.BeforeGroup())
	if err != nil {
		tb.Fatal(err)
	}
	cfg := Config{Logger: discard}
	if mode.scenario == workload.Racks {
		racks := make(map[string][][]string, len(c.Topics))
		for _, t := range c.Topics {
			racks[t.Name] = t.ReplicaRacks
		}
		cfg.ReplicaRacks = func(topic string, p int32) []string { return racks[topic][p] }
	}
	b, err := New(a, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	in := leaderInput{b: b, counts: make(map[string]int32, len(c.Topics)), generation: 2}
	for _, t := range c.Topics {
		in.counts[t.Name] = int32(len(t.Partitions))
	}
	for _, m := range c.Group(history).Members {
		meta := b.JoinGroupMetadata(m.Topics, assignor.TopicPartitionsMap(m.Owned), m.Generation)
		if m.Rack != "" { // kgo.Rack: kgo decodes, sets the rack, encodes
			sub, err := wire.DecodeSubscription(meta)
			if err != nil {
				tb.Fatal(err)
			}
			sub.Rack = m.Rack
			meta = sub.AppendTo(nil)
		}
		in.members = append(in.members, member(m.ID, meta))
	}
	slices.SortFunc(in.members, func(x, y kmsg.JoinGroupResponseMember) int { return cmp.Compare(x.MemberID, y.MemberID) })
	return in
}

// leadLegacy is kgo's leader path with the adapter as it was.
func (in leaderInput) leadLegacy(tb testing.TB) []kmsg.SyncGroupRequestGroupAssignment {
	mb, _ := in.b.legacyMemberBalancer(in.members)
	mb.SetBalanceInfo(kgo.BalanceInfo{Generation: in.generation})
	into, err := mb.BalanceOrError(in.counts)
	if err != nil {
		tb.Fatal(err)
	}
	return into.IntoSyncAssignment()
}

// lead is kgo's leader path (balanceGroup, without its logging, which kgo
// does only for its own balancers) with the adapter as it is.
func (in leaderInput) lead(tb testing.TB) []kmsg.SyncGroupRequestGroupAssignment {
	mb, _, err := in.b.MemberBalancer(in.members)
	if err != nil {
		tb.Fatal(err)
	}
	mb.(kgo.GroupMemberBalancerInfo).SetBalanceInfo(kgo.BalanceInfo{Generation: in.generation})
	into, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(in.counts)
	if err != nil {
		tb.Fatal(err)
	}
	return into.IntoSyncAssignment()
}

// bench runs f as the sub-benchmark name, reporting allocations and
// cpu-ns/op: the process's CPU time per operation, the garbage collector's
// included, the steadier figure on a machine shared with other work.
func bench(b *testing.B, name string, f func(b *testing.B)) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		var cpu time.Duration
		for b.Loop() {
			if cpu == 0 {
				cpu = processCPU()
			}
			f(b)
		}
		if used := processCPU() - cpu; cpu != 0 && b.N > 0 {
			b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	})
}

// BenchmarkLeader times what kgo's leader does in one rebalance with our
// sticky assignor through the adapter (kgo's balanceGroup: MemberBalancer,
// SetBalanceInfo, BalanceOrError, IntoSyncAssignment), phase by phase, on
// the bytes kgo members send:
//
//   - decode: MemberBalancer, every member's metadata into the adapter's
//     view;
//   - core: the assignor on that view (before: the Group and Assign;
//     after: the Index and AssignIndex);
//   - encode: the plan into kgo's SyncGroup assignments;
//   - leader: the whole path, end to end.
//
// before is the adapter as it was (legacyLeader), after as it is, side by
// side in one run.
func BenchmarkLeader(b *testing.B) {
	for _, mode := range leaderModes {
		for _, shape := range leaderShapes {
			name := fmt.Sprintf("%s/partitions=%d/members=%d", mode.name, shape.Total(), shape.Members)
			b.Run(name, func(b *testing.B) { benchLeader(b, mode, shape) })
		}
	}
}

func benchLeader(b *testing.B, mode leaderMode, shape workload.Shape) {
	in := newLeaderInput(b, mode, shape)
	if !slices.EqualFunc(in.leadLegacy(b), in.lead(b), sameAssignment) {
		b.Fatal("before and after give different assignments")
	}
	benchBefore(b, in)
	benchAfter(b, in)
	bench(b, "leader/before", func(b *testing.B) { in.leadLegacy(b) })
	bench(b, "leader/after", func(b *testing.B) { in.lead(b) })
}

func sameAssignment(x, y kmsg.SyncGroupRequestGroupAssignment) bool {
	return x.MemberID == y.MemberID && string(x.MemberAssignment) == string(y.MemberAssignment)
}

func benchBefore(b *testing.B, in leaderInput) {
	mb, _ := in.b.legacyMemberBalancer(in.members)
	mb.SetBalanceInfo(kgo.BalanceInfo{Generation: in.generation})
	g := assignor.Group{Members: mb.members, Topics: mb.topics(in.counts)}
	plan, err := in.b.a.Assign(g)
	if err != nil {
		b.Fatal(err)
	}
	bench(b, "decode/before", func(b *testing.B) { in.b.legacyMemberBalancer(in.members) })
	bench(b, "core/before", func(b *testing.B) {
		g := assignor.Group{Members: mb.members, Topics: mb.topics(in.counts)}
		if _, err := in.b.a.Assign(g); err != nil {
			b.Fatal(err)
		}
	})
	bench(b, "encode/before", func(b *testing.B) { in.b.legacySyncAssignments(plan, mb.ids).IntoSyncAssignment() })
}
