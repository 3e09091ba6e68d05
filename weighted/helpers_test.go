package weighted

import (
	"slices"
	"testing"

	"github.com/kgroup/assignor/internal/rapidseed"
)

// TestMain fixes rapid's seed (internal/rapidseed) so that every run checks
// the same cases; pass -rapid.seed=N for another.
func TestMain(m *testing.M) { rapidseed.Main(m) }

// fataler is what the checks need of *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// subscribes reports whether member m subscribes to topic t in g.
func subscribes(g *group, m, t int32) bool {
	return slices.Contains(g.subscribers[t], m)
}

// subscriptionTable returns subscribes for g as a table lookup, for checks
// over many partitions.
func subscriptionTable(g *group) func(m, t int32) bool {
	table := make([][]bool, len(g.subscribers))
	for t, subs := range g.subscribers {
		table[t] = make([]bool, g.members)
		for _, m := range subs {
			table[t][m] = true
		}
	}
	return func(m, t int32) bool { return table[t][m] }
}

// loadsOf returns each member's load and count under holder.
func loadsOf(g *group, holder []int32) (load []int64, count []int32) {
	load = make([]int64, g.members)
	count = make([]int32, g.members)
	for p, m := range holder {
		if m >= 0 {
			load[m] += g.weight[p]
			count[m]++
		}
	}
	return load, count
}

func maxOf(xs []int64) int64 {
	var top int64
	for _, x := range xs {
		top = max(top, x)
	}
	return top
}

// checkValid fails unless holder gives every partition of a subscribed
// topic to one of its subscribers and leaves the others at -1.
func checkValid(t fataler, g *group, holder []int32) {
	t.Helper()
	if len(holder) != len(g.topic) {
		t.Fatalf("%d holders for %d partitions", len(holder), len(g.topic))
	}
	subscribes := subscriptionTable(g)
	for p, m := range holder {
		tp := g.topic[p]
		if len(g.subscribers[tp]) == 0 {
			if m != -1 {
				t.Fatalf("partition %d of unsubscribed topic %d given to %d", p, tp, m)
			}
			continue
		}
		if m < 0 || int(m) >= g.members || !subscribes(m, tp) {
			t.Fatalf("partition %d of topic %d given to %d, not a subscriber", p, tp, m)
		}
	}
}

// checkCounts fails unless every member's count is within the skew of its
// count-balanced band, as countBands computes it (cross-checked against
// enumeration by TestOracle).
func checkCounts(t fataler, g *group, cfg config, holder []int32) {
	t.Helper()
	ss := newSubscriberSets(g.members, g.subscribers, g.topic)
	lo, hi := countBands(ss)
	_, count := loadsOf(g, holder)
	for m, c := range count {
		if c < minimumCount(lo[m], cfg) || c > hi[m]+cfg.countTolerance {
			t.Fatalf("member %d holds %d partitions, band [%d, %d], skew %d", m, c, lo[m], hi[m], cfg.countTolerance)
		}
	}
}

// minimumCount is the least count the skew allows a member whose
// count-balanced band starts at lo: lo − skew, but at least 1 if lo is.
func minimumCount(lo int32, cfg config) int32 {
	return max(min(1, lo), lo-cfg.countTolerance)
}

// mustSolve solves g with cfg and checks validity and counts.
func mustSolve(t fataler, g *group, cfg config) []int32 {
	t.Helper()
	holder, err := solve(*g, cfg)
	if err != nil {
		t.Fatalf("solve: %v", err)
	}
	checkValid(t, g, holder)
	checkCounts(t, g, cfg, holder)
	return holder
}

// moved returns the partitions that left their valid owner and their
// weight.
func moved(g *group, holder []int32) (n int, weight int64) {
	subscribes := subscriptionTable(g)
	for p, m := range holder {
		if o := g.owner[p]; o >= 0 && o != m && subscribes(o, g.topic[p]) {
			n++
			weight += g.weight[p]
		}
	}
	return n, weight
}
