package assignortest_test

import (
	"flag"
	"os"
	"sync"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/assignortest"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/workload"
)

// TestMain runs each benchmark loop once unless -test.benchtime is given,
// so that the examples and tests that call Benchmark through
// testing.Benchmark take milliseconds, not a second per sub-benchmark.
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.benchtime" })
	if !given {
		if err := flag.Set("test.benchtime", "1x"); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}

// counting records the sizes of the groups it is given and delegates to
// sticky.
type counting struct {
	mu     *sync.Mutex
	groups map[int]int // members -> calls
	inner  *sticky.Assignor
}

func (c counting) Name() string { return "counting" }

func (c counting) Assign(g assignor.Group) (assignor.Plan, error) {
	c.mu.Lock()
	c.groups[len(g.Members)]++
	c.mu.Unlock()
	return c.inner.Assign(g)
}

// TestBenchmarkRunsEveryScenario: Benchmark runs the history round and the
// measured group of every scenario on the shape given (join: 4 members,
// then 5; leave: 4, then 3; fresh, mixed and racks: 4).
func TestBenchmarkRunsEveryScenario(t *testing.T) {
	rec := counting{mu: new(sync.Mutex), groups: map[int]int{}, inner: sticky.New()}
	shape := workload.Shape{Topics: 2, Partitions: 5, Members: 4}
	testing.Benchmark(func(b *testing.B) {
		assignortest.Benchmark(b, func() counting { return rec }, assignortest.Shape(shape))
	})
	// fresh, mixed, racks and the history rounds of join, leave, mixed-join.
	want := map[int]int{4: 6, 5: 2, 3: 1}
	for members, n := range want {
		if rec.groups[members] < n {
			t.Errorf("groups of %d members: Assign called %d times, want at least %d (all: %v)", members, rec.groups[members], n, rec.groups)
		}
	}
}

func tp(topic string, ps ...int32) assignor.TopicPartitions {
	return assignor.TopicPartitions{Topic: topic, Partitions: ps}
}

// TestJudge pins what Benchmark reports of a plan.
func TestJudge(t *testing.T) {
	topics := []assignor.Topic{{Name: "a", Partitions: assignor.Partitions(4)}, {Name: "b", Partitions: assignor.Partitions(2)}}
	tests := []struct {
		name                    string
		members                 []assignor.Member
		plan                    []assignor.MemberPlan
		spread, moves, withheld int
	}{
		{
			name:    "balanced, nothing owned: spread 0, no moves",
			members: []assignor.Member{{ID: "m0", Topics: []string{"a", "b"}}, {ID: "m1", Topics: []string{"a", "b"}}},
			plan:    []assignor.MemberPlan{{Member: "m0", Assigned: []assignor.TopicPartitions{tp("a", 0, 1), tp("b", 0)}}, {Member: "m1", Assigned: []assignor.TopicPartitions{tp("a", 2, 3), tp("b", 1)}}},
		},
		{
			name: "a partition taken from its owner is a move; a member left out counts in the spread",
			members: []assignor.Member{
				{ID: "m0", Topics: []string{"a"}, Owned: []assignor.TopicPartitions{tp("a", 0, 1, 2)}, Generation: 1},
				{ID: "m1", Topics: []string{"a"}},
				{ID: "m2", Topics: []string{"a"}},
			},
			plan:   []assignor.MemberPlan{{Member: "m0", Assigned: []assignor.TopicPartitions{tp("a", 0)}}, {Member: "m1", Assigned: []assignor.TopicPartitions{tp("a", 1, 2, 3)}}, {Member: "m2"}},
			spread: 3, moves: 2,
		},
		{
			name:     "subscribed partitions nobody got are withheld; unsubscribed topics are not",
			members:  []assignor.Member{{ID: "m0", Topics: []string{"a"}}},
			plan:     []assignor.MemberPlan{{Member: "m0", Assigned: []assignor.TopicPartitions{tp("a", 0, 1)}}},
			withheld: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := assignor.Group{Topics: topics, Members: tt.members}
			spread, moves, withheld := assignortest.Judge(g, assignor.Plan{Members: tt.plan})
			if spread != tt.spread || moves != tt.moves || withheld != tt.withheld {
				t.Errorf("spread, moves, withheld = %d, %d, %d; want %d, %d, %d", spread, moves, withheld, tt.spread, tt.moves, tt.withheld)
			}
		})
	}
}
