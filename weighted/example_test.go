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

// Hysteresis: the group of Example owns its weighted plan; the weights
// drift by up to 5% and nothing moves. Then D joins and must hold at
// least one partition: B, the heaviest after A (whose single partition
// outweighs any plan's average), gives it t0[1], and C gives B t0[3] to
// even the rest: two moves.
func Example_hysteresis() {
	owned := func(ps ...int32) []assignor.TopicPartitions {
		return []assignor.TopicPartitions{{Topic: "t0", Partitions: ps}}
	}
	group := assignor.Group{
		Topics: []assignor.Topic{{
			Name:       "t0",
			Partitions: assignor.Partitions(6),
			Weights:    []int64{86, 42, 31, 19, 10, 9}, // was 90 40 30 20 10 10
		}},
		Members: []assignor.Member{
			{ID: "A", Topics: []string{"t0"}, Generation: 1, Owned: owned(0)},
			{ID: "B", Topics: []string{"t0"}, Generation: 1, Owned: owned(1, 4, 5)},
			{ID: "C", Topics: []string{"t0"}, Generation: 1, Owned: owned(2, 3)},
		},
	}
	drifted, err := weighted.New().Assign(group)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print("drifted:\n", drifted)
	group.Members = append(group.Members, assignor.Member{ID: "D", Topics: []string{"t0"}})
	joined, err := weighted.New().Assign(group)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print("D joined:\n", joined)
	fmt.Println(loads(group, joined))
	// Output:
	// drifted:
	// A: t0[0]
	// B: t0[1 4 5]
	// C: t0[2 3]
	// D joined:
	// A: t0[0]
	// B: t0[3 4 5]
	// C: t0[2]
	// D: t0[1]
	// [86 38 31 42]
}
