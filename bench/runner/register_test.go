package runner_test

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/runner"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
)

// rotate deals each topic's partitions over its subscribers in member ID
// order, starting each topic where the last one stopped: an assignor of a
// value type, as a user's may be.
type rotate struct{}

func newRotate() rotate { return rotate{} }

func (rotate) Name() string { return "rotate" }

func (rotate) Assign(g assignor.Group) (assignor.Plan, error) {
	ms := slices.SortedFunc(slices.Values(g.Members), func(a, b assignor.Member) int { return cmp.Compare(a.ID, b.ID) })
	plan := assignor.Plan{Members: make([]assignor.MemberPlan, len(ms))}
	next := 0
	for _, t := range slices.SortedFunc(slices.Values(g.Topics), func(a, b assignor.Topic) int { return cmp.Compare(a.Name, b.Name) }) {
		var subs []int
		for i, m := range ms {
			if slices.Contains(m.Topics, t.Name) {
				subs = append(subs, i)
			}
		}
		for _, p := range slices.Sorted(slices.Values(t.Partitions)) {
			if len(subs) == 0 {
				break
			}
			mp := &plan.Members[subs[next%len(subs)]]
			next++
			if n := len(mp.Assigned); n == 0 || mp.Assigned[n-1].Topic != t.Name {
				mp.Assigned = append(mp.Assigned, assignor.TopicPartitions{Topic: t.Name})
			}
			last := &mp.Assigned[len(mp.Assigned)-1]
			last.Partitions = append(last.Partitions, p)
		}
	}
	for i, m := range ms {
		plan.Members[i].Member = m.ID
	}
	return plan, nil
}

// Contender takes a constructor of any concrete assignor type, as the
// kit's Run and Benchmark do: these lines are the test, they compile.
var (
	_ runner.Assignor = runner.Contender("c1", "", sticky.New)                                       // func() *sticky.Assignor
	_ runner.Assignor = runner.Contender("c2", "", roundrobin.New)                                   // func() *roundrobin.Assignor
	_ runner.Assignor = runner.Contender("c3", "", newRotate)                                        // func() rotate, a value type
	_ runner.Assignor = runner.Contender("c4", "", func() assignor.Assignor { return sticky.New() }) // a closure returning the interface
)

// TestRegister: a concrete constructor registers both rows; a bad key, a
// key taken (built in, or by an earlier Register) and a missing or nil
// constructor each fail with an error naming the key.
func TestRegister(t *testing.T) {
	if err := runner.Register(runner.Contender("rotate", "my rotate", newRotate)); err != nil {
		t.Fatalf("a value-type constructor: %v", err)
	}
	var nilNew func() *sticky.Assignor
	tests := []struct {
		name string
		a    runner.Assignor
		want string
	}{
		{"empty key", runner.Contender("", "", sticky.New), `key ""`},
		{"key with a space", runner.Contender("my assignor", "", sticky.New), `key "my assignor"`},
		{"built-in key", runner.Contender("ours-coop", "", sticky.New), `"ours-coop" is taken`},
		{"built-in core key", runner.Contender("ours-coop-core", "", sticky.New), `"ours-coop-core" is taken`},
		{"key of the example's Register", runner.Contender("mine", "", sticky.New), `"mine" is taken`},
		{"key registered above", runner.Contender("rotate", "", sticky.New), `"rotate" is taken`},
		{"the zero Assignor", runner.Assignor{}, `key ""`},
		{"no constructor", runner.Contender("no-new", "", nilNew), `"no-new": the constructor is nil`},
		{"constructor returns a nil interface", runner.Contender("nil-new", "", func() assignor.Assignor { return nil }), `"nil-new": the constructor returned nil`},
		{"constructor returns a nil pointer", runner.Contender("nil-ptr", "", func() *sticky.Assignor { return nil }), `"nil-ptr": the constructor returned nil`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := runner.Register(tt.a)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Register: %v, want an error containing %s", err, tt.want)
			}
		})
	}
}
