package sticky

import "slices"

// expand turns class-level flows into concrete partitions in pr.assign.
//
// Keeping: an owner that keeps only part of a class keeps the partitions
// aimed closest to it, that is with the smallest (distance from the
// partition's target position to the owner's position, partition), so what
// it keeps is spread over topics the way a fresh plan would spread it.
//
// Giving: each hub's pool (released and unowned partitions) is dealt by
// [distribute], which is consistent under restriction: dealing any subset of
// a pool with the counts it got the first time gives every partition of the
// subset to the same member. That, with the stable quotas, is what makes the
// plan stable for the cooperative follow-up round.
func (pr *problem) expand(f *flows) {
	ix := pr.ix
	P := len(pr.partClass)
	pr.assign = make([]int32, P)
	// partial[c] numbers the classes whose owner keeps some but not all.
	partial := make([]int32, len(pr.classHub))
	var partialFrom []int32
	var ownerPos []int32
	for c, size := range pr.classSize {
		partial[c] = -1
		if o := pr.classOwner[c]; o >= 0 && f.keep[c] > 0 && f.keep[c] < size {
			partial[c] = int32(len(partialFrom))
			partialFrom = append(partialFrom, size)
			set := pr.sets[pr.hubSet[pr.classHub[c]]]
			i, _ := slices.BinarySearch(set, o)
			ownerPos = append(ownerPos, int32(i))
		}
	}
	// Prefix sums: partialFrom[j] becomes the start of class j's keys.
	var total int32
	for j, n := range partialFrom {
		partialFrom[j] = total
		total += n
	}
	keys := make([]uint64, total)
	if total > 0 {
		fill := make([]int32, len(partialFrom))
		for t := range ix.Topics {
			s := pr.topicSet[t]
			lo, hi := ix.TopicStart[t], ix.TopicStart[t+1]
			for p := lo; p < hi; p++ {
				c := pr.partClass[p]
				pr.assign[p] = -1
				if c < 0 || partial[c] < 0 {
					continue
				}
				j := partial[c]
				k := int32(len(pr.sets[s]))
				d := (ownerPos[j] - pr.target(int32(t), p) + k) % k
				keys[partialFrom[j]+fill[j]] = uint64(d)<<32 | uint64(p)
				fill[j]++
			}
		}
		for c, j := range partial {
			if j < 0 {
				continue
			}
			ks := keys[partialFrom[j] : partialFrom[j]+fill[j]]
			slices.Sort(ks)
			o := pr.classOwner[c]
			for _, key := range ks[:f.keep[c]] {
				pr.assign[uint32(key)] = o
			}
		}
	}
	pr.deal(f, partial, total > 0)
}

// deal gives every class that its owner keeps whole to the owner, and hands
// out every hub's pool (the subscribed partitions still unassigned) with a
// [dealer]. The first round of the dealer (every partition to its target if
// that member has room) runs in the same sweep, in flat order; only the
// partitions it leaves are collected, by hub, for the rest of the deal.
//
// With kept set, pr.assign already holds -1 or the owner for every
// partition; otherwise deal writes every entry.
func (pr *problem) deal(f *flows, partial []int32, kept bool) {
	ix := pr.ix
	var left []leftover
	for t := range ix.Topics {
		s := pr.topicSet[t]
		lo, hi := ix.TopicStart[t], ix.TopicStart[t+1]
		if s < 0 {
			for p := lo; p < hi; p++ {
				pr.assign[p] = -1
			}
			continue
		}
		set := pr.sets[s]
		k := int32(len(set))
		at := (pr.topicOffset[t]) % k // target of lo; advances with p
		for p := lo; p < hi; p, at = p+1, at+1 {
			if at == k {
				at = 0
			}
			c := pr.partClass[p]
			if kept && pr.assign[p] >= 0 {
				continue
			}
			if o := pr.classOwner[c]; o >= 0 && partial[c] < 0 && f.keep[c] > 0 {
				pr.assign[p] = o // the owner keeps the whole class
				continue
			}
			h := pr.classHub[c]
			if g := f.hubOff[h] + at; f.give[g] > 0 {
				f.give[g]--
				pr.assign[p] = set[at]
				continue
			}
			left = append(left, leftover{hub: h, partition: p, target: at})
		}
	}
	if len(left) == 0 {
		return
	}
	slices.SortStableFunc(left, func(a, b leftover) int { return int(a.hub) - int(b.hub) })
	var d dealer
	for i := 0; i < len(left); {
		h := left[i].hub
		j := i
		for j < len(left) && left[j].hub == h {
			j++
		}
		set := pr.sets[pr.hubSet[h]]
		d.deal(left[i:j], f.give[f.hubOff[h]:f.hubOff[h+1]], set, pr.assign)
		i = j
	}
}

