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
	fill := make([]int32, len(partialFrom))
	for t := range ix.Topics {
		s := pr.topicSet[t]
		lo, hi := ix.TopicStart[t], ix.TopicStart[t+1]
		for p := lo; p < hi; p++ {
			c := pr.partClass[p]
			pr.assign[p] = -1
			if c < 0 {
				continue
			}
			o := pr.classOwner[c]
			if o < 0 || f.keep[c] == 0 {
				continue
			}
			j := partial[c]
			if j < 0 {
				pr.assign[p] = o
				continue
			}
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
	pr.deal(f)
}

// deal hands out every hub's pool: the subscribed partitions still
// unassigned, in flat order.
func (pr *problem) deal(f *flows) {
	ix := pr.ix
	H := len(pr.hubSet)
	from := make([]int32, H+1)
	for p, c := range pr.partClass {
		if c >= 0 && pr.assign[p] < 0 {
			from[pr.classHub[c]+1]++
		}
	}
	for h := range H {
		from[h+1] += from[h]
	}
	pool := make([]int32, from[H])
	targets := make([]int32, from[H])
	fill := slices.Clone(from[:H])
	for t := range ix.Topics {
		lo, hi := ix.TopicStart[t], ix.TopicStart[t+1]
		for p := lo; p < hi; p++ {
			c := pr.partClass[p]
			if c < 0 || pr.assign[p] >= 0 {
				continue
			}
			h := pr.classHub[c]
			pool[fill[h]] = p
			targets[fill[h]] = pr.target(int32(t), p)
			fill[h]++
		}
	}
	var d dealer
	for h := range H {
		if from[h] == from[h+1] {
			continue
		}
		set := pr.sets[pr.hubSet[h]]
		capacity := f.give[f.hubOff[h]:f.hubOff[h+1]]
		d.deal(pool[from[h]:from[h+1]], targets[from[h]:from[h+1]], capacity, set, pr.assign)
	}
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

func (d *dealer) deal(pool, targets, capacity, set, assign []int32) {
	k := int32(len(set))
	rest := 0
	for i, p := range pool {
		t := targets[i]
		if capacity[t] > 0 {
			capacity[t]--
			assign[p] = set[t]
			continue
		}
		pool[rest], targets[rest] = p, t
		rest++
	}
	if rest == 0 {
		return
	}
	pool, targets = pool[:rest], targets[:rest]
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
	for i, t := range targets {
		dist := (find(t) - t + k) % k
		h = heapPush(h, uint64(dist)<<32|uint64(i))
	}
	for len(h) > 0 {
		var top uint64
		h, top = heapPop(h)
		dist, i := int32(top>>32), int32(uint32(top))
		t := targets[i]
		at := (t + dist) % k
		if capacity[at] > 0 {
			capacity[at]--
			assign[pool[i]] = set[at]
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
