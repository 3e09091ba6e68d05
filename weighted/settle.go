package weighted

import "cmp"

// settlePartners is how many members, past the first with a candidate,
// settle compares before it picks an operation.
const settlePartners = 4

// rating orders candidate operations while settling: fewest partitions
// off their owners first (cost: leaving an owner counts 1, returning to
// one −1), then those that finish the job (class 0), then, among
// finishers, the least weight taken off owners and the smallest transfer,
// and among the rest the transfer nearest the aim.
type rating struct {
	cost  int
	class int
	moved int64 // weight taken off its owners
	miss  int64 // class 0: the transfer; class 1: its distance to the aim
}

func (r rating) compare(q rating) int {
	return cmp.Or(cmp.Compare(r.cost, q.cost), cmp.Compare(r.class, q.class),
		cmp.Compare(r.moved, q.moved), cmp.Compare(r.miss, q.miss))
}

// settle moves partitions until the heaviest load is at most target and the
// sum of squared loads at most squaresCap, with the fewest partitions and
// the least weight moved off their owners that it can find, greedily. It
// reports whether it got there within the budget.
//
// While the heaviest member a is above target, it takes a weight d with
// load[a] − target <= d <= target − load[b] to some b if it can (a reaches
// the target in one step, b does not pass it), else the largest d that
// keeps b within target. Then, while the squares are above the cap, the
// members furthest from their goal (goal[m], the load of m in the best
// plan found from scratch) pass each other the weight that brings the one
// nearer its goal without passing the other's. Both only ever pass d with
// 0 < d < load[a] − load[b], so squares fall at every step.
func (sr *search) settle(target int64, squaresCap wide, goal []int64) bool {
	pace := sr.newPace(target)
	if pace.outpaced(sr) {
		return false
	}
	for sr.budget > 0 {
		if pace.behind(sr) {
			return false
		}
		a := sr.top()
		if a < 0 {
			return true
		}
		var o op
		var ok bool
		switch {
		case sr.pl.load[a] > target:
			o, ok = sr.bestToward(a, target)
		case squaresCap.less(sr.squares):
			o, ok = sr.bestSpread(target, goal)
		default:
			return true
		}
		if !ok {
			return false
		}
		sr.apply(o)
	}
	return sr.pl.maxLoad() <= target && !squaresCap.less(sr.pl.squares())
}

// paceChecks is how many times in its budget settle checks its pace.
const paceChecks = 16

// pace tracks settle's progress towards the target: the excess, the
// weight above target summed over the members, must reach 0.
type pace struct {
	target       int64
	start, check int64 // the budget at the start, and at the next check
	excess       int64 // at the start
}

func (sr *search) newPace(target int64) pace {
	return pace{target: target, start: sr.budget, check: sr.budget - sr.budget/paceChecks, excess: sr.excess(target)}
}

// behind reports, at each paceChecks-th of the budget, whether the excess
// falls too slowly to reach 0 before the budget runs out, at the rate it
// has fallen so far. Settling from a plan far off balance (an owners' plan
// made by another assignor) takes many more operations than the budget
// allows, and the rate tends to slow as the heaviest members run out of
// good operations: a settle that is behind would fail anyway, and the
// solver then takes the plan from scratch, as it would have. Stopping
// early saves the rest of the budget.
func (p *pace) behind(sr *search) bool {
	if sr.budget > p.check || p.excess == 0 {
		return false
	}
	p.check -= max(1, p.start/paceChecks)
	excess := sr.excess(p.target)
	if excess == 0 {
		return false
	}
	r := rate{fallen: max(0, p.excess-excess), used: p.start - sr.budget}
	if r.short(excess, sr.budget) {
		sr.behind = r
		return true
	}
	return false
}

// outpaced reports whether the rate at which an earlier settle from the
// same plan fell behind (sr.prior) cannot clear the excess with the whole
// budget: after the settle toward the lower bounds falls behind, the one
// toward the plan from scratch, from the same plan and with a target no
// lower, would too.
func (p *pace) outpaced(sr *search) bool {
	return sr.prior.used > 0 && p.excess > 0 && sr.prior.short(p.excess, sr.budget)
}

