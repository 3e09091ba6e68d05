package weighted

import "cmp"

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
	partSet []int32 // per partition: its topic's subscriber set, or -1
	sets    *subscriberSets
	uniform bool // one subscriber set: every partition may go to every active member
	racks   *racks

	low                []int32 // per member: count-balanced low
	minCount, maxCount []int32 // per member: the count constraint

	order       []int32 // placement order of the subscribed partitions
	orderWeight []int64 // their weights
	weighted    int     // how many of order are weighted (come first)
	lowerBound  int64   // max(⌈total/active⌉, heaviest partition)
}

func newSolver(g *group, cfg config) *solver {
	s := &solver{cfg: cfg, members: g.members, weight: g.weight}
	s.sets = newSubscriberSets(g.members, g.subscribers, g.topic)
	s.uniform = len(s.sets.members) == 1
	s.partSet = make([]int32, len(g.topic))
	for p, t := range g.topic {
		s.partSet[p] = s.sets.topicSet[t]
	}
	for m := range g.members {
		if s.sets.memberFrom[m+1] > s.sets.memberFrom[m] {
			s.active++
		}
	}
	s.normaliseOwners(g.owner)
	s.countLimits()
	s.racks = newRacks(g)
	s.placementOrder()
	var total, heaviest int64
	for _, w := range s.orderWeight[:s.weighted] {
		total += w
		heaviest = max(heaviest, w)
	}
	if s.active > 0 {
		s.lowerBound = max(heaviest, (total+int64(s.active)-1)/int64(s.active))
	}
	return s
}

// normaliseOwners keeps the owners that subscribe to their partition's
// topic; s.owner stays nil when none is left.
func (s *solver) normaliseOwners(owner []int32) {
	if owner == nil {
		return
	}
	out := make([]int32, len(owner))
	owned := false
	for p, o := range owner {
		out[p] = -1
		if o < 0 || s.partSet[p] < 0 {
			continue
		}
		if s.uniform || s.sets.subscribed(o, s.partSet[p]) {
			out[p] = o
			owned = true
		}
	}
	if owned {
		s.owner = out
	}
}

// countLimits computes the count-balanced band and the count constraint.
func (s *solver) countLimits() {
	low, high := countBands(s.sets, s.members)
	s.low = low
	s.minCount = make([]int32, s.members)
	s.maxCount = make([]int32, s.members)
	for m := range s.members {
		if s.sets.memberFrom[m+1] == s.sets.memberFrom[m] {
			continue
		}
		s.minCount[m] = max(0, low[m]-s.cfg.countSkew)
		s.maxCount[m] = high[m] + s.cfg.countSkew
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
// the group's size.
func (s *solver) budget() int64 {
	return 32*int64(len(s.weight)) + 1024*int64(s.active) + 1<<16
}

// tolerance is the load band around the best heaviest load best.
func (s *solver) tolerance(best int64) int64 {
	return permille(best, s.cfg.bandPermille)
}

// run solves: from scratch, then, with owners, from the owners' plan (see
// the package documentation, Hysteresis and Stickiness).
func (s *solver) run() []int32 {
	fresh, best := s.fresh()
	if s.owner == nil {
		return fresh.holder
	}
	keep, pool, poolWeight, complete := s.keep()
	if complete && keep.maxLoad() <= best.max+permille(best.max, s.cfg.marginPermille) {
		return keep.holder
	}
	tol := s.tolerance(best.max)
	s.place(keep, pool, poolWeight, tol)
	s.repairCounts(keep, fresh.load)
	squaresCap := best.squares.add(square(tol).times(int64(s.active)))
	sr := s.newSearch(keep, s.budget())
	sr.rackSafe = s.racks != nil
	if !sr.settle(best.max+tol, squaresCap, fresh.load) && sr.rackSafe {
		sr.rackSafe = false
		sr.settle(best.max+tol, squaresCap, fresh.load)
	}
	if s.compare(s.score(keep), s.score(fresh), tol) <= 0 {
		return keep.holder
	}
	return fresh.holder
}

// fresh returns the plan found from scratch (owners ignored) and the score
// of the best loads the search reached, which may belong to a plan that
// lost rack-local partitions to get them.
func (s *solver) fresh() (*plan, score) {
	pl := newPlan(s.weight, s.members, s.maxCount)
	s.place(pl, s.order, s.orderWeight, s.tolerance(s.lowerBound))
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

// keep returns the owners' plan: each partition with its valid owner, less
// the lightest partitions of owners above their maximum; pool holds the
// partitions it leaves unheld, in placement order. complete reports that
// nothing was left or shed and every member is within its count limits,
// none holding nothing where the count-balanced plan gives it something
// (a member that joined): the group is the one the owners' plan was made
// for.
func (s *solver) keep() (pl *plan, pool []int32, poolWeight []int64, complete bool) {
	pl = newPlan(s.weight, s.members, s.maxCount)
	for i, p := range s.order {
		if o := s.owner[p]; o >= 0 {
			pl.addWeighted(p, o, s.orderWeight[i])
		}
	}
	complete = true
	for m := range int32(s.members) {
		for pl.count[m] > s.maxCount[m] {
			pl.remove(pl.held[m][pl.count[m]-1])
			complete = false
		}
		if pl.count[m] < s.minCount[m] || (pl.count[m] == 0 && s.low[m] > 0) {
			complete = false
		}
	}
	for i, p := range s.order {
		if pl.holder[p] < 0 {
			pool = append(pool, p)
			poolWeight = append(poolWeight, s.orderWeight[i])
		}
	}
	return pl, pool, poolWeight, complete && len(pool) == 0
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
// sums of squares within active·tol² (root mean square loads within about
// tol); then more rack-local partitions, fewer moves and less weight moved
// win; a full tie goes to a.
func (s *solver) compare(a, b score, tol int64) int {
	switch {
	case a.max > b.max+tol:
		return 1
	case b.max > a.max+tol:
		return -1
	}
	slack := square(tol).times(int64(s.active))
	switch {
	case b.squares.add(slack).less(a.squares):
		return 1
	case a.squares.add(slack).less(b.squares):
		return -1
	}
	if c := cmp.Or(-cmp.Compare(a.local, b.local), cmp.Compare(a.moves, b.moves), cmp.Compare(a.moved, b.moved)); c != 0 {
		return c
	}
	return -1
}
