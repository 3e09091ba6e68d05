package cooperative_test

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
)

// A member joins a group of one: round-robin wants to move half of m0's
// partitions to m1. Made cooperative, the first rebalance only takes them
// from m0 (which keeps processing the rest), and the follow-up rebalance
// hands them to m1.
func ExampleWrap() {
	w := cooperative.Wrap(roundrobin.New())
	topics := []assignor.Topic{{Name: "orders", Partitions: assignor.Partitions(4)}}
	g := assignor.Group{
		Topics: topics,
		Members: []assignor.Member{
			{ID: "m0", Topics: []string{"orders"}, Generation: 7,
				Owned: []assignor.TopicPartitions{{Topic: "orders", Partitions: []int32{0, 1, 2, 3}}}},
			{ID: "m1", Topics: []string{"orders"}, Generation: assignor.NoGeneration},
		},
	}
	first, err := w.Assign(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(w.Name(), ", generation 8:\n", first)

	// Every member rejoins owning what it was assigned.
	for i := range g.Members {
		mp, _ := first.Member(g.Members[i].ID)
		g.Members[i].Owned, g.Members[i].Generation = mp.Assigned, 8
	}
	second, err := w.Assign(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print("generation 9:\n", second)
	// Output:
	// cooperative-roundrobin, generation 8:
	// m0: orders[0 2] revoke orders[1 3]
	// m1:
	// follow-up rebalance
	// generation 9:
	// m0: orders[0 2]
	// m1: orders[1 3]
}

// Split shows the three sets of KIP-429 and what happens to each partition:
// here m1's claim on orders/1 is stale (m0 got it later), m2 is new, and
// the leader's metadata does not know the topic "audit" yet.
func ExampleSplit() {
	g := assignor.Group{
		Topics: []assignor.Topic{{Name: "orders", Partitions: assignor.Partitions(3)}},
		Members: []assignor.Member{
			{ID: "m0", Topics: []string{"orders", "audit"}, Generation: 5, Owned: []assignor.TopicPartitions{
				{Topic: "audit", Partitions: []int32{0}}, {Topic: "orders", Partitions: []int32{0, 1}}}},
			{ID: "m1", Topics: []string{"orders"}, Generation: 4, Owned: []assignor.TopicPartitions{
				{Topic: "orders", Partitions: []int32{1}}}},
			{ID: "m2", Topics: []string{"orders"}, Generation: assignor.NoGeneration},
		},
	}
	sets, plan, err := cooperative.Split(g, roundrobin.New())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(sets, "\n", plan)
	// Output:
	// maybe-revoking orders/0 owner m0 -> m0 kept
	// maybe-revoking orders/1 owner m0 -> m1 withheld
	// ready-to-migrate orders/2 -> m2 handed
	// unknown-but-owned audit/0 owner m0 given back (unknown topic)
	//
	// m0: audit[0] orders[0] revoke orders[1]
	// m1: revoke orders[1]
	// m2: orders[2]
	// follow-up rebalance
}
