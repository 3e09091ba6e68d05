package weighted

import "math"

// topPartners is how many of the lightest members sharing a subscriber set
// with it the heaviest member tries (all of them in groups up to that
// size), and sweepPartners how many each other member tries in a sweep.
const (
	topPartners   = 64
	sweepPartners = 2
)

// descend runs the search for the lowest heaviest load, then the lowest sum
// of squares, from pl as it is, until no operation improves or the budget
// runs out.
//
// The heaviest member a tries the lighter members b that share a set with
// it, lightest first (up to topPartners of them), and takes the best operation with the first b that
// has one: the d nearest
// (load[a] − load[b])/2, which lowers the pair's larger load the most.
// When a has none (it is stuck: no single move or swap lowers the heaviest
// load), sweeps go down the other members, each trying the lightest few
// that are more than the band (of the mean load) below it: closer pairs
// change the squares by less than the band can tell. They lower the sum of
// squares, and may unstick a: after each, a tries again with the two
// members that changed. The search stops early once the squares are within
// the band of their lower bound (see solver.bounds).
func (sr *search) descend() {
	stuck := false
	// Sweeps get a smaller share (sweepBudget): they refine the squares,
	// which placement leaves near the bound on large groups. floor is the
	// budget at which they stop, set at the first sweep.
	floor := int64(math.MinInt64)
	squaresCap := sr.s.squaresCap(sr.s.floor.squares)
	for sr.budget > max(0, floor) {
		if stuck && !squaresCap.less(sr.squares) {
			return // within the band of the squares' lower bound
		}
		if !stuck {
			stuck = !sr.lowerTop() && !sr.lowerTopByChain()
			continue
		}
		if floor == math.MinInt64 {
			floor = max(0, sr.budget-sr.s.sweepBudget())
		}
		progress, unstuck := sr.sweep(max(1, sr.s.tolerance(sr.s.total/int64(max(1, sr.s.active)))), floor)
		if !progress {
			return
		}
		stuck = !unstuck
	}
}

// lowerTop applies the best operation between the heaviest member and the
// first lighter member that has one; it reports whether it found one.
// Operations that lower the heaviest load by no more than a hundredth of
// the tolerance band do not count (they cannot change a comparison within
// the band, and a member holding one heavy partition and many light ones
// could otherwise trade light ones one at a time).
func (sr *search) lowerTop() bool {
	a := sr.top()
	if a < 0 || sr.pl.load[a] <= sr.s.lowerBound {
		return false // optimal
	}
	fine := sr.s.tolerance(sr.pl.load[a]) / 100
	tried := 0
	for i := 0; i < len(sr.byLoad) && tried < topPartners && sr.budget > 0; i++ {
		b := sr.byLoad[i]
		if sr.pl.load[b] >= sr.pl.load[a]-1 {
			return false
		}
		if !sr.shares(a, b) {
			continue
		}
		tried++
		if o, ok := sr.bestPair(a, b); ok && min(o.d, sr.pl.load[a]-sr.pl.load[b]-o.d) > fine {
			sr.apply(o)
			return true
		}
	}
	return false
}

// sweep tries, for each member from the top down, the
// lightest few members more than band below it that share a subscriber set
// with it, until the budget is down to floor; it reports whether it applied an operation, and
// whether one of them let the heaviest member improve.
func (sr *search) sweep(band, floor int64) (progress, unstuck bool) {
	sr.order = append(sr.order[:0], sr.byLoad...)
	order := sr.order
	for i := len(order) - 1; i >= 0 && sr.budget > floor; i-- {
		a := order[i]
		tried := 0
		for j := 0; tried < sweepPartners && j < len(sr.byLoad) && sr.budget > floor; j++ {
			b := sr.byLoad[j]
			if sr.pl.load[b] >= sr.pl.load[a]-band {
				break
			}
			if !sr.shares(a, b) {
				continue
			}
			tried++
			o, ok := sr.bestPair(a, b)
			if !ok {
				continue
			}
			sr.apply(o)
			progress = true
			top := sr.top()
			for _, m := range [2]int32{o.a, o.b} {
				if m == top || sr.pl.load[m] >= sr.pl.load[top]-1 {
					continue
				}
				if o, ok := sr.bestPair(top, m); ok {
					sr.apply(o)
					return true, true
				}
			}
			break
		}
	}
	return progress, false
}

// swapWindow is how many candidates on each side of the ideal one an
// operation search looks at (more when it must keep racks, since the
// nearest may lose a rack-local partition).
func (sr *search) window() int {
	if sr.rackSafe {
		return 4
	}
	return 1
}

// bestPair returns the operation between a and a lighter b whose weight d
// is nearest half their difference (so the larger of the two new loads is
// the smallest), moves before swaps on a tie; false when none has
// 0 < d < load[a] − load[b].
func (sr *search) bestPair(a, b int32) (op, bool) {
	pl := sr.pl
	gap := pl.load[a] - pl.load[b]
	if gap < 2 || !sr.lists(a, b) {
		return op{}, false
	}
	half := gap / 2
	var best op
	bestValue := int64(0)
	offer := func(x, y int32) {
		d := pl.weight[x]
		if y >= 0 {
			d -= pl.weight[y]
		}
		if d <= 0 || d >= gap {
			return
		}
		if v := min(d, gap-d); v > bestValue {
			if o := (op{a, b, x, y, d}); sr.safe(o) {
				best, bestValue = o, v
			}
		}
	}
	w := sr.window()
	xs, ys := sr.xs, sr.ys
	if sr.canMove(a, b) {
		i := sr.firstAtMost(xs, half)
		for k := max(0, i-w); k < min(len(xs), i+w); k++ {
			offer(xs[k], -1)
		}
	}
	j := 0
	for _, x := range xs {
		// A swap of x passes d < w(x), worth min(d, gap − d) < w(x): once
		// w(x) is no more than the best value, no lighter x can beat it.
		wx := pl.weight[x]
		if bestValue == half || wx <= bestValue {
			break
		}
		for j < len(ys) && pl.weight[ys[j]] > wx-half {
			j++
		}
		for k := max(0, j-w); k < min(len(ys), j+w); k++ {
			offer(x, ys[k])
		}
	}
	return best, bestValue > 0
}
