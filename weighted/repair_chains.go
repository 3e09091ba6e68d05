package weighted

import "github.com/kgroup/assignor/internal/balance"

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
