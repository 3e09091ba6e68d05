package weighted

import (
	"slices"

	"github.com/kgroup/assignor/internal/balance"
)

// repairer brings every member's count into [minCount, maxCount] after
// placement. A member below its minimum takes a partition from the
// heaviest member that can spare one and holds one of its topics; a member
// above its maximum gives one to the least-loaded subscriber with room.
// The partition is the one whose weight is nearest a target (see aim), the
// cheapest in moves first. When no direct pair exists, a chain of
// subscribers does it (each link passes one partition, so only the ends
// change count): some chain always exists, because the count-balanced plan
// satisfies every bound.
type repairer struct {
	s    *solver
	pl   *plan
	goal []int64 // nil, or per member the load to aim for

	costly   bool // settling from owners: moves count
	freeHeld int  // with costly: held partitions not with their owner

	// Per slot, partitions held and free ones (see free); built when a
	// chain is first needed, with their walkers.
	slots, freeSlots   []int32
	chains, freeChains *balance.Walk
	mark               []int32 // per set: stamp of the member whose sets are marked
	stamp              int32
	seen               []int32 // per member: stamp of the gather that took it
	seenStamp          int32
	heap               []heapEntry
}

// repairCounts runs the repairer on pl; see repairer. Settling from
// owners (goal set and owners known), each step first tries what costs no
// move (a free partition directly, then a chain of free ones), then a
// partition that leaves its owner.
func (s *solver) repairCounts(pl *plan, goal []int64) {
	r := &repairer{s: s, pl: pl, goal: goal, costly: goal != nil && s.owner != nil,
		mark: make([]int32, s.sets.numSets()), seen: make([]int32, s.members)}
	if r.costly {
		for p, m := range pl.holder {
			if m >= 0 && s.owner[p] != m {
				r.freeHeld++
			}
		}
	}
	for m := range int32(s.members) {
		for pl.count[m] < s.minCount[m] {
			if r.costly && (r.fill(m, 0) || (r.freeHeld > 0 && r.chainTo(m, true))) {
				continue
			}
			if !r.fill(m, 1) && !r.relay(m) && !r.chainTo(m, false) {
				break // unreachable: the bounds are feasible
			}
		}
	}
	for m := range int32(s.members) {
		for pl.count[m] > s.maxCount[m] {
			if r.costly && (r.shed(m, 0) || (r.freeHeld > 0 && r.chainFrom(m, true))) {
				continue
			}
			if !r.shed(m, 1) && !r.chainFrom(m, false) {
				break // unreachable, as above
			}
		}
	}
}

// markSets stamps the sets of member m and returns the stamp.
func (r *repairer) markSets(m int32) int32 {
	r.stamp++
	for _, set := range r.s.sets.setsOf(m) {
		r.mark[set] = r.stamp
	}
	return r.stamp
}

// lightestFor returns member u's lightest partition in a set stamped stamp,
// the later in held order on a tie, or -1.
func (r *repairer) lightestFor(u, stamp int32) int32 {
	list := r.pl.held[u]
	for i := len(list) - 1; i >= 0; i-- {
		if r.mark[r.s.partSet[list[i]]] == stamp {
			return list[i]
		}
	}
	return -1
}

// gather returns a heap, ranked by rank, of the members other than m sharing
// a set with m that ok accepts, each once.
func (r *repairer) gather(m int32, ok func(int32) bool, rank func(int32) heapEntry) []heapEntry {
	s := r.s
	r.heap = r.heap[:0]
	r.seenStamp++
	r.seen[m] = r.seenStamp
	for _, set := range s.sets.setsOf(m) {
		for _, u := range s.sets.Members[set] {
			if r.seen[u] != r.seenStamp && ok(u) {
				r.seen[u] = r.seenStamp
				r.heap = append(r.heap, rank(u))
			}
		}
	}
	return heapify(r.heap)
}

