package weighted

import "testing"

// settleFromOwners runs the solver's first settle (toward the lower
// bounds) on g, which has owners and a member that joined, and returns
// whether it reached the target and the budget it left.
func settleFromOwners(t *testing.T, g *group) (bool, int64, int64) {
	t.Helper()
	if err := g.validate(); err != nil {
		t.Fatal(err)
	}
	s := newSolver(g, defaultConfig())
	low := s.floor
	keep, pool, _, empty := s.keep()
	s.place(keep, pool, s.tolerance(low.max))
	if !s.joined(keep, empty) {
		t.Fatal("no member joined")
	}
	s.repairCounts(keep, low.goal)
	sr := s.newSearch(keep, s.budget())
	ok := sr.settleBoth(low.max+s.tolerance(low.max), s.squaresCap(low.squares), low.goal)
	return ok, sr.budget, s.budget()
}

// TestSettlePace checks that settle stops early when it cannot reach its
// target (a join onto a round-robin plan of skewed weights, its heaviest
// load far above the bounds), and that the pace check does not stop a settle that can (a
// join onto the solver's own plan).
func TestSettlePace(t *testing.T) {
	for _, w := range []workload{hot5, mixedZipf} {
		g := w.build(benchShapes()[0], 1)
		roundRobin := make([]int32, len(g.topic))
		for p := range roundRobin {
			roundRobin[p] = int32(p % g.members)
		}
		ok, left, budget := settleFromOwners(t, joinOne(g, roundRobin))
		if ok || left < budget/2 {
			t.Errorf("%s, round robin: settle reached the target %v with %d of %d budget left; want a failure with more than half left", w, ok, left, budget)
		}
		if w != hot5 {
			continue // the bounds are out of reach from the solver's plan
		}
		ok, left, budget = settleFromOwners(t, joinOne(g, mustSolve(t, g, defaultConfig())))
		t.Logf("%s, own plan: settled %v using %d of %d", w, ok, budget-left, budget)
		if !ok {
			t.Errorf("%s, own plan: settle failed with %d of %d budget left", w, left, budget)
		}
	}
}
