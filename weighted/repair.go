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