// choose returns the partition of member from, in a set stamped stamp,
// to pass to member to: the fewest moves first (see moveCost), then the
// weight nearest aim(from, to), then the earlier in held order; -1 if none.
// Without owners it searches outwards from the aim, else it scans the list.
func (r *repairer) choose(from, to, stamp int32) int32 {
	s, list := r.s, r.pl.held[from]
	target := r.aim(from, to)
	eligible := func(i int) bool { return r.mark[s.partSet[list[i]]] == stamp }
	distance := func(i int) int64 {
		if g := s.weight[list[i]] - target; g > 0 {
			return g
		} else {
			return -g
		}
	}
	if s.owner == nil {
		i, _ := slices.BinarySearchFunc(list, target, func(p int32, w int64) int {
			if s.weight[p] > w {
				return -1
			}
			return 1
		})
		above, below := i-1, i
		for above >= 0 && !eligible(above) {
			above--
		}
		for below < len(list) && !eligible(below) {
			below++
		}
		switch {
		case above >= 0 && (below == len(list) || distance(above) <= distance(below)):
			return list[above]
		case below < len(list):
			return list[below]
		}
		return -1
	}
	best, bestCost, bestDistance := -1, 0, int64(0)
	for i, p := range list {
		if !eligible(i) {
			continue
		}
		c, g := s.moveCost(p, from, to), distance(i)
		if best < 0 || c < bestCost || (c == bestCost && g < bestDistance) {
			best, bestCost, bestDistance = i, c, g
		}
	}
	if best < 0 {
		return -1
	}
	return list[best]
}

// aim is the weight member to should get from member from: half their
// difference, but no more than its share of what it lacks to reach its
// goal over the partitions it still needs; with no goal, 0 (the lightest).
func (r *repairer) aim(from, to int32) int64 {
	if r.goal == nil {
		return 0
	}
	pl := r.pl
	need := max(1, int64(r.s.minCount[to]-pl.count[to]))
	return max(0, min((pl.load[from]-pl.load[to])/2, (r.goal[to]-pl.load[to])/need))
}

// transfer moves held partition p to member to, keeping the slot counts
// when they are in use.
func (r *repairer) transfer(p, to int32) {
	if r.slots != nil {
		ss, set, from := r.s.sets, r.s.partSet[p], r.pl.holder[p]
		k, l := ss.slot(set, from), ss.slot(set, to)
		r.slots[k]--
		r.slots[l]++
		if r.free(p, from) {
			r.freeSlots[k]--
		}
		if r.free(p, to) {
			r.freeSlots[l]++
		}
	}
	if r.costly {
		if r.free(p, r.pl.holder[p]) {
			r.freeHeld--
		}
		if r.free(p, to) {
			r.freeHeld++
		}
	}
	r.pl.move(p, to)
}

// Direct repairs: one partition between two members sharing a set.

// donor ranks member u as a donor for member d (whose sets are stamped
// stamp), least first: the fewest moves its cheapest partition d may take
// costs (see moveCost; only when settling from owners), then members above
// their maximum; then, without goals, the one whose lightest partition d
// may take is lightest (the members below their minimum after placement
// are those holding a heavy partition, so they should get the lightest
// partitions going), and with goals the heaviest donor. Tier noTier:
// nothing d may take.
func (r *repairer) donor(u, d, stamp int32) heapEntry {
	e := heapEntry{member: u, tier: 1}
	if r.pl.count[u] > r.s.maxCount[u] {
		e.tier = 0
	}
	if r.goal == nil {
		p := r.lightestFor(u, stamp)
		if p < 0 {
			return heapEntry{member: u, tier: noTier}
		}
		e.key = r.s.weight[p]
		return e
	}
	cost, ok := r.cheapest(u, d, stamp)
	if !ok {
		return heapEntry{member: u, tier: noTier}
	}
	e.tier += 2 * int32(cost+1)
	e.key = -r.pl.load[u]
	return e
}

// noTier ranks a member that has nothing to give.
const noTier = 6

// tierCost is the highest donor tier whose cheapest partition costs at
// most cost moves.
func tierCost(cost int) int32 { return 2*int32(cost+1) + 1 }

