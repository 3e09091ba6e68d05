package sticky_test

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/sticky"
)

// A member joins a group with narrower subscriptions: C reads only t1, so
// balance (two each) needs both t1 partitions on C; A and B keep all of t0.
func Example() {
	topics := []assignor.Topic{
		{Name: "t0", Partitions: assignor.Partitions(4)},
		{Name: "t1", Partitions: assignor.Partitions(2)},
	}
	group := assignor.Group{
		Topics: topics,
		Members: []assignor.Member{
			{ID: "A", Topics: []string{"t0", "t1"}, Generation: 1, Owned: []assignor.TopicPartitions{
				{Topic: "t0", Partitions: []int32{0, 2}}, {Topic: "t1", Partitions: []int32{0}},
			}},
			{ID: "B", Topics: []string{"t0", "t1"}, Generation: 1, Owned: []assignor.TopicPartitions{
				{Topic: "t0", Partitions: []int32{1, 3}}, {Topic: "t1", Partitions: []int32{1}},
			}},
			{ID: "C", Topics: []string{"t1"}, Generation: assignor.NoGeneration},
		},
	}
	plan, err := sticky.New().Assign(group)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(plan)
	// Output:
	// A: t0[0 2]
	// B: t0[1 3]
	// C: t1[0 1]
}

// A fresh group with identical subscriptions: each topic's partitions are
// dealt round the members, so every member reads every topic (franz-go
// issue #795), and the first member by ID takes the extra partition.
func Example_fresh() {
	group := assignor.Group{
		Topics: []assignor.Topic{
			{Name: "orders", Partitions: assignor.Partitions(4)},
			{Name: "payments", Partitions: assignor.Partitions(3)},
		},
		Members: []assignor.Member{
			{ID: "m1", Topics: []string{"orders", "payments"}, Generation: assignor.NoGeneration},
			{ID: "m2", Topics: []string{"orders", "payments"}, Generation: assignor.NoGeneration},
			{ID: "m3", Topics: []string{"orders", "payments"}, Generation: assignor.NoGeneration},
		},
	}
	plan, _ := sticky.New().Assign(group)
	fmt.Print(plan)
	// Output:
	// m1: orders[0 3] payments[2]
	// m2: orders[1] payments[0]
	// m3: orders[2] payments[1]
}
