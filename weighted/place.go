package weighted

import (
	"cmp"
	"slices"
)

// batch is a list of partitions in placement order with what placement
// reads of each alongside, so that it reads them in that order rather than
// by partition number (placement order is random against partition
// numbers, and a cache miss per partition costs more than the placing).
type batch struct {
	parts   []int32
	weights []int64
	sets    []int32 // subscriber sets; nil with one set
	racks   []int32 // replica rack sets; nil with racks out of play
}

// push appends partition p of weight w.
func (b *batch) push(s *solver, p int32, w int64) {
	b.parts = append(b.parts, p)
	b.weights = append(b.weights, w)
	if b.sets != nil {
		b.sets = append(b.sets, s.partSet[p])
	}
	if b.racks != nil {
		b.racks = append(b.racks, s.racks.partSet[p])
	}
}

// newBatch returns an empty batch with room for n partitions.
func (s *solver) newBatch(n int) batch {
	b := batch{parts: make([]int32, 0, n), weights: make([]int64, 0, n)}
	if !s.uniform {
		b.sets = make([]int32, 0, n)
	}
	if s.racks != nil {
		b.racks = make([]int32, 0, n)
	}
	return b
}

// placementOrder sets s.all to the partitions of subscribed topics in
// placement order: weighted ones by weight descending, then idle ones, each
// by partition number ascending. It is the order of the held lists, so a
// plan built by walking it appends at the end of every list. O(P) by radix
// sort when every weight is below 2^32, O(P log P) otherwise.
func (s *solver) placementOrder() {
	order := make([]int32, 0, len(s.weight))
	var top int64
	for p, w := range s.weight {
		if w > 0 && s.partSet[p] >= 0 {
			order = append(order, int32(p))
			top = max(top, w)
		}
	}
	s.weighted = len(order)
	weights := make([]int64, s.weighted, cap(order))
	if top < 1<<32 {
		radixByWeight(order, weights, s.weight)
	} else {
		slices.SortFunc(order, func(p, q int32) int {
			return cmp.Or(cmp.Compare(s.weight[q], s.weight[p]), cmp.Compare(p, q))
		})
		for i, p := range order {
			weights[i] = s.weight[p]
		}
	}
	for p, w := range s.weight {
		if w == 0 && s.partSet[p] >= 0 {
			order = append(order, int32(p))
		}
	}
	s.all = batch{parts: order, weights: weights[:len(order)]}
	if !s.uniform {
		s.all.sets = gather(order, s.partSet)
	}
	if s.racks != nil {
		s.all.racks = gather(order, s.racks.partSet)
	}
}

// gather returns values[i] for each i of index, in one tight loop (whose
// independent loads the processor overlaps).
func gather(index, values []int32) []int32 {
	out := make([]int32, len(index))
	for i, p := range index {
		out[i] = values[p]
	}
	return out
}

// radixDigit is the radix sort's digit width in bits: three passes for
// 32-bit weights.
const radixDigit = 11

// radixByWeight sorts parts, ascending, by weight (below 2^32) descending,
// and fills weights alongside: an LSD radix sort of the digits of ^weight
// that not all weights share. Stable, so equal weights stay in partition
// order. weights (as long as parts) serves as the sort's second buffer.
func radixByWeight(parts []int32, weights, weight []int64) {
	const digits, mask = (32 + radixDigit - 1) / radixDigit, 1<<radixDigit - 1
	keys := make([]int64, len(parts))
	var counts [digits][1<<radixDigit + 1]int
	for i, p := range parts {
		k := uint64(^uint32(weight[p]))<<32 | uint64(uint32(p))
		keys[i] = int64(k)
		for d := range digits {
			counts[d][k>>(32+d*radixDigit)&mask+1]++
		}
	}
	buf := weights[:len(parts)]
	for d := range digits {
		shift, count := uint(32+d*radixDigit), &counts[d]
		if slices.Contains(count[:], len(parts)) {
			continue // every key has the same digit
		}
		for i := 1; i < len(count); i++ {
			count[i] += count[i-1]
		}
		for _, k := range keys {
			digit := uint64(k) >> shift & mask
			buf[count[digit]] = k
			count[digit]++
		}
		keys, buf = buf, keys
	}
	for i, k := range keys {
		parts[i] = int32(uint32(k))
		weights[i] = int64(^uint32(uint64(k) >> 32))
	}
}