// cheapest returns the fewest moves a partition of member from in a set
// stamped stamp costs to pass to member to, and whether there is one.
func (r *repairer) cheapest(from, to, stamp int32) (int, bool) {
	cost := 2
	for _, p := range r.pl.held[from] {
		if r.mark[r.s.partSet[p]] == stamp {
			if cost = min(cost, r.s.moveCost(p, from, to)); cost < 0 {
				break
			}
		}
	}
	return cost, cost < 2
}

// receiver ranks member v as a receiver from member u, least first: the
// fewest moves u's cheapest partition v may take costs (when settling from
// owners), then members below their minimum, then the lightest.
func (r *repairer) receiver(u, v int32) heapEntry {
	e := heapEntry{key: r.pl.load[v], member: v, tier: 1}
	if r.pl.count[v] < r.s.minCount[v] {
		e.tier = 0
	}
	if r.costly {
		cost, ok := r.cheapest(u, v, r.markSets(v))
		if !ok {
			return heapEntry{member: v, tier: noTier}
		}
		e.tier += 2 * int32(cost+1)
	}
	return e
}

// fill passes member d (below its minimum) partitions from the
// best-ranked donors (see donor) that can spare one of d's topics and whose
// cheapest costs at most maxCost moves, until d reaches its minimum or no
// donor is left; it reports whether it passed any. A donor's rank only
// falls as it gives, so the heap re-ranks lazily.
func (r *repairer) fill(d int32, maxCost int) bool {
	s, pl := r.s, r.pl
	stamp := r.markSets(d)
	rank := func(u int32) heapEntry { return r.donor(u, d, stamp) }
	heap := r.gather(d, func(u int32) bool { return pl.count[u] > s.minCount[u] }, rank)
	passed := false
	for len(heap) > 0 && pl.count[d] < s.minCount[d] {
		u := heap[0].member
		if e := rank(u); pl.count[u] > s.minCount[u] && e != heap[0] {
			heap[0] = e
			siftDown(heap, 0)
			continue
		}
		p := int32(-1)
		switch {
		case pl.count[u] <= s.minCount[u] || heap[0].tier > tierCost(maxCost):
		case r.goal == nil:
			p = r.lightestFor(u, stamp)
		default:
			p = r.choose(u, d, stamp)
		}
		if p < 0 {
			heap = popTop(heap)
			continue
		}
		r.transfer(p, d)
		passed = true
	}
	return passed
}

// shed passes partitions of member u (above its maximum) to the
// best-ranked receivers (see receiver) with room, at most maxCost moves
// each, until u is down to its maximum or no receiver is left; it reports
// whether it passed any.
func (r *repairer) shed(u int32, maxCost int) bool {
	s, pl := r.s, r.pl
	rank := func(v int32) heapEntry { return r.receiver(u, v) }
	heap := r.gather(u, func(v int32) bool { return pl.count[v] < s.maxCount[v] }, rank)
	passed := false
	for len(heap) > 0 && pl.count[u] > s.maxCount[u] {
		v := heap[0].member
		if e := rank(v); pl.count[v] < s.maxCount[v] && e != heap[0] {
			heap[0] = e
			siftDown(heap, 0)
			continue
		}
		p := int32(-1)
		if pl.count[v] < s.maxCount[v] && heap[0].tier <= tierCost(maxCost) {
			p = r.choose(u, v, r.markSets(v))
		}
		if p < 0 {
			heap = popTop(heap)
			continue
		}
		r.transfer(p, v)
		passed = true
	}
	return passed
}

