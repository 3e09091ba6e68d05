package weighted

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
	r.slots = make([]int32, ss.slotFrom[len(ss.members)])
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
	r.chains = newChains(ss, r.slots, r.s.members)
	r.freeChains = newChains(ss, r.freeSlots, r.s.members)
}

// free reports whether partition p may leave member m at no cost in
// moves (m is not its owner).
func (r *repairer) free(p, m int32) bool {
	return r.s.owner == nil || r.s.owner[p] != m
}

// walker returns the chain walker over all partitions, or free ones.
func (r *repairer) walker(freeOnly bool) *chains {
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
	x.reset()
	x.start(u)
	v := x.forward(nil, func(m int32) bool { return r.pl.count[m] < s.maxCount[m] })
	if v < 0 {
		return false
	}
	for ; x.parent[v] >= 0; v = x.parent[v] {
		r.transfer(r.lightest(x.parent[v], v, x.parentSet[v], freeOnly), v)
	}
	return true
}

// chainTo passes one partition along a chain to member d (below its
// minimum) from a member that can spare one; only free partitions if
// freeOnly.
func (r *repairer) chainTo(d int32, freeOnly bool) bool {
	s, x := r.s, r.walker(freeOnly)
	x.reset()
	x.start(d)
	// Backward search; parent[u] is the member u passes to.
	for head := 0; head < len(x.queue); head++ {
		w := x.queue[head]
		for _, set := range s.sets.setsOf(w) {
			if x.setSeen[set] {
				continue
			}
			x.setSeen[set] = true
			from := s.sets.slotFrom[set]
			for i, u := range s.sets.members[set] {
				if x.seen[u] || x.held[from+int32(i)] == 0 {
					continue
				}
				x.seen[u] = true
				x.parent[u], x.parentSet[u] = w, set
				if r.pl.count[u] > s.minCount[u] {
					for ; u != d; u = x.parent[u] {
						r.transfer(r.lightest(u, x.parent[u], x.parentSet[u], freeOnly), x.parent[u])
					}
					return true
				}
				x.queue = append(x.queue, u)
			}
		}
	}
	return false
}
