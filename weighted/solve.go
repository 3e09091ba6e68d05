package weighted

import (
	"cmp"
	"math"
	"slices"
)

// solve computes the plan for g under cfg: holder[p] is the member partition
// p goes to, or -1 exactly when nobody subscribes to its topic. The slice is
// the caller's. It fails only on an invalid cfg or g (errors wrap errInput
// for g), and never panics. Deterministic: the same input gives the same
// plan on any machine (integer arithmetic only). See the package
// documentation for the objective, the algorithm and its cost.
func solve(g group, cfg config) ([]int32, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if err := g.validate(); err != nil {
		return nil, err
	}
	return newSolver(&g, cfg).run(), nil
}

// solver holds one solve's normalised input and the tables derived from it.
type solver struct {
	cfg     config
	members int
	active  int     // members in some subscriber set
	weight  []int64 // per partition
	owner   []int32 // per partition: valid owner (a subscriber) or -1; nil when none
	claimed []bool  // per partition: some member claims it; nil when none is
	partSet []int32 // per partition: its topic's subscriber set, or -1
	sets    *subscriberSets
	uniform bool // one subscriber set: every partition may go to every active member
	racks   *racks

	low                []int32 // per member: count-balanced low
	minCount, maxCount []int32 // per member: the count constraint

	all      batch // the subscribed partitions in placement order
	weighted int   // how many of them are weighted (they come first)
	total    int64 // their weight
	// lowerBound is below every valid plan's heaviest load (see
	// heaviestBound); floor holds it and more bounds.
	lowerBound int64
	floor      lowBound

	// The plan from scratch and its score, once computed (see fresh).
	freshPlan  *plan
	freshScore score
}

func newSolver(g *group, cfg config) *solver {
	s := &solver{cfg: cfg, members: g.members, weight: g.weight}
	s.sets = newSubscriberSets(g.members, g.subscribers, g.topic)
	s.uniform = s.sets.numSets() == 1
	s.partSet = make([]int32, len(g.topic))
	for p, t := range g.topic {
		s.partSet[p] = s.sets.topicSet[t]
	}
	for m := range g.members {
		if s.sets.active(int32(m)) {
			s.active++
		}
	}
	s.normaliseOwners(g.owner)
	s.countLimits()
	s.racks = newRacks(g)
	s.placementOrder()
	for _, w := range s.all.weights[:s.weighted] {
		s.total += w
	}
	s.lowerBound = s.heaviestBound()
	s.floor = s.bounds()
	return s
}

// normaliseOwners keeps the owners that subscribe to their partition's
// topic (s.owner, nil when none is left) and notes which partitions are
// claimed (s.claimed, nil when none is): those the cooperative protocol
// withholds for a round when the plan moves them.
func (s *solver) normaliseOwners(owner []int32) {
	if owner == nil {
		return
	}
	out := make([]int32, len(owner))
	s.claimed = make([]bool, len(owner))
	owned := false
	for p, o := range owner {
		out[p] = -1
		if o == -1 || s.partSet[p] < 0 {
			continue
		}
		s.claimed[p] = true
		if o >= 0 && (s.uniform || s.sets.subscribed(o, s.partSet[p])) {
			out[p] = o
			owned = true
		}
	}
	if owned {
		s.owner = out
	}
}

// countLimits computes the count-balanced band and the count constraint:
// [lo − skew, hi + skew], but at least 1 where lo is (a member the
// count-balanced plans give partitions to gets some, so a member holding
// none is one that joined).
func (s *solver) countLimits() {
	low, high := countBands(s.sets)
	s.low = low
	s.minCount = make([]int32, s.members)
	s.maxCount = make([]int32, s.members)
	for m := range s.members {
		if !s.sets.active(int32(m)) {
			continue
		}
		s.minCount[m] = max(min(1, low[m]), low[m]-s.cfg.countTolerance)
		s.maxCount[m] = high[m] + s.cfg.countTolerance
	}
}

// moveCost is what passing partition p from member from to member to
// costs in moves: 1 if it leaves its owner, -1 if it returns to it.
func (s *solver) moveCost(p, from, to int32) int {
	if s.owner == nil {
		return 0
	}
	switch s.owner[p] {
	case from:
		return 1
	case to:
		return -1
	}
	return 0
}

