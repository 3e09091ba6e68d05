package assignor_test

import (
	"fmt"

	"github.com/kgroup/assignor"
)

// A member's assignment, the plan's new one and what changes between them:
// the cooperative protocol revokes owned − assigned and adds assigned −
// owned.
func ExampleSubtractTopicPartitions() {
	owned := []assignor.TopicPartitions{{Topic: "orders", Partitions: []int32{0, 1, 2}}, {Topic: "payments", Partitions: []int32{4}}}
	assigned := []assignor.TopicPartitions{{Topic: "orders", Partitions: []int32{1, 2, 3}}}
	fmt.Println("revoke:", assignor.FormatTopicPartitions(assignor.SubtractTopicPartitions(owned, assigned)))
	fmt.Println("add:   ", assignor.FormatTopicPartitions(assignor.SubtractTopicPartitions(assigned, owned)))
	fmt.Println("keep:  ", assignor.FormatTopicPartitions(assignor.IntersectTopicPartitions(owned, assigned)))
	// Output:
	// revoke: orders[0] payments[4]
	// add:    orders[3]
	// keep:   orders[1 2]
}

// A client's unsorted list, with a topic named twice and an empty entry,
// becomes the canonical set the other operations walk in linear time.
func ExampleNormalizeTopicPartitions() {
	in := []assignor.TopicPartitions{
		{Topic: "payments", Partitions: []int32{7, 5, 7}},
		{Topic: "orders", Partitions: []int32{2}},
		{Topic: "audit"},
		{Topic: "orders", Partitions: []int32{0}},
	}
	fmt.Println(assignor.FormatTopicPartitions(assignor.NormalizeTopicPartitions(in)))
	// Output:
	// orders[0 2] payments[5 7]
}

// The union of two members' partitions.
func ExampleMergeTopicPartitions() {
	a := []assignor.TopicPartitions{{Topic: "orders", Partitions: []int32{0, 2}}}
	b := []assignor.TopicPartitions{{Topic: "audit", Partitions: []int32{1}}, {Topic: "orders", Partitions: []int32{1, 2}}}
	fmt.Println(assignor.FormatTopicPartitions(assignor.MergeTopicPartitions(a, b)))
	// Output:
	// audit[1] orders[0 1 2]
}

// Sets are equal whatever the order and duplicates of their lists.
func ExampleEqualTopicPartitions() {
	a := []assignor.TopicPartitions{{Topic: "orders", Partitions: []int32{1, 0}}, {Topic: "audit", Partitions: []int32{3}}}
	b := []assignor.TopicPartitions{{Topic: "audit", Partitions: []int32{3, 3}}, {Topic: "orders", Partitions: []int32{0, 1}}}
	fmt.Println(assignor.EqualTopicPartitions(a, b))
	// Output:
	// true
}

// sarama and franz-go hand partitions over as a topic → partitions map.
func ExampleTopicPartitionsFromMap() {
	fromClient := map[string][]int32{"payments": {3, 1}, "orders": {0}, "audit": nil}
	tps := assignor.TopicPartitionsFromMap(fromClient)
	fmt.Println(assignor.FormatTopicPartitions(tps), assignor.CountPartitions(tps))
	fmt.Println(assignor.TopicPartitionsMap(tps))
	// Output:
	// orders[0] payments[1 3] 3
	// map[orders:[0] payments:[1 3]]
}
