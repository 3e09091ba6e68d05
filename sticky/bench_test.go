package sticky

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/workload"
)

// BenchmarkAssign measures Assign on a prebuilt group (the "core" row) for
// every shape and scenario of the benchmark issue.
func BenchmarkAssign(b *testing.B) {
	for _, sc := range workload.Scenarios() {
		for _, s := range append(workload.Shapes(), workload.FullShape()) {
			c, err := workload.Build(s, sc, workload.DefaultSeed)
			if err != nil {
				b.Fatal(err)
			}
			g := c.Group(c.RoundRobin())
			a := New()
			b.Run(fmt.Sprintf("%s/partitions=%d/members=%d", sc, s.Total(), s.Members), func(b *testing.B) {
				b.ReportAllocs()
				report := quality(b, g, a)
				for b.Loop() {
					if _, err := a.Assign(g); err != nil {
						b.Fatal(err)
					}
				}
				report()
			})
		}
	}
}

// quality measures the plan's spread (max-min load), the partitions that
// left their valid owner, and the share of rack-local partitions when the
// group has racks, before the timed loop; the returned function reports them
// (after the loop, which would reset them).
func quality(b *testing.B, g assignor.Group, a *Assignor) func() {
	plan, err := a.Assign(g)
	if err != nil {
		b.Fatal(err)
	}
	ix := denseIndex(b, g)
	lo, hi := int(^uint(0)>>1), 0
	moves, local, total := 0, 0, 0
	for m, mp := range plan.Members {
		lo, hi = min(lo, mp.NumAssigned()), max(hi, mp.NumAssigned())
		rack := ix.Member(int32(m)).Rack
		for _, tp := range mp.Assigned {
			t, _ := ix.TopicNumber(tp.Topic)
			for _, id := range tp.Partitions {
				p, _ := ix.Flat(t, id)
				total++
				if o := ix.Owner(p); o >= 0 && o != int32(m) {
					moves++
				}
				first, _ := ix.TopicRange(t)
				if racks := ix.Topic(t).ReplicaRacks; racks != nil && rack != "" && slices.Contains(racks[p-first], rack) {
					local++
				}
			}
		}
	}
	return func() {
		b.ReportMetric(float64(hi-lo), "spread")
		b.ReportMetric(float64(moves), "moves")
		if g.Members[0].Rack != "" {
			b.ReportMetric(100*float64(local)/float64(total), "%local")
		}
	}
}

// BenchmarkGrowth measures the growth series: 1,000 members on 100 topics
// of 100 to 10,000 partitions, uniform and mixed subscriptions. The slope of
// log(time) against log(partitions) is quoted in docs/sticky.md.
func BenchmarkGrowth(b *testing.B) {
	for _, sc := range []workload.Scenario{workload.Fresh, workload.Mixed} {
		for _, s := range workload.GrowthShapes() {
			c, err := workload.Build(s, sc, workload.DefaultSeed)
			if err != nil {
				b.Fatal(err)
			}
			g := c.Group(c.RoundRobin())
			a := New()
			b.Run(fmt.Sprintf("%s/partitions=%d/members=%d", sc, s.Total(), s.Members), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := a.Assign(g); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkSolve measures the solve alone: AssignFlat on the canonical view
// built beforehand, with owners (what Kafka's uniform assignor receives:
// the group and the owner map, without names to resolve or a plan to
// write), for the homogeneous scenarios, plain and cooperative (the
// wrapper's round on the same view).
func BenchmarkSolve(b *testing.B) {
	for _, sc := range []workload.Scenario{workload.Fresh, workload.Join} {
		for _, s := range append(workload.Shapes(), workload.FullShape()) {
			c, err := workload.Build(s, sc, workload.DefaultSeed)
			if err != nil {
				b.Fatal(err)
			}
			g := c.Group(c.RoundRobin())
			ix := denseIndex(b, g)
			for _, a := range []assignor.FlatAssignor{New(), cooperative.Wrap(New()).(assignor.FlatAssignor)} {
				b.Run(fmt.Sprintf("%s/%s/partitions=%d/members=%d", a.Name(), sc, s.Total(), s.Members), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if _, err := a.AssignFlat(ix); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
