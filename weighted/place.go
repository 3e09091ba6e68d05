package weighted

import (
	"cmp"
	"slices"
)

// placementOrder returns the partitions of subscribed topics in placement
// order: weighted ones by weight descending, then idle ones, each by
// partition number ascending. It is the order of the held lists, so a plan
// built by walking it appends at the end of every list. O(P) by radix sort
// when every weight is below 2^32, O(P log P) otherwise.
func (s *solver) placementOrder() []int32 {
	order := make([]int32, 0, len(s.weight))
	var top int64
	for p, w := range s.weight {
		if w > 0 && s.partSet[p] >= 0 {
			order = append(order, int32(p))
			top = max(top, w)
		}
	}
	weighted := len(order)
	if top < 1<<32 {
		radixByWeight(order, s.weight)
	} else {
		slices.SortFunc(order, func(p, q int32) int {
			return cmp.Or(cmp.Compare(s.weight[q], s.weight[p]), cmp.Compare(p, q))
		})
	}
	for p, w := range s.weight {
		if w == 0 && s.partSet[p] >= 0 {
			order = append(order, int32(p))
		}
	}
	s.weighted = weighted
	return order
}

// radixByWeight sorts parts (weights below 2^32) by weight descending, then
// partition ascending: an LSD radix sort of 8-bit digits of the key
// (^weight)<<32 | partition, skipping the digits all keys share.
func radixByWeight(parts []int32, weight []int64) {
	keys := make([]uint64, len(parts))
	var and, or uint64 = ^uint64(0), 0
	for i, p := range parts {
		k := uint64(^uint32(weight[p]))<<32 | uint64(uint32(p))
		keys[i] = k
		and &= k
		or |= k
	}
	buf := make([]uint64, len(parts))
	for shift := uint(0); shift < 64; shift += 8 {
		if (and^or)>>shift&0xff == 0 {
			continue
		}
		var counts [257]int
		for _, k := range keys {
			counts[k>>shift&0xff+1]++
		}
		for d := 1; d < 257; d++ {
			counts[d] += counts[d-1]
		}
		for _, k := range keys {
			d := k >> shift & 0xff
			buf[counts[d]] = k
			counts[d]++
		}
		keys, buf = buf, keys
	}
	for i, k := range keys {
		parts[i] = int32(uint32(k))
	}
}

// place gives each partition of pool (unheld, in placement order) a
// member: weighted partitions by the longest-processing-time rule, each to
// the least-loaded subscriber with room, idle ones to the subscriber with
// the fewest partitions against its count-balanced low. When racks are in
// play a partition goes to the least-loaded subscriber in one of its
// replicas' racks instead if that one's load is within slack of the least
// loaded (its count, for idle partitions, if that does not leave a member
// below its minimum). A partition whose subscribers are all full goes to
// the least loaded anyway, and repairCounts then fixes the counts.
// O(N log M) for N partitions in the pool.
func (s *solver) place(pl *plan, pool []int32, slack int64) {
	split := slices.IndexFunc(pool, func(p int32) bool { return s.weight[p] == 0 })
	if split < 0 {
		split = len(pool)
	}
	h := s.newHeaps(pl, nil)
	for _, p := range pool[:split] {
		pl.add(p, s.pick(h, p, slack))
	}
	h = s.newHeaps(pl, s.low)
	for _, p := range pool[split:] {
		pl.add(p, s.pick(h, p, 0))
	}
}

// pick chooses the member for partition p from the heaps; see place.
func (s *solver) pick(h *memberHeaps, p int32, slack int64) int32 {
	set := s.partSet[p]
	g := h.top(int(set))
	if g < 0 {
		return s.leastKey(h, set)
	}
	if s.racks == nil || s.racks.partSet[p] < 0 {
		return g
	}
	local := int32(-1)
	from, to := h.rackHeaps(set)
	for j := from; j < to; j++ {
		if !s.racks.has(p, h.rackOf[j]) {
			continue
		}
		m := h.top(len(s.sets.members) + int(j))
		if m >= 0 && (local < 0 || (heapEntry{h.key(m), m}).less(heapEntry{h.key(local), local})) {
			local = m
		}
	}
	switch {
	case local < 0:
		return g
	case h.base != nil:
		if h.pl.count[g] >= s.minCount[g] || h.pl.count[local] < s.minCount[local] {
			return local
		}
		return g
	case h.key(local) <= h.key(g)+slack:
		return local
	}
	return g
}

// leastKey returns the member of set with the least key, full or not.
func (s *solver) leastKey(h *memberHeaps, set int32) int32 {
	best := int32(-1)
	for _, m := range s.sets.members[set] {
		if best < 0 || (heapEntry{h.key(m), m}).less(heapEntry{h.key(best), best}) {
			best = m
		}
	}
	return best
}
