package weighted

import (
	"cmp"
	"slices"
)

// The count constraint. A count-balanced plan is one whose partition counts
// minimise the sum of squared counts over all valid plans, as in package
// sticky: with identical subscriptions every member has ⌊N/k⌋ or ⌈N/k⌉;
// with different subscriptions no chain of subscribers can pass a partition
// from a member to one with two fewer. The count vectors of those plans
// form a narrow band: member m has lo_m or, in some of them, hi_m ∈
// {lo_m, lo_m + 1}. A weighted plan may give m any count in
// [lo_m − skew, hi_m + skew] (at least 0).

// countBands returns each member's lowest and highest count over the
// count-balanced plans (0 and 0 for a member in no set).
//
// It deals each set, smallest first, by water-filling (the members with
// the fewest partitions first), then repairs: while an unsettled member at
// the highest unsettled count c can pass a partition along a chain of
// subscribers to a member at c−2 or less, it does (as many as keep the two
// ordered, along every such chain one search finds); when none can, every
// member reachable from those at c is settled. With no improving chain left the vector is optimal; the band is
// then found by asking, for each pair of neighbouring counts v+1 and v,
// who at v+1 can pass a partition to someone at v (the two can trade places
// at no cost) and who at v can receive one. O(S·V) for S distinct sets and
// V the slots, in the worst case; linear in practice.
func countBands(ss *subscriberSets, members int) (lo, hi []int32) {
	count := make([]int32, members)
	held := make([]int32, ss.slotFrom[len(ss.members)])
	order := make([]int32, len(ss.members))
	for s := range order {
		order[s] = int32(s)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(len(ss.members[a]), len(ss.members[b])) })
	var scratch []int32
	for _, s := range order {
		set := ss.members[s]
		scratch = waterFill(ss.size[s], set, count, held[ss.slotFrom[s]:ss.slotFrom[s+1]], scratch)
	}
	x := newChains(ss, held, members)
	x.repair(count)
	return x.bands(count)
}

// waterFill deals n partitions over the members of set (out is their
// slots), raising the lowest counts first; ties go to the first members.
func waterFill(n int32, set, count, out, scratch []int32) []int32 {
	scratch = scratch[:0]
	for _, m := range set {
		scratch = append(scratch, count[m])
	}
	slices.Sort(scratch)
	// The level: the largest with Σ max(0, level − count) <= n.
	level, left := scratch[0], n
	below := 1 // members at or below level
	for {
		for below < len(scratch) && scratch[below] <= level {
			below++
		}
		next := int32(1 << 30)
		if below < len(scratch) {
			next = scratch[below]
		}
		step := min(next-level, left/int32(below))
		level += step
		left -= step * int32(below)
		if below == len(scratch) || level < next {
			break
		}
	}
	for i, m := range set {
		if count[m] < level {
			out[i] += level - count[m]
			count[m] = level
		}
	}
	for i, m := range set {
		if left == 0 {
			break
		}
		if count[m] == level {
			out[i]++
			count[m]++
			left--
		}
	}
	return scratch
}

// chains walks the exchange graph of a holding: from a member to the sets
// it holds partitions of, to their members.
type chains struct {
	ss        *subscriberSets
	held      []int32 // per slot
	seen      []bool  // per member
	setSeen   []bool  // per set
	parent    []int32 // per member: who passes to it on the chain, -1 at the start
	parentSet []int32
	queue     []int32
}

func newChains(ss *subscriberSets, held []int32, members int) *chains {
	return &chains{
		ss: ss, held: held,
		seen: make([]bool, members), setSeen: make([]bool, len(ss.members)),
		parent: make([]int32, members), parentSet: make([]int32, members),
	}
}

func (x *chains) reset() {
	clear(x.seen)
	clear(x.setSeen)
	x.queue = x.queue[:0]
}

// start queues member m as a starting point.
func (x *chains) start(m int32) {
	x.seen[m] = true
	x.parent[m] = -1
	x.queue = append(x.queue, m)
}

// forward runs a breadth-first search from the queued members over members
// not blocked; it returns the first newly reached member stop accepts, or
// -1.
func (x *chains) forward(blocked []bool, stop func(m int32) bool) int32 {
	ss := x.ss
	for head := 0; head < len(x.queue); head++ {
		u := x.queue[head]
		for k := ss.memberFrom[u]; k < ss.memberFrom[u+1]; k++ {
			s := ss.memberSet[k]
			if x.setSeen[s] || x.held[ss.memberSlot[k]] == 0 {
				continue
			}
			x.setSeen[s] = true
			for _, v := range ss.members[s] {
				if x.seen[v] || (blocked != nil && blocked[v]) {
					continue
				}
				x.seen[v] = true
				x.parent[v], x.parentSet[v] = u, s
				if stop(v) {
					return v
				}
				x.queue = append(x.queue, v)
			}
		}
	}
	return -1
}

