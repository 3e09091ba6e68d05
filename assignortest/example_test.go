package assignortest_test

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/assignortest"
	"github.com/kgroup/assignor/sticky"
)

// Check takes a constructor of any assignor type: sticky.New returns a
// *sticky.Assignor. In a test, assignortest.Run(t, sticky.New) runs each case
// as a subtest instead and reports failures at the line that called it.
func ExampleCheck() {
	if err := assignortest.Check(sticky.New); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("sticky.New passes every case")
	// Output: sticky.New passes every case
}

// evenShares gives each of a topic's k subscribers n/k of its n partitions,
// in member ID order, and so drops the remainder: the bug this example
// catches.
type evenShares struct{}

func (evenShares) Name() string { return "even-shares" }

func (evenShares) Assign(g assignor.Group) (assignor.Plan, error) {
	members := slices.SortedFunc(slices.Values(g.Members), func(a, b assignor.Member) int { return cmp.Compare(a.ID, b.ID) })
	topics := slices.SortedFunc(slices.Values(g.Topics), func(a, b assignor.Topic) int { return cmp.Compare(a.Name, b.Name) })
	plan := assignor.Plan{Members: make([]assignor.MemberPlan, len(members))}
	for i, m := range members {
		plan.Members[i].Member = m.ID
	}
	for _, t := range topics {
		var subscribers []int
		for i, m := range members {
			if slices.Contains(m.Topics, t.Name) {
				subscribers = append(subscribers, i)
			}
		}
		if len(subscribers) == 0 {
			continue
		}
		ps := slices.Sorted(slices.Values(t.Partitions))
		share := len(ps) / len(subscribers)
		for j, i := range subscribers {
			if share > 0 {
				mine := assignor.TopicPartitions{Topic: t.Name, Partitions: ps[j*share : (j+1)*share : (j+1)*share]}
				plan.Members[i].Assigned = append(plan.Members[i].Assigned, mine)
			}
		}
	}
	return plan, nil
}

// A failure names the case (and which of its groups), says the rule broken
// and the fix on one line, lists every violation in the plan, and shows the
// group and the plan. Here the first of
// evenShares' failures: of three partitions and two subscribers, one is
// left unassigned.
func Example_failure() {
	err := assignortest.Check(func() evenShares { return evenShares{} })
	var first *assignortest.CaseError
	if errors.As(err, &first) {
		fmt.Println(first)
		fmt.Println(errors.Is(first, assignor.ErrUnassigned))
	}
	// Output:
	// unknown-topics: 1 violation
	//   rule: Every partition of a topic that some member subscribes to is assigned (by a cooperative assignor, at the latest in the follow-up round). fix: Assign each partition in g.Topics whose topic has a subscriber; a cooperative assignor may withhold a claimed one for one round only, and sets Plan.FollowUp when it does.
	//   assignor: subscribed partition left unassigned: t0/2
	//   group (3 members, 1 topic):
	//     a: t0 missing
	//     b: missing also-missing
	//     c: also-missing t0
	//     topics: t0(3)
	//   plan:
	//     a: t0[0]
	//     b:
	//     c: t0[1]
	// true
}

// Benchmark runs an assignor on the bench's shapes and scenarios, reporting
// spread, moves and withheld partitions next to ns/op. In a _test.go file
// of your package:
//
//	func BenchmarkMyAssignor(b *testing.B) { assignortest.Benchmark(b, mypkg.New) }
//
// then go test -bench MyAssignor -short (the 1k shape) or without -short
// (1k to 100k). The output has one line a shape and scenario:
//
//	BenchmarkMyAssignor/partitions=1000/members=50/join-2  	 ...  ns/op  0 spread  20 moves  0 withheld  ...
//
// Here testing.Benchmark runs it on one tiny shape given explicitly.
func ExampleBenchmark() {
	tiny := assignortest.Shape{Topics: 2, Partitions: 10, Members: 3}
	testing.Benchmark(func(b *testing.B) {
		assignortest.Benchmark(b, sticky.New, tiny)
	})
	// Output:
}
