package weighted

import "slices"

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