// budget is the work a search may do, in partitions scanned: linear in
// the group's size, and enough for small groups to reach a local optimum.
func (s *solver) budget() int64 {
	return 4*int64(len(s.weight)) + 256*int64(s.active) + 1<<16
}

// sweepBudget is the part of a descent's budget its sweeps may use.
func (s *solver) sweepBudget() int64 {
	return int64(len(s.weight)) + 256*int64(s.active) + 1<<16
}

// tolerance is the band within which heaviest loads around best count as
// equal: bandPPM of it.
func (s *solver) tolerance(best int64) int64 {
	return ppm(best, s.cfg.bandPPM)
}

// squaresCap is the largest sum of squared loads that counts as equal to
// q: q plus bandPPM of it. (Relative to q, so that moves and racks
// decide between plans whose balance differs by less than the band; a
// member that joins still gets its share, from the count repair, which
// aims its partitions at the goal load.)
func (s *solver) squaresCap(q wide) wide {
	return q.add(q.ppm(s.cfg.bandPPM))
}

// withMargin is best plus the hysteresis margin.
func (s *solver) withMargin(best int64) int64 {
	return best + ppm(best, s.cfg.marginPPM)
}

// followUps is the most times run checks a plan's follow-up round, and
// chase the most withheld partitions going back to their revokers for which
// it checks another plan.
const (
	followUps = 4
	chase     = 8
)

// run solves, so that the group settles in two rounds under the
// cooperative protocol (KIP-429): a plan that moves a claimed partition
// makes the protocol withhold it for a round, and the follow-up round
// solves again from what the members kept, with the withheld partitions
// unowned. The answer is a plan whose follow-up round (as runOnce computes
// it from those owners) moves nothing the members kept and gives no
// withheld partition back to the member that revoked it.
//
// The follow-up round's input is known in advance (the same members,
// subscriptions and weights; the owners are the plan less what it
// withholds), and the solver is deterministic, so run computes that
// round's plan itself: if it does not pass, it becomes the answer and is
// checked in turn, at most followUps times. The plan from scratch does not
// depend on the owners and is computed once for all of them. Usually the
// first check passes: the follow-up places the withheld partitions
// elsewhere than the plan, but never back.
//
// Two cases stop the checks early with the first plan checked whose
// follow-up keeps what the members kept (so that the group still settles in
// two rounds): two plans trading a partition back and forth (about 1 in
// 10,000 random events), and a plan that withholds most of the group (a
// switch from another assignor's plan), where the follow-up's placement
// gives about one withheld partition in M back to its revoker whatever the
// plan, so that more than chase of them go back and another check would
// not do better.
func (s *solver) run() []int32 {
	answer := s.runOnce()
	if s.claimed == nil {
		return answer.holder
	}
	first := s.owner
	defer func() { s.owner = first }()
	var fallback []int32
	for range followUps {
		holder := answer.holder
		s.owner = first
		next, withheld := s.followUpOwners(holder, first)
		if withheld == 0 {
			return holder // nothing withheld: no follow-up round
		}
		if 2*withheld >= len(s.all.parts) && withheld > chase*s.active { // mostlyFree
			// The follow-up places at least half the partitions around
			// what the members kept, which stays put (see runOnce), and
			// gives about withheld/active back to their revokers whatever
			// the plan: more than a check would chase.
			return holder
		}
		s.owner = nonEmpty(next)
		again := answer
		if s.owner != nil {
			again = s.solveFrom(s.keepFrom(answer, next))
		} else {
			again, _ = s.fresh()
		}
		keeps, returns := followUpMoves(again.holder, next, holder, first)
		if keeps && returns == 0 {
			return holder
		}
		if keeps && fallback == nil {
			fallback = holder
		}
		if keeps && returns > chase {
			break
		}
		answer = again
	}
	if fallback != nil {
		return fallback
	}
	return answer.holder
}

// mostlyFree reports whether the partitions pool leaves to place are at
// least half of all, and more than chase per active member: then what the
// owners kept stays put unless counts force a move (see run).
func (s *solver) mostlyFree(pool batch) bool {
	n := len(pool.parts)
	return 2*n >= len(s.all.parts) && n > chase*s.active
}

