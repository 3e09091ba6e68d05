package assignortest

import (
	"fmt"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/workload"
)

// Benchmark runs a fresh assignor from newAssignor on the groups of
// `go run ./bench` (package workload: its shapes, scenarios and default
// seed), one sub-benchmark per shape and scenario, named
// "partitions=P/members=M/SCENARIO", for example
// "partitions=10000/members=100/join". Each times Assign alone on a group
// built beforehand (the core, without a codec; `go run ./bench` and package
// bench/runner time the leader's whole unit of work, bytes to bytes).
//
// In the scenarios with history (join, leave, mixed-join) the members own
// what the assignor's own plan for the group before gave them, at
// generation 1, as the bench does. Racks are in the group of the racks
// scenario; an assignor that ignores them still runs it.
//
// Besides time and allocations, each sub-benchmark reports the quality of
// the last plan with b.ReportMetric, per rebalance:
//
//   - spread: the most partitions any member got minus the fewest;
//   - moves: partitions taken from the member that owned them;
//   - withheld: subscribed partitions assigned to nobody (a cooperative
//     plan withholds a partition that changes owner until the next round).
//
// A plan that breaks [assignor.CheckPlan] (under the cooperative rules when
// the assignor supports [assignor.Cooperative]) or an error from Assign
// fails the benchmark, naming the case.
//
// Shapes: the shapes given, or by default the bench's (10x100/50 to
// 100x1000/1000, 1k to 100k partitions), and under -short only the first.
// Narrow a run with -bench, for example -bench 'Sticky/partitions=10000/'.
func Benchmark[A assignor.Assignor](b *testing.B, newAssignor func() A, shapes ...Shape) {
	b.Helper()
	var ws []workload.Shape
	for _, s := range shapes {
		ws = append(ws, workload.Shape(s))
	}
	if len(ws) == 0 {
		ws = workload.Shapes()
		if testing.Short() {
			ws = ws[:1]
		}
	}
	for _, s := range ws {
		for _, sc := range workload.Scenarios() {
			name := fmt.Sprintf("partitions=%d/members=%d/%s", s.Total(), s.Members, sc)
			b.Run(name, func(b *testing.B) { benchmarkCase(b, erase(newAssignor), s, sc) })
		}
	}
}

// Shape is the size of a benchmark group: Topics topics of Partitions
// partitions each, and Members members, every member subscribing to every
// topic (but in the mixed scenarios).
type Shape struct{ Topics, Partitions, Members int }

// benchmarkCase builds scenario sc on shape s, plays the history round if
// the scenario has one, then times Assign on the measured group.
func benchmarkCase(b *testing.B, newAssignor func() assignor.Assignor, s workload.Shape, sc workload.Scenario) {
	c, err := workload.Build(s, sc, workload.DefaultSeed)
	if err != nil {
		b.Fatal(err)
	}
	a := newAssignor()
	if isNil(a) {
		b.Fatal("assignortest: the constructor returned a nil assignor")
	}
	proto := assignor.Eager
	if assignor.Supports(a, assignor.Cooperative) {
		proto = assignor.Cooperative
	}
	var history assignor.Plan
	if len(c.Before) > 0 {
		before := c.BeforeGroup()
		if history, err = a.Assign(before); err != nil {
			b.Fatalf("%v %s: history round: Assign: %v", s, sc, err)
		}
		if err := assignor.CheckPlan(before, history, proto); err != nil {
			b.Fatalf("%v %s: history round: %v", s, sc, err)
		}
	}
	g := c.Group(history)
	var plan assignor.Plan
	b.ReportAllocs()
	for b.Loop() {
		if plan, err = a.Assign(g); err != nil {
			b.Fatalf("%v %s: Assign: %v", s, sc, err)
		}
	}
	if err := assignor.CheckPlan(g, plan, proto); err != nil {
		b.Fatalf("%v %s: %v", s, sc, err)
	}
	q := judge(g, plan)
	b.ReportMetric(float64(q.spread), "spread")
	b.ReportMetric(float64(q.moves), "moves")
	b.ReportMetric(float64(q.withheld), "withheld")
}

// quality is what Benchmark reports of a plan.
type quality struct{ spread, moves, withheld int }

// judge measures plan, a valid plan for g: the spread of the members'
// loads, the partitions taken from their owners, and the subscribed
// partitions left unassigned.
func judge(g assignor.Group, plan assignor.Plan) quality {
	var q quality
	partitions := make(map[string]int, len(g.Topics))
	for _, t := range g.Topics {
		partitions[t.Name] = len(t.Partitions)
	}
	subscribed := make(map[string]bool)
	for _, m := range g.Members {
		for _, t := range m.Topics {
			subscribed[t] = true
		}
	}
	for t := range subscribed {
		q.withheld += partitions[t]
	}
	loads := make(map[string]int, len(plan.Members))
	assigned := make(map[string][]assignor.TopicPartitions, len(plan.Members))
	for _, mp := range plan.Members {
		loads[mp.Member] = mp.NumAssigned()
		assigned[mp.Member] = mp.Assigned
		q.withheld -= mp.NumAssigned()
	}
	least, most := -1, 0
	for _, m := range g.Members {
		n := loads[m.ID]
		most = max(most, n)
		if least < 0 || n < least {
			least = n
		}
		q.moves += assignor.CountPartitions(assignor.SubtractTopicPartitions(m.Owned, assigned[m.ID]))
	}
	q.spread = most - max(least, 0)
	return q
}
