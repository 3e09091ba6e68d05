package touchfloor_test

import (
	"cmp"
	"flag"
	"fmt"
	"slices"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/touchfloor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/workload"
)

var full = flag.Bool("full", false, "add the one-million-partition shape to BenchmarkFloor")

// BenchmarkFloor times the touch floor in both layouts beside sticky and
// cooperative-sticky's Assign on the same groups: the bench's homogeneous
// shapes from 10k partitions (1M with -full), a fresh group and one member
// joining a group that holds sticky's own plan. The floor writes sticky's
// plan for the group (one entry per member and topic: each topic dealt
// over every member), and, as floor-runs, a plan of Kafka uniform's shape
// (each member a contiguous run of partitions in topic order: one or two
// entries per member).
//
//	go test -run '^$' -bench Floor -count 6 ./bench/internal/touchfloor/ | benchstat -col /impl -
func BenchmarkFloor(b *testing.B) {
	shapes := workload.Shapes()[1:]
	if *full {
		shapes = append(shapes, workload.FullShape())
	}
	for _, s := range shapes {
		for _, sc := range []workload.Scenario{workload.Fresh, workload.Join} {
			g, plan := group(b, s, sc)
			shared, err := touchfloor.New(g, plan, touchfloor.Shared)
			if err != nil {
				b.Fatal(err)
			}
			perList, err := touchfloor.New(g, plan, touchfloor.PerList)
			if err != nil {
				b.Fatal(err)
			}
			runs, err := touchfloor.New(g, contiguous(g), touchfloor.Shared)
			if err != nil {
				b.Fatal(err)
			}
			impls := []struct {
				name string
				run  func() error
			}{
				{"floor-shared", func() error { shared.Plan(g); return nil }},
				{"floor-perlist", func() error { perList.Plan(g); return nil }},
				{"floor-runs", func() error { runs.Plan(g); return nil }},
				{"sticky", assign(sticky.New(), g)},
				{"cooperative-sticky", assign(cooperative.Wrap(sticky.New()), g)},
			}
			for _, impl := range impls {
				b.Run(fmt.Sprintf("partitions=%d/members=%d/scenario=%s/impl=%s", s.Total(), len(g.Members), sc, impl.name), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if err := impl.run(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// group returns scenario sc on shape s (history: sticky's own plan of the
// group before) and sticky's plan for it.
func group(b *testing.B, s workload.Shape, sc workload.Scenario) (assignor.Group, assignor.Plan) {
	b.Helper()
	c, err := workload.Build(s, sc, workload.DefaultSeed)
	if err != nil {
		b.Fatal(err)
	}
	var history assignor.Plan
	if c.Before != nil {
		if history, err = sticky.New().Assign(c.BeforeGroup()); err != nil {
			b.Fatal(err)
		}
	}
	g := c.Group(history)
	plan, err := sticky.New().Assign(g)
	if err != nil {
		b.Fatal(err)
	}
	return g, plan
}

// contiguous returns the plan that gives the i-th member by ID the i-th
// contiguous run of partitions, topics in name order, every member
// subscribing to every topic.
func contiguous(g assignor.Group) assignor.Plan {
	ids := make([]string, len(g.Members))
	for i, m := range g.Members {
		ids[i] = m.ID
	}
	slices.Sort(ids)
	topics := slices.Clone(g.Topics)
	slices.SortFunc(topics, func(a, b assignor.Topic) int { return cmp.Compare(a.Name, b.Name) })
	total := 0
	for _, t := range topics {
		total += len(t.Partitions)
	}
	plan := assignor.Plan{Members: make([]assignor.MemberPlan, len(ids))}
	flat := 0
	for i, id := range ids {
		plan.Members[i].Member = id
		end := (i + 1) * total / len(ids)
		for t := 0; flat < end; t++ {
			lo := 0
			for _, tt := range topics[:t] {
				lo += len(tt.Partitions)
			}
			hi := lo + len(topics[t].Partitions)
			if flat >= hi {
				continue
			}
			n := min(hi, end) - flat
			plan.Members[i].Assigned = append(plan.Members[i].Assigned, assignor.TopicPartitions{Topic: topics[t].Name, Partitions: slices.Clone(topics[t].Partitions[flat-lo : flat-lo+n])})
			flat += n
		}
	}
	return plan
}

func assign(a assignor.Assignor, g assignor.Group) func() error {
	return func() error {
		_, err := a.Assign(g)
		return err
	}
}
