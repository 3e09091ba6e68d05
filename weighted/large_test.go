package weighted

import (
	"fmt"
	"slices"
	"testing"
)

// largeShapes are issue 16's large groups: 100k partitions, 50 and 10
// partitions per member.
func largeShapes() []shape {
	return []shape{
		{topics: 100, partitionsPerTopic: 1000, members: 2000},
		{topics: 100, partitionsPerTopic: 1000, members: 10000},
	}
}

// TestLargeGroups measures, on 100k-partition groups with skewed weights
// (issue 16, item 7), the heaviest load over the lower bound
// max(total/members, heaviest partition), for the weighted plan and for the
// count-only plan (the same solver given zero weights: a count-balanced
// plan, as count-sticky would make) on the same inputs, and the bound the
// count limit and the subscriptions add (countBound, subscriptionBound).
// The weighted plan must be within 1.10 of the largest bound.
func TestLargeGroups(t *testing.T) {
	t.Logf("heaviest load over max(total/members, heaviest partition), and the weighted plan's over the full bound")
	t.Logf("%-14s %-32s %9s %10s %10s %14s", "workload", "shape", "weighted", "count-only", "full-bound", "weighted/full")
	for _, w := range workloads() {
		for _, sh := range largeShapes() {
			t.Run(fmt.Sprintf("%s/%s", w, sh), func(t *testing.T) {
				g := w.build(sh, 16)
				bound := simpleBound(g)
				load, _ := loadsOf(g, mustSolve(t, g, defaultConfig()))
				weighted := ratio(maxOf(load), bound)
				countLoad, _ := loadsOf(g, mustSolve(t, zeroWeights(g), defaultConfig()))
				countOnly := ratio(maxOf(countLoad), bound)
				limited := max(bound, countBound(g, defaultConfig()), subscriptionBound(g, defaultConfig()))
				t.Logf("%-14s %-32s %9.4f %10.4f %10.4f %14.4f", w, sh, weighted, countOnly, ratio(limited, bound), ratio(maxOf(load), limited))
				if maxOf(load)*100 > limited*110 {
					t.Errorf("heaviest load %d is %.4f× the lower bound %d, want at most 1.10×", maxOf(load), ratio(maxOf(load), limited), limited)
				}
			})
		}
	}
}

// countBound is a lower bound on the heaviest load under the count limit:
// whoever holds the heaviest partition holds at least c−1 others, c being
// the least minimum count of a member with a subscription, so at least the
// c−1 lightest.
func countBound(g *group, cfg config) int64 {
	ss := newSubscriberSets(g.members, g.subscribers, g.topic)
	lo, _ := countBands(ss)
	least := int32(1 << 30)
	for m := range int32(g.members) {
		if len(ss.setsOf(m)) > 0 {
			least = min(least, minimumCount(lo[m], cfg))
		}
	}
	weights := slices.Clone(g.weight)
	slices.Sort(weights)
	heaviest := weights[len(weights)-1]
	for _, w := range weights[:max(0, int(least)-1)] {
		heaviest += w
	}
	return heaviest
}

// subscriptionBound is a lower bound on the heaviest load given the
// subscriptions and the count limit: for any set of members X, the
// partitions only members of X subscribe to must go to X, and X's members
// hold at least the sum of their minimum counts, the rest of them from
// topics some member of X subscribes to, at least the lightest such; so
// some member of X carries at least the total over |X|. It tries every X
// that is a union of topics' subscriber lists (up to 2^16 of them).
func subscriptionBound(g *group, cfg config) int64 {
	ss := newSubscriberSets(g.members, g.subscribers, g.topic)
	sets := ss.numSets()
	if sets > 16 {
		return 0
	}
	lo, _ := countBands(ss)
	bySet := make([][]int64, sets) // weights per set, ascending
	for p, w := range g.weight {
		if s := ss.topicSet[g.topic[p]]; s >= 0 {
			bySet[s] = append(bySet[s], w)
		}
	}
	var best int64
	in := make([]bool, g.members)
	for mask := 1; mask < 1<<sets; mask++ {
		clear(in)
		size, least := int64(0), 0
		for s := range sets {
			if mask&(1<<s) == 0 {
				continue
			}
			for _, m := range ss.Members[s] {
				if !in[m] {
					in[m] = true
					size++
					least += int(minimumCount(lo[m], cfg))
				}
			}
		}
		var inside int64
		var reachable []int64
		for s := range sets {
			switch {
			case !slices.ContainsFunc(ss.Members[s], func(m int32) bool { return !in[m] }):
				for _, w := range bySet[s] {
					inside += w
				}
				least -= len(bySet[s])
			case slices.ContainsFunc(ss.Members[s], func(m int32) bool { return in[m] }):
				reachable = append(reachable, bySet[s]...)
			}
		}
		slices.Sort(reachable)
		for _, w := range reachable[:max(0, min(least, len(reachable)))] {
			inside += w
		}
		best = max(best, (inside+size-1)/size)
	}
	return best
}