// followUpMoves reports whether the follow-up round's plan again, from the
// owners next that holder leaves (first being this round's valid owners),
// keeps everything the owners kept, and how many withheld partitions it
// gives back to the member that revoked them.
func followUpMoves(again, next, holder, first []int32) (keeps bool, returns int) {
	keeps = true
	for p, o := range next {
		switch {
		case o >= 0 && again[p] != o:
			keeps = false
		case o < 0 && holder[p] >= 0 && first != nil && first[p] >= 0 && again[p] == first[p]:
			returns++
		}
	}
	return keeps, returns
}

// followUpOwners returns the owners of the cooperative follow-up round of
// holder, given the valid owners first of this round: each partition
// holder gives to a member stays with it, unless it is claimed and holder
// moves it from its valid owner (or it has none: contested), when the
// protocol withholds it and nobody owns it. withheld counts those; next is
// nil when there are none.
func (s *solver) followUpOwners(holder, first []int32) (next []int32, withheld int) {
	for p, m := range holder {
		if m < 0 || !s.claimed[p] || (first != nil && first[p] == m) {
			continue
		}
		if next == nil {
			next = slices.Clone(holder)
		}
		next[p] = -1
		withheld++
	}
	return next, withheld
}

// nonEmpty returns owner, or nil when it has no owner at all.
func nonEmpty(owner []int32) []int32 {
	if slices.ContainsFunc(owner, func(o int32) bool { return o >= 0 }) {
		return owner
	}
	return nil
}

// runOnce solves from the owners in s.owner. Without owners, it returns the plan from scratch (fresh).
// With owners it starts from their plan (keep), places what nobody owns
// and repairs the counts (moves the group's change forces), and computes
// the plan from scratch only when a lower bound cannot settle the
// question:
//
//   - Hysteresis: unless a member joined (it holds nothing), the result is
//     the answer when its heaviest load is within the margin of the lower
//     bound, or else of the best the search reaches from scratch: nothing
//     else moves. With the same members and subscriptions (a complete
//     owners' plan) that means nothing moves at all; after a member leaves,
//     or in the follow-up round of a cooperative rebalance, only what nobody
//     owns is placed.
//   - Otherwise the plan is settled: partitions move, fewest first, until
//     the heaviest load and the squares are within the band of a target.
//     The target is first the lower bounds (a plan within the band of them
//     is within the band of the optimum) and, if that fails, with its moves
//     undone, the loads of the plan from scratch. The settled plan is the
//     answer unless the plan from scratch beats it by more than the band
//     and, after a join, its heaviest load is also more than the margin
//     above the best: once the newcomer has its share, the hysteresis
//     applies as it does to unchanged members (a plan from scratch can
//     differ from the owners' in most partitions for a balance a few
//     percent better).
//     A settle stops when its pace shows it cannot reach its target within
//     its budget, and the second one does not start when the first one's
//     pace, from the same plan, could not clear its excess.
func (s *solver) runOnce() *plan {
	if s.owner == nil {
		fresh, _ := s.fresh()
		return fresh
	}
	return s.solveFrom(s.keep())
}

// solveFrom is runOnce from the owners' plan keep (see solver.keep for
// pool, complete and empty); keep is the caller's, and may be the answer.
func (s *solver) solveFrom(keep *plan, pool batch, complete bool, empty []int32) *plan {
	low := s.floor
	joined := false
	if !complete {
		s.place(keep, pool, s.tolerance(low.max))
		joined = s.joined(keep, empty)
		s.repairCounts(keep, low.goal)
	}
	if !joined && keep.maxLoad() <= s.withMargin(low.max) {
		return keep
	}
	var fresh *plan
	var best score
	var prior rate
	if !joined {
		fresh, best = s.fresh()
		if keep.maxLoad() > s.withMargin(best.max) {
			// Pass what nobody owned (placed above) around, moving nothing
			// an owner holds, toward the margin.
			sr := s.newSearch(keep, s.budget())
			sr.freeOnly = true
			if !sr.settleBoth(s.withMargin(best.max), s.squaresCap(best.squares), fresh.load) {
				sr.budget = s.budget()
				sr.rackSafe = false
				sr.descend()
			}
		}
		if keep.maxLoad() <= s.withMargin(best.max) || s.mostlyFree(pool) {
			return keep
		}
	} else {
		sr := s.newSearch(keep, s.budget())
		sr.log = true
		if sr.settleBoth(low.max+s.tolerance(low.max), s.squaresCap(low.squares), low.goal) {
			return keep
		}
		sr.undo()
		prior = sr.behind
		fresh, best = s.fresh()
	}
	sr := s.newSearch(keep, s.budget())
	sr.prior = prior
	sr.settleBoth(best.max+s.tolerance(best.max), s.squaresCap(best.squares), fresh.load)
	if s.compare(s.score(keep), s.score(fresh), s.tolerance(best.max)) <= 0 {
		return keep
	}
	if joined && keep.maxLoad() <= s.withMargin(best.max) {
		// The joiner has its share and the settled plan is within the
		// margin of the best: hysteresis, as for unchanged members.
		return keep
	}
	return fresh
}