// leftover is a partition the dealer's first round could not place.
type leftover struct {
	hub, partition, target int32
}

// dealer gives a pool of partitions to the positions of a subscriber set,
// capacity[i] to position i, in the one order that depends on neither
// ownership nor the input's order: the pairs (partition, position) by
// increasing (distance from the partition's target to the position, going
// round the set; partition), each taken when both are still free. That is
// the greedy matching for a score both sides agree on, so it is the unique
// stable matching, and restricting it to a subset of the pool with the
// counts it gave yields the same pairs: the property the follow-up round of
// a cooperative rebalance needs.
//
// Worked example: set [M0 M1 M2], capacities [1 0 2], pool p0..p2 aimed at
// M0, M0, M1. Distance 0: p0 → M0; p1 finds M0 full, p2 finds M1 empty of
// capacity. Then p1 at distance 2 reaches M2, and p2 at distance 1 reaches
// M2, in the order (1, p2), (2, p1): M0: p0, M2: p1 p2.
//
// Cost: O(n) when every partition gets its target, otherwise
// O(n + m log m) for the m that do not, with a union-find skipping full
// positions.
type dealer struct {
	next []int32
	heap []uint64
}

func (d *dealer) deal(pool []leftover, capacity, set, assign []int32) {
	k := int32(len(set))
	var left int32
	for _, c := range capacity {
		left += c
	}
	if left == 0 {
		return // the solver gave the pool fewer slots than partitions: a bug
	}
	if cap(d.next) < int(k) {
		d.next = make([]int32, k)
	}
	next := d.next[:k]
	for i := range next {
		next[i] = int32(i)
		if capacity[i] == 0 {
			next[i] = (int32(i) + 1) % k
		}
	}
	find := func(x int32) int32 {
		r := x
		for next[r] != r {
			r = next[r]
		}
		for next[x] != r {
			next[x], x = r, next[x]
		}
		return r
	}
	h := d.heap[:0]
	for i, it := range pool {
		dist := (find(it.target) - it.target + k) % k
		h = heapPush(h, uint64(dist)<<32|uint64(i))
	}
	for len(h) > 0 {
		var top uint64
		h, top = heapPop(h)
		dist, i := int32(top>>32), int32(uint32(top))
		t := pool[i].target
		at := (t + dist) % k
		if capacity[at] > 0 {
			capacity[at]--
			assign[pool[i].partition] = set[at]
			if capacity[at] == 0 {
				next[at] = (at + 1) % k
			}
			if left--; left == 0 {
				break
			}
			continue
		}
		dist = (find(at) - t + k) % k
		h = heapPush(h, uint64(dist)<<32|uint64(i))
	}
	d.heap = h
}

func heapPush(h []uint64, x uint64) []uint64 {
	h = append(h, x)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h[p] <= h[i] {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	return h
}

func heapPop(h []uint64) ([]uint64, uint64) {
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r] < h[l] {
			m = r
		}
		if h[i] <= h[m] {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return h, top
}