// rate is how much the excess fell (fallen) for the budget used.
type rate struct{ fallen, used int64 }

// short reports whether budget more at rate r leaves some of excess.
func (r rate) short(excess, budget int64) bool {
	reach := wide{0, uint64(r.fallen)}.times(max(0, budget))
	return reach.less(wide{0, uint64(excess)}.times(r.used))
}

// excess returns the weight above target summed over the members.
func (sr *search) excess(target int64) int64 {
	var sum int64
	for _, m := range sr.byLoad {
		sum += max(0, sr.pl.load[m]-target)
	}
	return sum
}

// settleBoth settles first with rack-safe operations only, when racks are
// in play, then with any; see settle.
func (sr *search) settleBoth(target int64, squaresCap wide, goal []int64) bool {
	sr.rackSafe = sr.s.racks != nil
	if sr.settle(target, squaresCap, goal) {
		return true
	}
	if !sr.rackSafe {
		return false
	}
	sr.rackSafe = false
	return sr.settle(target, squaresCap, goal)
}

// bestToward returns the best operation that takes weight off a (above
// target) to a member below target; see settle.
func (sr *search) bestToward(a int32, target int64) (op, bool) {
	var best op
	var bestRating rating
	found, looked := false, 0
	for i := 0; i < len(sr.byLoad) && looked < settlePartners && sr.budget > 0; i++ {
		b := sr.byLoad[i]
		lb := sr.pl.load[b]
		if lb >= target {
			break
		}
		need, room := sr.pl.load[a]-target, target-lb
		bound := ceiling{bestRating, found}
		o, r, ok := sr.bestWithin(a, b, room, bound, func(d int64) (int, int64) {
			if d >= need {
				return 0, d
			}
			return 1, room - d
		}, need, room)
		if found {
			looked++
		}
		if ok {
			best, bestRating, found = o, r, true
		}
	}
	return best, found
}

// bestSpread returns the best operation between one of the heaviest and
// one of the lightest few members that lowers the squares without taking
// anyone above target; see settle.
func (sr *search) bestSpread(target int64, goal []int64) (op, bool) {
	var best op
	var bestRating rating
	found := false
	n := len(sr.byLoad)
	for i := 0; i < settlePartners && i < n; i++ {
		b := sr.byLoad[i]
		for j := n - 1; j >= n-settlePartners && j > i; j-- {
			a := sr.byLoad[j]
			la, lb := sr.pl.load[a], sr.pl.load[b]
			room := min(target-lb, la-lb-1)
			aim := min(la-goal[a], goal[b]-lb)
			if aim <= 0 {
				aim = (la - lb) / 2
			}
			aim = min(aim, room)
			o, r, ok := sr.bestWithin(a, b, room, ceiling{bestRating, found}, func(d int64) (int, int64) {
				if d > aim {
					return 1, d - aim
				}
				return 1, aim - d
			}, aim)
			if ok {
				best, bestRating, found = o, r, true
			}
		}
	}
	return best, found
}

// ceiling is the rating an operation must beat, when set: the best found
// so far with other partners.
type ceiling struct {
	rating
	set bool
}