// fresh returns the plan found from scratch (owners ignored) and the score
// of the best loads the search reached, which may belong to a plan that
// lost rack-local partitions to get them. It is computed once per solve;
// the plan must not be modified.
func (s *solver) fresh() (*plan, score) {
	if s.freshPlan == nil {
		owner := s.owner
		s.owner = nil
		s.freshPlan, s.freshScore = s.fromScratch()
		s.owner = owner
	}
	return s.freshPlan, s.freshScore
}

// fromScratch computes fresh's answer, with s.owner nil.
func (s *solver) fromScratch() (*plan, score) {
	pl := newPlan(s.weight, s.members, s.maxCount)
	s.place(pl, s.all, s.tolerance(s.lowerBound))
	s.repairCounts(pl, nil)
	sr := s.newSearch(pl, s.budget())
	sr.rackSafe = s.racks != nil
	sr.descend()
	if s.racks == nil {
		sc := s.score(pl)
		return pl, sc
	}
	safe, safeScore := pl.clone(), s.score(pl)
	sr.rackSafe = false
	sr.budget = s.budget()
	sr.descend()
	free := s.score(pl)
	if s.compare(safeScore, free, s.tolerance(free.max)) <= 0 {
		return safe, free
	}
	return pl, free
}

// heaviestBound returns a lower bound on the heaviest load of every plan
// within the count limits: the larger of ⌈total/active⌉ and the heaviest
// partition plus the c−1 lightest, c being the least minimum count of an
// active member (whoever holds the heaviest partition holds c−1 more).
func (s *solver) heaviestBound() int64 {
	if s.active == 0 || s.weighted == 0 {
		return 0
	}
	least := int32(math.MaxInt32)
	for m := range s.members {
		if s.sets.active(int32(m)) {
			least = min(least, s.minCount[m])
		}
	}
	holder := s.all.weights[0]
	n := len(s.all.weights)
	for i := n - 1; i >= max(1, n-int(least)+1); i-- {
		holder += s.all.weights[i]
	}
	return max(holder, (s.total+int64(s.active)-1)/int64(s.active))
}

// lowBound holds lower bounds over every valid plan (counts and
// subscriptions ignored, so they bound the constrained optimum too) and
// the loads the squares bound assumes.
type lowBound struct {
	max     int64   // the heaviest load: s.lowerBound
	squares wide    // the sum of squared loads
	goal    []int64 // per member: the level the lighter members share
}

// bounds computes the lower bounds. For the squares: let the k heaviest
// partitions each sit alone and spread the rest of the weight evenly, as a
// fluid, over the other members, k being the fewest for which partition
// k+1 is no heavier than that level T. Every plan's sorted loads majorize
// (H1, …, Hk, T, …, T), so its sum of squares is at least theirs. O(k).
func (s *solver) bounds() lowBound {
	low := lowBound{max: s.lowerBound, goal: make([]int64, s.members)}
	rest, k := s.total, 0
	for k < s.weighted && k < s.active && s.all.weights[k] > rest/int64(s.active-k) {
		low.squares = low.squares.add(square(s.all.weights[k]))
		rest -= s.all.weights[k]
		k++
	}
	if n := int64(s.active - k); n > 0 {
		low.squares = low.squares.add(square(rest).quo(n))
		for m := range low.goal {
			low.goal[m] = rest / n
		}
	}
	return low
}

