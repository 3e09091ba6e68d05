package weighted

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomGroup draws a group as drawGroup does, from rng: 1 to 10 members,
// 1 to 5 topics of up to 12 partitions, weights with idle and heavy ones.
func randomGroup(rng *rand.Rand) *group {
	members, topics := 1+rng.IntN(10), 1+rng.IntN(5)
	g := &group{members: members, subscribers: make([][]int32, topics)}
	for tp := range topics {
		for m := range members {
			if rng.IntN(4) > 0 {
				g.subscribers[tp] = append(g.subscribers[tp], int32(m))
			}
		}
		for range rng.IntN(13) {
			g.topic = append(g.topic, int32(tp))
			w := int64(rng.IntN(1001))
			switch rng.IntN(10) {
			case 0, 1:
				w = 0
			case 2:
				w *= 100
			}
			g.weight = append(g.weight, w)
		}
	}
	return g
}

// perturbed returns a copy of g owned as holder says, each weight changed
// by a random whole percentage in [−5, 5].
func perturbed(g *group, holder []int32, rng *rand.Rand) *group {
	next := withOwners(g, holder)
	next.weight = slices.Clone(g.weight)
	for p, w := range g.weight {
		next.weight[p] = w + w*int64(rng.IntN(11)-5)/100
	}
	return next
}

// followUp returns g owned as holder says, less the partitions holder took
// from their claimants in g (what a cooperative round leaves: the protocol
// withholds a claimed partition the plan moves, even from a claimant that
// no longer subscribes to its topic).
func followUp(g *group, holder []int32) *group {
	kept := withOwners(g, holder)
	for p, m := range holder {
		if o := g.owner[p]; o != -1 && o != m && m >= 0 {
			kept.owner[p] = -1
		}
	}
	return kept
}

// TestStabilityRates measures, on 4,000 small random groups each, how often
// the hysteresis and follow-up properties of TestPropertyHysteresis and
// TestPropertyFollowUp hold: the solver is a heuristic, and the rare misses
// (a first plan more than the margin above what the solver finds after the
// noise; a follow-up round whose squares settle elsewhere) are counted
// rather than hidden. Both must hold on at least 99.5% of groups.
func TestStabilityRates(t *testing.T) {
	const n = 4000
	rng := rand.New(rand.NewPCG(16, 5))
	still, settled := 0, 0
	for range n {
		g := randomGroup(rng)
		plan := mustSolve(t, g, defaultConfig())
		next := perturbed(g, plan, rng)
		if moves, _ := moved(next, mustSolve(t, next, defaultConfig())); moves == 0 {
			still++
		}
		g.owner = make([]int32, len(g.topic))
		for p := range g.owner {
			g.owner[p] = int32(rng.IntN(g.members+1)) - 1
		}
		kept := followUp(g, mustSolve(t, g, defaultConfig()))
		if moves, _ := moved(kept, mustSolve(t, kept, defaultConfig())); moves == 0 {
			settled++
		}
	}
	t.Logf("±5%% noise, same members: 0 moves on %d of %d groups (%.2f%%)", still, n, 100*float64(still)/n)
	t.Logf("cooperative follow-up round: no owned partition moves on %d of %d groups (%.2f%%)", settled, n, 100*float64(settled)/n)
	if still*1000 < 995*n || settled*1000 < 995*n {
		t.Errorf("want both on at least 99.5%% of groups")
	}
}

// TestLargeHysteresis: on the large groups, weights perturbed by ±5% per
// partition with the same members move nothing at the default margin.
func TestLargeHysteresis(t *testing.T) {
	for _, w := range workloads() {
		sh := largeShapes()[0]
		t.Run(fmt.Sprintf("%s/%s", w, sh), func(t *testing.T) {
			g := w.build(sh, 16)
			next := perturbed(g, mustSolve(t, g, defaultConfig()), rand.New(rand.NewPCG(16, 6)))
			if n, weight := moved(next, mustSolve(t, next, defaultConfig())); n > 0 {
				t.Errorf("%d partitions (weight %d) moved under ±5%% noise", n, weight)
			}
		})
	}
}

// TestLargeJoin measures what one member joining a large group moves
// (issue 16: no more weight than the new balance needs). The newcomer
// subscribes as member 0 does; everything it holds was moved to it, so its
// load is the least weight a balanced plan must move. The test reports, per
// workload, the partitions moved, the weight moved over the newcomer's
// load, and the heaviest load over the lower bound after the join; it
// asserts that the weight moved is within 1.25 of the newcomer's load (on
// the small shape: that at most four partitions move per partition the
// newcomer gets) and the heaviest load within 1.10 of the bound.
func TestLargeJoin(t *testing.T) {
	t.Logf("%-14s %7s %10s %12s %12s %9s", "workload", "moves", "count-need", "moved/new", "new/mean", "max/bound")
	// The large shape, and a small one of five partitions per member, where
	// the plan from scratch differs from the owners' in most partitions.
	for _, sh := range []shape{largeShapes()[0], {topics: 10, partitionsPerTopic: 100, members: 200}} {
		for _, w := range workloads() {
			joinOneMeasured(t, w, sh)
		}
	}
}

// joinOneMeasured is TestLargeJoin on one workload and shape.
func joinOneMeasured(t *testing.T, w workload, sh shape) {
	{
		t.Run(fmt.Sprintf("%s/%s", w, sh), func(t *testing.T) {
			g := w.build(sh, 16)
			joined := joinOne(g, mustSolve(t, g, defaultConfig()))
			holder := mustSolve(t, joined, defaultConfig())
			moves, weight := moved(joined, holder)
			load, count := loadsOf(joined, holder)
			newcomer := load[g.members]
			var total int64
			for _, l := range load {
				total += l
			}
			bound := max(simpleBound(joined), countBound(joined, defaultConfig()), subscriptionBound(joined, defaultConfig()))
			t.Logf("%-14s %7d %10d %12.4f %12.4f %9.4f", w, moves, count[g.members], ratio(weight, newcomer),
				ratio(newcomer*int64(joined.members), total), ratio(maxOf(load), bound))
			switch perMember := sh.partitions() / sh.members; {
			case perMember >= 10 && weight*100 > newcomer*125:
				t.Errorf("moved weight %d, %.2f× the newcomer's load %d", weight, ratio(weight, newcomer), newcomer)
			case perMember < 10 && moves > 4*int(count[g.members]):
				// With a handful of partitions per member the newcomer's
				// load is a few partitions' worth and a swap or two to
				// rebalance weighs as much: bound the partitions instead.
				t.Errorf("%d partitions moved for a newcomer given %d", moves, count[g.members])
			}
			if maxOf(load)*100 > bound*110 {
				t.Errorf("heaviest load %.4f× the bound after the join", ratio(maxOf(load), bound))
			}
		})
	}
}
