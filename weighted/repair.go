package weighted

import (
	"cmp"
	"slices"
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

	slots  []int32 // per slot, partitions held; built when a chain is first needed
	chains *chains
	mark   []int32 // per set: stamp of the member whose sets are marked
	stamp  int32
	cands  []int32
}

// repairCounts runs the repairer on pl; see repairer.
func (s *solver) repairCounts(pl *plan, goal []int64) {
	r := &repairer{s: s, pl: pl, goal: goal, mark: make([]int32, len(s.sets.members))}
	for m := range int32(s.members) {
		for pl.count[m] < s.minCount[m] {
			if !r.fill(m) && !r.chainTo(m) {
				break // unreachable: the bounds are feasible
			}
		}
	}
	for m := range int32(s.members) {
		for pl.count[m] > s.maxCount[m] {
			if !r.shed(m) && !r.chainFrom(m) {
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

// fill gives member d (below its minimum) a partition from the heaviest
// member that can spare one of d's topics.
func (r *repairer) fill(d int32) bool {
	s, pl := r.s, r.pl
	stamp := r.markSets(d)
	r.cands = r.cands[:0]
	for _, set := range s.sets.setsOf(d) {
		for _, u := range s.sets.members[set] {
			if u != d && pl.count[u] > s.minCount[u] {
				r.cands = append(r.cands, u)
			}
		}
	}
	slices.Sort(r.cands)
	r.cands = slices.Compact(r.cands)
	slices.SortFunc(r.cands, func(u, v int32) int {
		return cmp.Or(
			-cmp.Compare(pl.count[u]-s.maxCount[u], pl.count[v]-s.maxCount[v]),
			-cmp.Compare(pl.load[u], pl.load[v]),
			cmp.Compare(u, v))
	})
	for _, u := range r.cands {
		if p := r.choose(u, d, stamp); p >= 0 {
			r.transfer(p, d)
			return true
		}
	}
	return false
}

// shed gives a partition of member u (above its maximum) to the
// least-loaded subscriber with room.
func (r *repairer) shed(u int32) bool {
	s, pl := r.s, r.pl
	r.cands = r.cands[:0]
	for _, set := range s.sets.setsOf(u) {
		for _, v := range s.sets.members[set] {
			if v != u && pl.count[v] < s.maxCount[v] {
				r.cands = append(r.cands, v)
			}
		}
	}
	slices.Sort(r.cands)
	r.cands = slices.Compact(r.cands)
	slices.SortFunc(r.cands, func(v, w int32) int {
		return cmp.Or(
			cmp.Compare(pl.count[v]-s.minCount[v], pl.count[w]-s.minCount[w]),
			cmp.Compare(pl.load[v], pl.load[w]),
			cmp.Compare(v, w))
	})
	for _, v := range r.cands {
		stamp := r.markSets(v)
		if p := r.choose(u, v, stamp); p >= 0 {
			r.transfer(p, v)
			return true
		}
	}
	return false
}

// choose returns the partition of member from, in a set stamped stamp,
// to pass to member to: the fewest moves first (see moveCost), then the
// weight nearest aim(from, to), then placement order; -1 if none.
func (r *repairer) choose(from, to, stamp int32) int32 {
	s := r.s
	target := r.aim(from, to)
	best, bestCost, bestGap := int32(-1), 0, int64(0)
	for _, p := range r.pl.held[from] {
		if r.mark[s.partSet[p]] != stamp {
			continue
		}
		c := s.moveCost(p, from, to)
		g := s.weight[p] - target
		if g < 0 {
			g = -g
		}
		if best < 0 || c < bestCost || (c == bestCost && g < bestGap) {
			best, bestCost, bestGap = p, c, g
		}
	}
	return best
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
		ss, set := r.s.sets, r.s.partSet[p]
		r.slots[ss.slot(set, r.pl.holder[p])]--
		r.slots[ss.slot(set, to)]++
	}
	r.pl.move(p, to)
}

// useChains builds the slot counts and the chain walker.
func (r *repairer) useChains() {
	if r.slots != nil {
		return
	}
	ss := r.s.sets
	r.slots = make([]int32, ss.slotFrom[len(ss.members)])
	for p, m := range r.pl.holder {
		if m >= 0 {
			r.slots[ss.slot(r.s.partSet[p], m)]++
		}
	}
	r.chains = newChains(ss, r.slots, r.s.members)
}

// lightest returns the partition of set held by member from to pass on a
// chain to member to: the fewest moves, then the lightest.
func (r *repairer) lightest(from, to, set int32) int32 {
	best, bestCost := int32(-1), 0
	list := r.pl.held[from]
	for i := len(list) - 1; i >= 0; i-- {
		p := list[i]
		if r.s.partSet[p] != set {
			continue
		}
		if c := r.s.moveCost(p, from, to); best < 0 || c < bestCost {
			best, bestCost = p, c
		}
	}
	return best
}

// chainFrom passes one partition from member u (above its maximum) along a
// chain to a member with room.
func (r *repairer) chainFrom(u int32) bool {
	r.useChains()
	s, x := r.s, r.chains
	x.reset()
	x.start(u)
	v := x.forward(nil, func(m int32) bool { return r.pl.count[m] < s.maxCount[m] })
	if v < 0 {
		return false
	}
	for ; x.parent[v] >= 0; v = x.parent[v] {
		r.transfer(r.lightest(x.parent[v], v, x.parentSet[v]), v)
	}
	return true
}

// chainTo passes one partition along a chain to member d (below its
// minimum) from a member that can spare one.
func (r *repairer) chainTo(d int32) bool {
	r.useChains()
	s, x := r.s, r.chains
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
				if x.seen[u] || r.slots[from+int32(i)] == 0 {
					continue
				}
				x.seen[u] = true
				x.parent[u], x.parentSet[u] = w, set
				if r.pl.count[u] > s.minCount[u] {
					for ; u != d; u = x.parent[u] {
						r.transfer(r.lightest(u, x.parent[u], x.parentSet[u]), x.parent[u])
					}
					return true
				}
				x.queue = append(x.queue, u)
			}
		}
	}
	return false
}
