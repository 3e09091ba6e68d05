package measure

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kgroup/assignor"
)

func topicsOf(sizes map[string]int) []assignor.Topic {
	var ts []assignor.Topic
	for _, name := range []string{"a", "b", "c", "d"} {
		if n, ok := sizes[name]; ok {
			ts = append(ts, assignor.Topic{Name: name, Partitions: assignor.Partitions(int32(n))})
		}
	}
	return ts
}

// TestOptimum pins the optimum on groups whose best plan is known by hand,
// including those where balance needs a class to hand partitions on.
func TestOptimum(t *testing.T) {
	all := []string{"a", "b"}
	tests := []struct {
		name  string
		sizes map[string]int
		subs  [][]string
		want  Balance
	}{
		{"identical subscriptions, even split", map[string]int{"a": 6, "b": 6}, [][]string{all, all, all}, Balance{SumSq: 48, Spread: 0}},
		{"identical subscriptions, ceil and floor: 1,000 over 51 (a join into 50)", map[string]int{"a": 500, "b": 500},
			repeat(all, 51), Balance{SumSq: 31*20*20 + 20*19*19, Spread: 1}},
		{"no members", map[string]int{"a": 3}, nil, Balance{}},
		{"a member subscribing to nothing the metadata has gets nothing", map[string]int{"a": 5}, [][]string{{"a"}, {"zz"}}, Balance{SumSq: 25, Spread: 5}},
		{"a topic only one member takes fixes its load", map[string]int{"a": 10, "b": 2}, [][]string{{"a", "b"}, {"b"}}, Balance{SumSq: 100 + 4, Spread: 8}},
		{"balance needs a class to hand partitions on", map[string]int{"a": 4, "b": 4}, [][]string{{"a", "b"}, {"b"}}, Balance{SumSq: 32, Spread: 0}},
		{"mixed: odd members subscribe to half the topics", map[string]int{"a": 10, "b": 10, "c": 10, "d": 10},
			[][]string{{"a", "b", "c", "d"}, {"a", "b"}, {"a", "b", "c", "d"}, {"a", "b"}}, Balance{SumSq: 4 * 100, Spread: 0}},
		{"mixed, where the narrow members cannot reach the mean", map[string]int{"a": 2, "b": 30},
			[][]string{{"a", "b"}, {"a"}, {"a", "b"}, {"a"}}, Balance{SumSq: 15*15 + 15*15 + 1 + 1, Spread: 14}},
		{"duplicate topics in a subscription count once", map[string]int{"a": 4}, [][]string{{"a", "a"}, {"a"}}, Balance{SumSq: 8, Spread: 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Optimum(topicsOf(tt.sizes), tt.subs); got != tt.want {
				t.Errorf("Optimum = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func repeat(s []string, n int) [][]string {
	out := make([][]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// TestOptimumAgainstBruteForce compares Optimum with every plan of small
// random groups: the least sum of squares, and the least spread.
func TestOptimumAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"a", "b", "c", "d"}
	for i := range 400 {
		sizes := map[string]int{}
		for _, n := range names[:1+rng.IntN(4)] {
			sizes[n] = rng.IntN(4)
		}
		var subs [][]string
		for range 1 + rng.IntN(4) {
			var s []string
			for _, n := range names {
				if rng.IntN(2) == 0 {
					s = append(s, n)
				}
			}
			subs = append(subs, s)
		}
		topics := topicsOf(sizes)
		want := bruteForce(topics, subs)
		if got := Optimum(topics, subs); got != want {
			t.Fatalf("case %d: sizes %v, subscriptions %v: Optimum = %+v, every plan tried: %+v", i, sizes, subs, got, want)
		}
	}
}

// bruteForce tries every complete plan (each subscribed partition to one
// of its subscribers) and returns the least sum of squares and spread.
func bruteForce(topics []assignor.Topic, subs [][]string) Balance {
	var choices [][]int // per subscribed partition, the members that may take it
	for _, t := range topics {
		var who []int
		for m, s := range subs {
			if slices.Contains(s, t.Name) {
				who = append(who, m)
			}
		}
		if len(who) == 0 {
			continue
		}
		for range t.Partitions {
			choices = append(choices, who)
		}
	}
	best := Balance{SumSq: -1, Spread: -1}
	loads := make([]int, len(subs))
	var try func(i int)
	try = func(i int) {
		if i == len(choices) {
			var sq int64
			for _, l := range loads {
				sq += int64(l * l)
			}
			spread := 0
			if len(loads) > 0 {
				spread = slices.Max(loads) - slices.Min(loads)
			}
			if best.SumSq < 0 || sq < best.SumSq {
				best.SumSq = sq
			}
			if best.Spread < 0 || spread < best.Spread {
				best.Spread = spread
			}
			return
		}
		for _, m := range choices[i] {
			loads[m]++
			try(i + 1)
			loads[m]--
		}
	}
	try(0)
	return best
}

func BenchmarkOptimum(b *testing.B) {
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		topics := []assignor.Topic{}
		for i := range 100 {
			topics = append(topics, assignor.Topic{Name: fmt.Sprint("t", i), Partitions: assignor.Partitions(int32(n / 100))})
		}
		var all, half []string
		for i, t := range topics {
			all = append(all, t.Name)
			if i%2 == 0 {
				half = append(half, t.Name)
			}
		}
		var subs [][]string
		for m := range 1000 {
			if m%2 == 1 {
				subs = append(subs, half)
			} else {
				subs = append(subs, all)
			}
		}
		b.Run(fmt.Sprintf("partitions=%d/mixed", n), func(b *testing.B) {
			for b.Loop() {
				Optimum(topics, subs)
			}
		})
	}
}