// relay passes member d (below its minimum) one partition through a
// member v that cannot spare one: v gives d its lightest partition d may
// take, and the member that can spare one gives v its lightest partition v
// may take. It tries the vs by that first partition, lightest first, so d
// gets the lightest it can through a chain of two (a breadth-first chain
// would take whatever the first member it reaches holds, maybe a heavy
// partition). It reports whether it passed one.
func (r *repairer) relay(d int32) bool {
	s, pl := r.s, r.pl
	stampD := r.markSets(d)
	rank := func(v int32) heapEntry {
		if p := r.lightestFor(v, stampD); p >= 0 {
			return heapEntry{key: s.weight[p], member: v}
		}
		return heapEntry{member: v, tier: 1}
	}
	heap := slices.Clone(r.gather(d, func(int32) bool { return true }, rank))
	for len(heap) > 0 && heap[0].tier == 0 {
		v := heap[0].member
		heap = popTop(heap)
		p := r.lightestFor(v, r.markSets(d))
		stamp := r.markSets(v)
		donor, refill := int32(-1), int32(-1)
		for _, set := range s.sets.setsOf(v) {
			for _, u := range s.sets.Members[set] {
				if u == d || u == v || pl.count[u] <= s.minCount[u] {
					continue
				}
				if q := r.lightestFor(u, stamp); q >= 0 && (refill < 0 || s.weight[q] < s.weight[refill]) {
					donor, refill = u, q
				}
			}
		}
		if donor >= 0 {
			r.transfer(p, d)
			r.transfer(refill, v)
			return true
		}
	}
	return false
}

// Chain repairs: a partition passed along a chain of members, each link
// between two members sharing a set, so that only the ends change count.
// When settling from owners, chains of free partitions (not with their
// owner, so passing them costs no move) are tried first.

// useChains builds the slot counts (all partitions, and free ones) and the
// chain walkers.
func (r *repairer) useChains() {
	if r.slots != nil {
		return
	}
	ss := r.s.sets
	r.slots = make([]int32, ss.SlotFrom[ss.numSets()])
	r.freeSlots = make([]int32, len(r.slots))
	for p, m := range r.pl.holder {
		if m >= 0 {
			k := ss.slot(r.s.partSet[p], m)
			r.slots[k]++
			if r.free(int32(p), m) {
				r.freeSlots[k]++
			}
		}
	}
	r.chains = balance.NewWalk(&ss.Graph, r.slots)
	r.freeChains = balance.NewWalk(&ss.Graph, r.freeSlots)
}

// free reports whether partition p may leave member m at no cost in
// moves (m is not its owner).
func (r *repairer) free(p, m int32) bool {
	return r.s.owner == nil || r.s.owner[p] != m
}

// walker returns the chain walker over all partitions, or free ones.
func (r *repairer) walker(freeOnly bool) *balance.Walk {
	r.useChains()
	if freeOnly {
		return r.freeChains
	}
	return r.chains
}

// lightest returns the partition of set held by member from to pass on a
// chain to member to: the fewest moves, then the lightest; only free ones
// if freeOnly.
func (r *repairer) lightest(from, to, set int32, freeOnly bool) int32 {
	best, bestCost := int32(-1), 0
	list := r.pl.held[from]
	for i := len(list) - 1; i >= 0; i-- {
		p := list[i]
		if r.s.partSet[p] != set || (freeOnly && !r.free(p, from)) {
			continue
		}
		if c := r.s.moveCost(p, from, to); best < 0 || c < bestCost {
			best, bestCost = p, c
		}
	}
	return best
}

// chainFrom passes one partition from member u (above its maximum) along a
// chain to a member with room; only free partitions if freeOnly.
func (r *repairer) chainFrom(u int32, freeOnly bool) bool {
	s, x := r.s, r.walker(freeOnly)
	x.Reset()
	x.Start(u)
	v := x.Forward(nil, func(m int32) bool { return r.pl.count[m] < s.maxCount[m] })
	if v < 0 {
		return false
	}
	for ; x.Parent[v] >= 0; v = x.Parent[v] {
		r.transfer(r.lightest(x.Parent[v], v, x.ParentGroup[v], freeOnly), v)
	}
	return true
}

// chainTo passes one partition along a chain to member d (below its
// minimum) from a member that can spare one; only free partitions if
// freeOnly.
func (r *repairer) chainTo(d int32, freeOnly bool) bool {
	s, x := r.s, r.walker(freeOnly)
	x.Reset()
	x.Start(d)
	u := x.Backward(func(u int32) bool { return r.pl.count[u] > s.minCount[u] })
	if u < 0 {
		return false
	}
	for ; u != d; u = x.Parent[u] {
		r.transfer(r.lightest(u, x.Parent[u], x.ParentGroup[u], freeOnly), x.Parent[u])
	}
	return true
}