// bestWithin returns the best-rated operation between a and b passing a
// weight d with 0 < d <= room that beats bound, looking at the candidates
// nearest the two aims (for moves, and for swaps for each of a's
// partitions); classify gives a candidate's class and miss. Candidates
// whose cost alone loses to bound (or to a move already found) are not
// looked at: the least cost a move or a swap can have is known from one
// pass over the two lists, and cost is what ratings compare first.
func (sr *search) bestWithin(a, b int32, room int64, bound ceiling, classify func(d int64) (int, int64), aims ...int64) (op, rating, bool) {
	pl := sr.pl
	if room <= 0 || !sr.lists(a, b) {
		return op{}, rating{}, false
	}
	best, bestRating, found := op{}, bound.rating, bound.set
	improved := false
	offer := func(x, y int32) {
		d := pl.weight[x]
		if y >= 0 {
			d -= pl.weight[y]
		}
		if d <= 0 || d > room {
			return
		}
		cost, moved := sr.costOf(x, y, a, b)
		class, miss := classify(d)
		r := rating{cost, class, moved, miss}
		if found && r.compare(bestRating) >= 0 {
			return
		}
		if o := (op{a, b, x, y, d}); sr.safe(o) {
			best, bestRating, found, improved = o, r, true, true
		}
	}
	minX, minY := sr.leastCosts(a, b)
	w := sr.window()
	xs, ys := sr.xs, sr.ys
	for _, aim := range aims {
		if sr.canMove(a, b) && (!found || minX <= bestRating.cost) {
			i := sr.firstAtMost(xs, aim)
			for k := max(0, i-w); k < min(len(xs), i+w); k++ {
				offer(xs[k], -1)
			}
		}
		j := 0
		for _, x := range xs {
			if found && minX+minY > bestRating.cost {
				break // no swap can cost as little
			}
			wx := pl.weight[x]
			if wx == 0 {
				break
			}
			for j < len(ys) && pl.weight[ys[j]] > wx-aim {
				j++
			}
			for k := max(0, j-w); k < min(len(ys), j+w); k++ {
				offer(x, ys[k])
			}
		}
		sr.offerFree(a, b, aim, w, minX, minY, offer)
	}
	return best, bestRating, improved
}

// costOf returns the cost in moves of passing x from a to b and, for a
// swap (y >= 0), y from b to a, and the weight it takes off owners.
func (sr *search) costOf(x, y, a, b int32) (int, int64) {
	s, pl := sr.s, sr.pl
	cost, moved := s.moveCost(x, a, b), int64(0)
	if cost > 0 {
		moved += pl.weight[x]
	}
	if y >= 0 {
		c := s.moveCost(y, b, a)
		if c > 0 {
			moved += pl.weight[y]
		}
		cost += c
	}
	return cost, moved
}

// leastCosts returns the least cost of passing one of xs from a to b and
// of passing one of ys from b to a (0 and 0 without owners).
func (sr *search) leastCosts(a, b int32) (minX, minY int) {
	s := sr.s
	if s.owner == nil {
		return 0, 0
	}
	minX, minY = 1, 1
	for _, x := range sr.xs {
		if minX = min(minX, s.moveCost(x, a, b)); minX < 0 {
			break
		}
	}
	for _, y := range sr.ys {
		if minY = min(minY, s.moveCost(y, b, a)); minY < 0 {
			break
		}
	}
	return minX, minY
}

// offerFree offers the operations around aim that pass a free partition
// (one not with its owner, which moves at no cost) either way: a free x
// alone or with the ys nearest w(x) − aim, and a free y with the xs nearest
// w(y) + aim. The windows around the aim alone may miss them. minX and
// minY are the least costs (see leastCosts): a side with none free is
// skipped.
func (sr *search) offerFree(a, b int32, aim int64, w, minX, minY int, offer func(x, y int32)) {
	pl, s := sr.pl, sr.s
	xs, ys := sr.xs, sr.ys
	if s.owner == nil {
		return
	}
	for _, x := range xs {
		if minX > 0 {
			break
		}
		if s.moveCost(x, a, b) > 0 {
			continue
		}
		if sr.canMove(a, b) {
			offer(x, -1)
		}
		j := sr.firstAtMost(ys, pl.weight[x]-aim)
		for k := max(0, j-w); k < min(len(ys), j+w); k++ {
			offer(x, ys[k])
		}
	}
	for _, y := range ys {
		if minY > 0 {
			break
		}
		if s.moveCost(y, b, a) > 0 {
			continue
		}
		i := sr.firstAtMost(xs, pl.weight[y]+aim)
		for k := max(0, i-w); k < min(len(xs), i+w); k++ {
			offer(xs[k], y)
		}
	}
}

// free reports whether passing x from a to b and, for a swap, y from b to
// a takes no partition off its owner.
func (sr *search) free(x, y, a, b int32) bool {
	owner := sr.s.owner
	return owner == nil || owner[x] != a && (y < 0 || owner[y] != b)
}
