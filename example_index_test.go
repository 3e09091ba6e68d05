package assignor_test

import (
	"fmt"

	"github.com/kgroup/assignor"
)

// NewIndex is where a custom assignor starts: it validates the group, puts
// it in a canonical order (members by ID, topics by name, each topic's
// partitions a range of flat numbers) and decides who validly owns what.
// Here b owns orders/0 and orders/1 at generation 5, so a's claim on
// orders/1 (generation 3) is stale; c and d both claim orders/2 at
// generation 5, so it is contested. A toy assignor then keeps each owned
// partition with its owner and gives every other partition to its topic's
// first subscriber.
func ExampleNewIndex() {
	orders := func(ids ...int32) []assignor.TopicPartitions {
		return []assignor.TopicPartitions{{Topic: "orders", Partitions: ids}}
	}
	g := assignor.Group{
		Members: []assignor.Member{
			{ID: "d", Topics: []string{"orders"}, Generation: 5, Owned: orders(2)},
			{ID: "b", Topics: []string{"orders"}, Generation: 5, Owned: orders(0, 1)},
			{ID: "a", Topics: []string{"orders", "audit"}, Generation: 3, Owned: orders(1)},
			{ID: "c", Topics: []string{"orders"}, Generation: 5, Owned: orders(2)},
		},
		Topics: []assignor.Topic{
			{Name: "orders", Partitions: assignor.Partitions(4)},
			{Name: "audit", Partitions: assignor.Partitions(1)},
		},
	}
	ix, err := assignor.NewIndex(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	for m := range int32(ix.NumMembers()) {
		fmt.Printf("member %d: %s\n", m, ix.Member(m).ID)
	}
	holder := make([]int32, ix.NumPartitions())
	for t := range int32(ix.NumTopics()) {
		first, end := ix.TopicRange(t)
		subscribers := ix.Subscribers(t)
		for p := first; p < end; p++ {
			topic, id := ix.Partition(p)
			holder[p] = -1 // nobody, if nobody subscribes
			if len(subscribers) > 0 {
				holder[p] = subscribers[0]
			}
			switch owner := ix.Owner(p); owner {
			case assignor.Unclaimed:
				fmt.Printf("%s/%d: unclaimed\n", topic, id)
			case assignor.Contested:
				fmt.Printf("%s/%d: contested\n", topic, id)
			default:
				fmt.Printf("%s/%d: owned by %s\n", topic, id, ix.Member(owner).ID)
				holder[p] = owner
			}
		}
	}
	fmt.Print(ix.PlanOf(assignor.FlatPlan{Holder: holder}))
	// Output:
	// member 0: a
	// member 1: b
	// member 2: c
	// member 3: d
	// audit/0: unclaimed
	// orders/0: owned by b
	// orders/1: owned by b
	// orders/2: contested
	// orders/3: unclaimed
	// a: audit[0] orders[2 3]
	// b: orders[0 1]
	// c:
	// d:
}
