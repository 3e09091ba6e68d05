package runner_test

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/runner"
)

// rotate deals each topic's partitions over its subscribers in member ID
// order, starting each topic where the last one stopped: the custom
// assignor to compare with ours and the peers'.
type rotate struct{}

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
		if len(subs) == 0 {
			continue
		}
		for _, p := range slices.Sorted(slices.Values(t.Partitions)) {
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

// init registers the assignor in every process of the bench, the parent
// and the children it re-executes; a program's main would do it first
// thing, then call runner.Main():
//
//	func main() {
//		if err := runner.Register(runner.Assignor{Key: "rotate", New: mypkg.New}); err != nil {
//			log.Fatal(err)
//		}
//		runner.Main()
//	}
//
// and `go run . -contenders rotate,ours-coop,franz-coop,sarama-coop -out results`
// prints the table and writes results/results.md and the plots.
func init() {
	if err := runner.Register(runner.Assignor{Key: "rotate", Name: "my rotate", New: func() assignor.Assignor { return rotate{} }}); err != nil {
		panic(err)
	}
}

// Run, as Main does with the command line: here on the smallest shape, the
// fresh scenario, once, against franz-go's cooperative-sticky.
func Example() {
	var table bytes.Buffer
	code := runner.Run([]string{"-shapes", "1k", "-scenarios", "fresh", "-reps", "1", "-scripts=false",
		"-contenders", "rotate,rotate-core,franz-coop"}, &table, io.Discard)
	fmt.Println("exit status", code)
	// The table's rows for the two contenders Register added, by key: the
	// quality columns (spread, moves, withheld) after the timings.
	for _, line := range strings.Split(table.String(), "\n") {
		f := strings.Fields(line)
		for i, field := range f {
			if (field == "rotate" || field == "rotate-core") && len(f) >= i+5 {
				fmt.Println(field, strings.Join(f[len(f)-4:], " "))
			}
		}
	}
	// Output:
	// exit status 0
	// rotate 0 opt – –
	// rotate-core 0 opt – –
}
