package roundrobin_test

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/roundrobin"
)

// This example is Java's documented one: two consumers, two topics of three
// partitions each.
func ExampleNew() {
	g := assignor.Group{
		Members: []assignor.Member{
			{ID: "C0", Topics: []string{"t0", "t1"}},
			{ID: "C1", Topics: []string{"t0", "t1"}},
		},
		Topics: []assignor.Topic{
			{Name: "t0", Partitions: assignor.Partitions(3)},
			{Name: "t1", Partitions: assignor.Partitions(3)},
		},
	}
	plan, err := roundrobin.New().Assign(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(plan)
	// Output:
	// C0: t0[0 2] t1[1]
	// C1: t0[1] t1[0 2]
}

// This example shows static members (KIP-345) keeping their partitions
// across a rolling bounce that gives every member a new member ID: the ring
// is ordered by instance ID, so the plan per instance does not change.
func ExampleNew_staticMembers() {
	topics := []assignor.Topic{
		{Name: "t0", Partitions: assignor.Partitions(3)},
		{Name: "t1", Partitions: assignor.Partitions(3)},
	}
	for _, ids := range [][3]string{{"C0", "C1", "C2"}, {"C5", "C3", "C4"}} {
		g := assignor.Group{Topics: topics}
		for i, id := range ids {
			g.Members = append(g.Members, assignor.Member{ID: id, InstanceID: fmt.Sprintf("I%d", i), Topics: []string{"t0", "t1"}})
		}
		plan, err := roundrobin.New().Assign(g)
		if err != nil {
			fmt.Println(err)
			return
		}
		for i, id := range ids {
			mp, _ := plan.Member(id)
			fmt.Printf("I%d (%s): %s\n", i, id, assignor.FormatTopicPartitions(mp.Assigned))
		}
	}
	// Output:
	// I0 (C0): t0[0] t1[0]
	// I1 (C1): t0[1] t1[1]
	// I2 (C2): t0[2] t1[2]
	// I0 (C5): t0[0] t1[0]
	// I1 (C3): t0[1] t1[1]
	// I2 (C4): t0[2] t1[2]
}