// backward runs a breadth-first search from the queued members against the
// exchange graph: it reaches every member that can pass a partition to one
// of them along a chain, and calls found on each.
func (x *chains) backward(found func(m int32)) {
	ss := x.ss
	for head := 0; head < len(x.queue); head++ {
		w := x.queue[head]
		for _, s := range ss.setsOf(w) {
			if x.setSeen[s] {
				continue
			}
			x.setSeen[s] = true
			from := ss.slotFrom[s]
			for i, u := range ss.members[s] {
				if x.seen[u] || x.held[from+int32(i)] == 0 {
					continue
				}
				x.seen[u] = true
				found(u)
				x.queue = append(x.queue, u)
			}
		}
	}
}

// slot returns the slot of member m in set s (m must belong to s).
func (ss *subscriberSets) slot(s, m int32) int32 {
	i, _ := slices.BinarySearch(ss.members[s], m)
	return ss.slotFrom[s] + int32(i)
}

// repair improves the water-filled counts to an optimal vector; see
// countBands.
func (x *chains) repair(count []int32) {
	x.preBalance(count)
	ss := x.ss
	members := len(count)
	settled := make([]bool, members)
	for m := range members {
		settled[m] = ss.memberFrom[m+1] == ss.memberFrom[m]
	}
	for {
		top := int32(-1)
		for m := range members {
			if !settled[m] {
				top = max(top, count[m])
			}
		}
		if top < 0 {
			return
		}
		x.reset()
		for m := range members {
			if !settled[m] && count[m] == top {
				x.start(int32(m))
			}
		}
		x.forward(settled, func(int32) bool { return false })
		if !x.pushAll(count, top) {
			for _, m := range x.queue {
				settled[m] = true
			}
		}
	}
}

// preBalance evens the counts out roughly before the exact repair, which
// lowers the top count by about one per search: each round searches from
// every member above the middle of the count range at once and passes
// partitions to every member below it that it reaches, halving the gaps,
// until a round passes nothing or the range is down to 2.
func (x *chains) preBalance(count []int32) {
	for {
		lo, hi := int32(1<<30), int32(-1)
		for m, c := range count {
			if x.ss.memberFrom[m+1] > x.ss.memberFrom[m] {
				lo, hi = min(lo, c), max(hi, c)
			}
		}
		if hi-lo <= 2 {
			return
		}
		middle := lo + (hi-lo)/2
		x.reset()
		for m, c := range count {
			if c > middle && x.ss.memberFrom[m+1] > x.ss.memberFrom[m] {
				x.start(int32(m))
			}
		}
		x.forward(nil, func(int32) bool { return false })
		if !x.pushAll(count, middle+1) {
			return
		}
	}
}

// pushAll passes partitions along the search tree forward built, from its
// roots (at count top or more) to every member it reached at top−2 or
// less, as many along each path as keep the two ends ordered and the
// path's holdings allow; it reports whether it passed any. One search thus
// serves every low member it reached, not just the first.
func (x *chains) pushAll(count []int32, top int32) bool {
	ss := x.ss
	pushed := false
	for _, v := range x.queue {
		if x.parent[v] < 0 || count[v] > top-2 {
			continue
		}
		src, amount := v, int32(1<<30)
		for u := v; x.parent[u] >= 0; u = x.parent[u] {
			amount = min(amount, x.held[ss.slot(x.parentSet[u], x.parent[u])])
			src = x.parent[u]
		}
		amount = min(amount, (count[src]-count[v])/2)
		if amount <= 0 {
			continue
		}
		for u := v; x.parent[u] >= 0; u = x.parent[u] {
			s := x.parentSet[u]
			x.held[ss.slot(s, x.parent[u])] -= amount
			x.held[ss.slot(s, u)] += amount
		}
		count[src] -= amount
		count[v] += amount
		pushed = true
	}
	return pushed
}

// bands returns each member's band of counts around the optimal vector
// count; see countBands.
func (x *chains) bands(count []int32) (lo, hi []int32) {
	lo, hi = slices.Clone(count), slices.Clone(count)
	values := slices.Compact(slices.Sorted(slices.Values(count)))
	for i := 1; i < len(values); i++ {
		v := values[i-1]
		if values[i] != v+1 {
			continue
		}
		x.reset()
		for m, c := range count {
			if c == v+1 {
				x.start(int32(m))
			}
		}
		x.forward(nil, func(m int32) bool {
			if count[m] == v {
				hi[m] = v + 1
			}
			return false
		})
		x.reset()
		for m, c := range count {
			if c == v {
				x.start(int32(m))
			}
		}
		x.backward(func(m int32) {
			if count[m] == v+1 {
				lo[m] = v
			}
		})
	}
	return lo, hi
}
