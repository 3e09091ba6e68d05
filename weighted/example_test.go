package weighted_test

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/weighted"
)

// Three members read one topic whose six partitions carry very different
// loads (records/s, say). A count-balanced plan gives every member two
// partitions, and one of them both 90 and 20 (110); the weighted plan
// lets A hold the 90 alone (a count within one of the balanced two).
func Example() {
	group := assignor.Group{
		Topics: []assignor.Topic{{
			Name:       "t0",
			Partitions: assignor.Partitions(6),
			Weights:    []int64{90, 40, 30, 20, 10, 10},
		}},
		Members: []assignor.Member{
			{ID: "A", Topics: []string{"t0"}},
			{ID: "B", Topics: []string{"t0"}},
			{ID: "C", Topics: []string{"t0"}},
		},
	}
	plan, err := weighted.New().Assign(group)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(plan)
	fmt.Println(loads(group, plan))
	// Output:
	// A: t0[0]
	// B: t0[1 4 5]
	// C: t0[2 3]
	// [90 60 50]
}

// loads returns each member's load in the plan, in plan order.
func loads(g assignor.Group, plan assignor.Plan) []int64 {
	weight := map[string][]int64{}
	for _, t := range g.Topics {
		weight[t.Name] = t.Weights
	}
	out := make([]int64, len(plan.Members))
	for i, mp := range plan.Members {
		for _, tp := range mp.Assigned {
			for _, p := range tp.Partitions {
				out[i] += weight[tp.Topic][p]
			}
		}
	}
	return out
}