// joined reports whether a member that held nothing in the owners' plan
// (empty) is still below its minimum count once what nobody owns is
// placed: a member joined, and only partitions that others own can give it
// its share. A member that what nobody owns brings to its minimum has not:
// in the follow-up round of a cooperative rebalance the member that joined
// holds nothing yet (everything it gets was withheld from its owners), and
// settling it again from scratch would move more and withhold again.
func (s *solver) joined(pl *plan, empty []int32) bool {
	for _, m := range empty {
		if pl.count[m] < s.minCount[m] {
			return true
		}
	}
	return false
}

// keep returns the owners' plan: each partition with its valid owner, less
// the lightest partitions of owners above their maximum; pool holds the
// partitions it leaves unheld, in placement order. complete reports that
// nothing was left or shed and every member is within its count limits:
// the group is the one the owners' plan was made for. empty lists the
// members that hold nothing though their minimum is at least one (a plan
// of this solver gives such a member a partition, so it joined since, or
// everything it was given is still withheld; see joined).
func (s *solver) keep() (pl *plan, pool batch, complete bool, empty []int32) {
	pl = newPlan(s.weight, s.members, s.maxCount)
	owners := gather(s.all.parts, s.owner)
	unowned := 0
	for i, p := range s.all.parts {
		if o := owners[i]; o >= 0 {
			pl.addWeighted(p, o, s.all.weights[i])
		} else {
			unowned++
		}
	}
	complete = unowned == 0
	shed := false
	for m := range int32(s.members) {
		for pl.count[m] > s.maxCount[m] {
			pl.remove(pl.held[m][pl.count[m]-1])
			shed = true
		}
		if pl.count[m] < s.minCount[m] {
			complete = false
			if pl.count[m] == 0 {
				empty = append(empty, m)
			}
		}
	}
	pool = s.newBatch(unowned)
	for i, p := range s.all.parts {
		if owners[i] < 0 || (shed && pl.holder[p] < 0) {
			pool.push(s, p, s.all.weights[i])
		}
	}
	return pl, pool, complete && !shed, empty
}

// keepFrom returns what keep returns for the owners next, each partition
// with next[p] >= 0 held by next[p] in prev (a plan within the count
// limits, as every plan the solver answers): prev less the partitions next
// leaves unowned, built from a copy of prev rather than from scratch.
func (s *solver) keepFrom(prev *plan, next []int32) (pl *plan, pool batch, complete bool, empty []int32) {
	pl = prev.clone()
	unowned := 0
	for _, p := range s.all.parts {
		if next[p] < 0 {
			pl.remove(p)
			unowned++
		}
	}
	pool = s.newBatch(unowned)
	for i, p := range s.all.parts {
		if next[p] < 0 {
			pool.push(s, p, s.all.weights[i])
		}
	}
	complete = unowned == 0
	for m := range int32(s.members) {
		if pl.count[m] < s.minCount[m] {
			complete = false
			if pl.count[m] == 0 {
				empty = append(empty, m)
			}
		}
	}
	return pl, pool, complete, empty
}

// score is what the objective compares, in order.
type score struct {
	max     int64 // the heaviest load
	squares wide  // the sum of squared loads
	local   int   // rack-local partitions
	moves   int   // partitions off their valid owner
	moved   int64 // their weight
}

func (s *solver) score(pl *plan) score {
	sc := score{max: pl.maxLoad(), squares: pl.squares()}
	for p, m := range pl.holder {
		if m < 0 {
			continue
		}
		if s.racks != nil && s.racks.local(int32(p), m) {
			sc.local++
		}
		if s.owner != nil && s.owner[p] >= 0 && s.owner[p] != m {
			sc.moves++
			sc.moved += s.weight[p]
		}
	}
	return sc
}

// compare orders two scores by the objective: -1 when a is better or as
// good, 1 when b is better. Heaviest loads within tol count as equal, and
// sums of squares within squaresCap; then more rack-local partitions,
// fewer moves and less weight moved win; a full tie goes to a.
func (s *solver) compare(a, b score, tol int64) int {
	switch {
	case a.max > b.max+tol:
		return 1
	case b.max > a.max+tol:
		return -1
	}
	switch {
	case s.squaresCap(b.squares).less(a.squares):
		return 1
	case s.squaresCap(a.squares).less(b.squares):
		return -1
	}
	if c := cmp.Or(-cmp.Compare(a.local, b.local), cmp.Compare(a.moves, b.moves), cmp.Compare(a.moved, b.moved)); c != 0 {
		return c
	}
	return -1
}
