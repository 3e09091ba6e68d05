package assignor_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/assignortest"
	"github.com/kgroup/assignor/roundrobin"
)

// rangeAssignor gives each subscriber of a topic a contiguous range of the
// topic's partitions, like Java's RangeAssignor: with n partitions and k
// subscribers, subscriber i (in member ID order) gets [i·n/k, (i+1)·n/k).
// It builds on assignor.NewIndex, which validates the group, puts it in a
// canonical order (so the plan cannot depend on the input's order) and
// numbers partitions densely.
type rangeAssignor struct{}

func (rangeAssignor) Name() string { return "range" }

// Assign is the contract: the group in, the plan out.
func (r rangeAssignor) Assign(g assignor.Group) (assignor.Plan, error) {
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return assignor.Plan{}, err
	}
	fp, err := r.AssignFlat(ix)
	if err != nil {
		return assignor.Plan{}, err
	}
	return ix.PlanOf(fp), nil
}

// AssignFlat is the optional fast path (assignor.FlatAssignor): the
// adapters and cooperative.Wrap hand it the Index they built and take one
// holder per flat partition, sparing the plan's lists.
func (rangeAssignor) AssignFlat(ix *assignor.Index) (assignor.FlatPlan, error) {
	holder := make([]int32, ix.NumPartitions()) // holder[p]: the member given flat partition p
	for t := range int32(ix.NumTopics()) {
		first, end := ix.TopicRange(t)
		n, subscribers := end-first, ix.Subscribers(t)
		k := int32(len(subscribers))
		for p := first; p < end; p++ {
			holder[p] = -1 // nobody subscribes
		}
		for i, m := range subscribers {
			for p := first + int32(i)*n/k; p < first+int32(i+1)*n/k; p++ {
				holder[p] = m
			}
		}
	}
	return assignor.FlatPlan{Holder: holder}, nil
}

// This example writes a small custom assignor and runs the conformance kit
// on it. In a test, call assignortest.Run(t, newAssignor) instead, for one
// subtest per case.
func Example() {
	err := assignortest.Check(func() assignor.Assignor { return rangeAssignor{} })
	if err != nil {
		fmt.Println(err) // one line per misbehaviour: case, member, topic, partition
		return
	}
	fmt.Println("ok")

	plan, _ := rangeAssignor{}.Assign(assignor.Group{
		Members: []assignor.Member{
			{ID: "m0", Topics: []string{"orders"}},
			{ID: "m1", Topics: []string{"orders"}},
		},
		Topics: []assignor.Topic{{Name: "orders", Partitions: assignor.Partitions(5)}},
	})
	fmt.Print(plan)
	// Output:
	// ok
	// m0: orders[0 1]
	// m1: orders[2 3 4]
}

// This example assigns a small group with round-robin: every partition of
// every subscribed topic, in topic then partition order, goes to the next
// member around the ring that subscribes to its topic. The static member
// (KIP-345) stands first in the ring, so: clicks/0 to consumer-z, clicks/1 to
// consumer-b (consumer-a does not read clicks), clicks/2 to consumer-z, then
// orders/0 to consumer-a, and on around.
func Example_roundRobin() {
	g := assignor.Group{
		Members: []assignor.Member{
			{ID: "consumer-b", Topics: []string{"clicks", "orders"}},
			{ID: "consumer-a", Topics: []string{"orders"}},
			{ID: "consumer-z", InstanceID: "pod-0", Topics: []string{"clicks", "orders"}},
		},
		Topics: []assignor.Topic{
			{Name: "orders", Partitions: assignor.Partitions(4)},
			{Name: "clicks", Partitions: assignor.Partitions(3)},
		},
	}
	plan, err := roundrobin.New().Assign(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(plan)
	// Output:
	// consumer-a: orders[0 3]
	// consumer-b: clicks[1] orders[1]
	// consumer-z: clicks[0 2] orders[2]
}

// CheckPlan checks a plan against the group it answers, here with the
// cooperative rules: m0 owns orders/0 and orders/1 at generation 3, and the
// plan gives orders/1 to the new member m1 at once (the KIP-429 safety rule
// wants it withheld until m0 has revoked it) and the unclaimed orders/2 to
// both. Every violation is an *assignor.PartitionError (or *MemberError)
// wrapping one of the package's sentinels.
func ExampleCheckPlan() {
	g := assignor.Group{
		Members: []assignor.Member{
			{ID: "m0", Topics: []string{"orders"}, Generation: 3,
				Owned: []assignor.TopicPartitions{{Topic: "orders", Partitions: []int32{0, 1}}}},
			{ID: "m1", Topics: []string{"orders"}, Generation: assignor.NoGeneration},
		},
		Topics: []assignor.Topic{{Name: "orders", Partitions: assignor.Partitions(3)}},
	}
	plan := assignor.Plan{Members: []assignor.MemberPlan{
		{Member: "m0", Assigned: []assignor.TopicPartitions{{Topic: "orders", Partitions: []int32{0, 2}}}},
		{Member: "m1", Assigned: []assignor.TopicPartitions{{Topic: "orders", Partitions: []int32{1, 2}}}},
	}}
	err := assignor.CheckPlan(g, plan, assignor.Cooperative)
	var lines []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var pe *assignor.PartitionError
		if !errors.As(e, &pe) {
			continue
		}
		rule := "?"
		switch {
		case errors.Is(e, assignor.ErrAssignedTwice):
			rule = "assigned twice"
		case errors.Is(e, assignor.ErrNotOwner):
			rule = "not its valid owner"
		}
		lines = append(lines, fmt.Sprintf("%s/%d to %s: %s", pe.Topic, pe.Partition, pe.Member, rule))
	}
	slices.Sort(lines)
	fmt.Println(strings.Join(lines, "\n"))
	// Output:
	// orders/1 to m1: not its valid owner
	// orders/2 to m1: assigned twice
}
