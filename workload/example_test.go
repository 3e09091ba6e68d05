package workload_test

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/workload"
)

// A join on the smallest benchmark shape, from a history no assignor made:
// the group a test of any assignor starts from.
func ExampleCase_RoundRobin() {
	c, err := workload.Build(workload.Shapes()[0], workload.Join, workload.DefaultSeed)
	if err != nil {
		panic(err)
	}
	g := c.Group(c.RoundRobin())
	owners, owned := 0, 0
	for _, m := range g.Members {
		if len(m.Owned) > 0 {
			owners++
			owned += assignor.CountPartitions(m.Owned)
		}
	}
	fmt.Printf("%v: %d members, %d of them own %d partitions\n", workload.Shapes()[0], len(g.Members), owners, owned)
	// Output:
	// 10x100/50 (1k): 51 members, 50 of them own 1000 partitions
}

// A leave in steady state under the assignor being measured: its own plan
// for the group before is the history, as `go run ./bench` measures every
// contender.
func ExampleCase_BeforeGroup() {
	c, err := workload.Build(workload.Shape{Topics: 2, Partitions: 6, Members: 4}, workload.Leave, workload.DefaultSeed)
	if err != nil {
		panic(err)
	}
	a := roundrobin.New()
	history, err := a.Assign(c.BeforeGroup())
	if err != nil {
		panic(err)
	}
	plan, err := a.Assign(c.Group(history))
	if err != nil {
		panic(err)
	}
	fmt.Println(len(history.Members), "members before,", len(plan.Members), "after")
	fmt.Println(assignor.CheckPlan(c.Group(history), plan, assignor.Eager))
	// Output:
	// 4 members before, 3 after
	// <nil>
}

// The multi-round scripts on the smallest shape.
func ExampleNewScript() {
	for _, name := range workload.Scripts() {
		sc, err := workload.NewScript(name, workload.Shapes()[0], workload.DefaultSeed)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %d members to start, %d events\n", sc.Name, len(sc.Initial), len(sc.Events))
	}
	// Output:
	// roll: 50 members to start, 100 events
	// scale: 1 members to start, 12 events
}

// Zipf weights (s = 1.1) on the smallest benchmark shape, and the lower
// bound on the heaviest member's load that the weighted benchmark divides
// by.
func ExampleCase_Weigh() {
	c, err := workload.Build(workload.Shapes()[0], workload.Fresh, workload.DefaultSeed)
	if err != nil {
		panic(err)
	}
	if c, err = c.Weigh(workload.Zipf11, workload.DefaultSeed); err != nil {
		panic(err)
	}
	var total, heaviest int64
	for _, t := range c.Topics {
		for _, w := range t.Weights {
			total += w
			heaviest = max(heaviest, w)
		}
	}
	fmt.Printf("heaviest partition %d, total/members %d, lower bound %d\n",
		heaviest, total/int64(len(c.After)), workload.LowerBound(c.Topics, len(c.After)))
	// Output:
	// heaviest partition 1000000000, total/members 111456523, lower bound 1000000000
}