// place gives each partition of pool (unheld, in placement order) a
// member: weighted partitions by the
// longest-processing-time rule, each to the least-loaded subscriber with
// room, idle ones to the subscriber with the fewest partitions against its
// count-balanced low. When racks are in play a partition goes to the
// least-loaded subscriber in one of its replicas' racks instead if that
// one's load is within slack of the least loaded (its count, for idle
// partitions, if that does not leave a member below its minimum). A
// partition whose subscribers are all full goes to the least loaded anyway,
// and repairCounts then fixes the counts.
//
// With one subscriber set, the lightest partitions are kept for the members
// below their minimum count (those that took a heavy partition early and
// were never the least loaded again): once the partitions left are no more
// than the counts those members lack, each goes to the least loaded of
// them. Example: weights 90 9 8 7 3 2 over two members with minimum 3: A
// takes 90, B takes 9 8 7, and 3 and 2 (the last two) go to A: loads 95
// and 24, where plain LPT followed by a repair would give A 90 and the
// lightest of B's.
//
// O(N log M) for N partitions in the pool.
func (s *solver) place(pl *plan, pool batch, slack int64) {
	split, _ := slices.BinarySearchFunc(pool.weights, 0, func(w int64, _ int) int {
		if w > 0 {
			return -1
		}
		return 1
	})
	h := s.newTrees(pl, nil)
	var short *shortfall
	if s.uniform {
		short = s.newShortfall(pl)
	}
	left := len(pool.parts)
	var dirty []int32
	for i, p := range pool.parts[:split] {
		var m int32
		if short != nil && left <= short.lacking {
			m = short.take()
		} else {
			m = s.pick(h, pool, i, slack)
		}
		if short != nil && pl.count[m] < s.minCount[m] {
			short.lacking--
		}
		if pl.addUnsorted(p, m, pool.weights[i]) {
			dirty = append(dirty, m)
		}
		left--
	}
	h = s.newTrees(pl, s.low)
	for i := split; i < len(pool.parts); i++ {
		m := s.pick(h, pool, i, 0)
		if pl.addUnsorted(pool.parts[i], m, 0) {
			dirty = append(dirty, m)
		}
	}
	pl.resort(dirty)
}

// pick chooses the member for entry i of pool from the trees; see place.
func (s *solver) pick(h *memberTrees, pool batch, i int, slack int64) int32 {
	set := int32(0)
	if pool.sets != nil {
		set = pool.sets[i]
	}
	g := h.top(int(set))
	if g < 0 {
		return s.leastKey(h, set)
	}
	if pool.racks == nil || pool.racks[i] < 0 {
		return g
	}
	local := int32(-1)
	from, to := h.rackTrees(set)
	for j := from; j < to; j++ {
		if !s.racks.inSet(pool.racks[i], h.rackOf[j]) {
			continue
		}
		m := h.top(s.sets.numSets() + int(j))
		if m >= 0 && (local < 0 || (heapEntry{key: h.key(m), member: m}).less(heapEntry{key: h.key(local), member: local})) {
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
func (s *solver) leastKey(h *memberTrees, set int32) int32 {
	best := int32(-1)
	for _, m := range s.sets.Members[set] {
		if best < 0 || (heapEntry{key: h.key(m), member: m}).less(heapEntry{key: h.key(best), member: best}) {
			best = m
		}
	}
	return best
}

// shortfall keeps the members below their minimum count, with one
// subscriber set; see place.
type shortfall struct {
	s       *solver
	pl      *plan
	lacking int         // partitions the members below their minimum lack
	heap    []heapEntry // those members by load, built at the first take
	built   bool
}

func (s *solver) newShortfall(pl *plan) *shortfall {
	short := &shortfall{s: s, pl: pl}
	for m, c := range pl.count {
		short.lacking += int(max(0, s.minCount[m]-c))
	}
	return short
}

// take returns the least-loaded member below its minimum (there is one
// while lacking > 0).
func (short *shortfall) take() int32 {
	pl, s := short.pl, short.s
	if !short.built {
		for m, c := range pl.count {
			if c < s.minCount[m] {
				short.heap = append(short.heap, heapEntry{key: pl.load[m], member: int32(m)})
			}
		}
		short.heap = heapify(short.heap)
		short.built = true
	}
	for {
		top := &short.heap[0]
		m := top.member
		switch {
		case pl.count[m] >= s.minCount[m]:
			short.heap = popTop(short.heap)
		case top.key != pl.load[m]:
			top.key = pl.load[m]
			siftDown(short.heap, 0)
		default:
			return m
		}
	}
}
