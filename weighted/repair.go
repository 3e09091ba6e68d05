package weighted

import "slices"

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

	slots     []int32 // per slot, partitions held; built when a chain is first needed
	chains    *chains
	mark      []int32 // per set: stamp of the member whose sets are marked
	stamp     int32
	seen      []int32 // per member: stamp of the gather that took it
	seenStamp int32
	heap      []heapEntry
}

// repairCounts runs the repairer on pl; see repairer.
func (s *solver) repairCounts(pl *plan, goal []int64) {
	r := &repairer{s: s, pl: pl, goal: goal, mark: make([]int32, len(s.sets.members)), seen: make([]int32, s.members)}
	for m := range int32(s.members) {
		for pl.count[m] < s.minCount[m] {
			if !r.fill(m) && !r.relay(m) && !r.chainTo(m) {
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

// donorKey ranks donors for member d (whose sets are stamped stamp),
// least first: members above their maximum, then, without goals, the one
// whose lightest partition d may take is lightest (the members below their
// minimum after placement are those holding a heavy partition, so they
// should get the lightest partitions going), and with goals the heaviest
// donor. retired: nothing d may take.
func (r *repairer) donorKey(u, stamp int32) int64 {
	var key int64
	if r.goal == nil {
		p := r.lightestFor(u, stamp)
		if p < 0 {
			return retired
		}
		key = r.s.weight[p]
	} else {
		key = -r.pl.load[u]
	}
	if r.pl.count[u] > r.s.maxCount[u] {
		key -= 1 << 62
	}
	return key
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

// receiverKey ranks receivers, least first: members below their minimum,
// then the lightest.
func (r *repairer) receiverKey(v int32) int64 {
	key := r.pl.load[v]
	if r.pl.count[v] < r.s.minCount[v] {
		key -= 1 << 62
	}
	return key
}

// fill passes member d (below its minimum) partitions from the
// best-ranked donors (see donorKey) that can spare one of d's topics, until
// d reaches its minimum or no donor is left; it reports whether it passed
// any. A donor's key only grows as it gives, so the heap re-keys lazily.
func (r *repairer) fill(d int32) bool {
	s, pl := r.s, r.pl
	stamp := r.markSets(d)
	key := func(u int32) int64 { return r.donorKey(u, stamp) }
	heap := r.gather(d, func(u int32) bool { return pl.count[u] > s.minCount[u] }, key)
	passed := false
	for len(heap) > 0 && pl.count[d] < s.minCount[d] {
		u := heap[0].member
		if k := key(u); pl.count[u] > s.minCount[u] && k != heap[0].key {
			heap[0].key = k
			siftDown(heap, 0)
			continue
		}
		p := int32(-1)
		switch {
		case pl.count[u] <= s.minCount[u] || heap[0].key == retired:
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
// best-ranked receivers (see receiverKey) with room, until u is down to its
// maximum or no receiver is left; it reports whether it passed any.
func (r *repairer) shed(u int32) bool {
	s, pl := r.s, r.pl
	heap := r.gather(u, func(v int32) bool { return pl.count[v] < s.maxCount[v] }, r.receiverKey)
	passed := false
	for len(heap) > 0 && pl.count[u] > s.maxCount[u] {
		v := heap[0].member
		if key := r.receiverKey(v); pl.count[v] < s.maxCount[v] && key != heap[0].key {
			heap[0].key = key
			siftDown(heap, 0)
			continue
		}
		p := int32(-1)
		if pl.count[v] < s.maxCount[v] {
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

// gather returns a heap, keyed by key, of the members other than m sharing
// a set with m that ok accepts, each once.
func (r *repairer) gather(m int32, ok func(int32) bool, key func(int32) int64) []heapEntry {
	s := r.s
	r.heap = r.heap[:0]
	r.seenStamp++
	r.seen[m] = r.seenStamp
	for _, set := range s.sets.setsOf(m) {
		for _, u := range s.sets.members[set] {
			if r.seen[u] != r.seenStamp && ok(u) {
				r.seen[u] = r.seenStamp
				r.heap = append(r.heap, heapEntry{key(u), u})
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
	key := func(v int32) int64 {
		if p := r.lightestFor(v, stampD); p >= 0 {
			return s.weight[p]
		}
		return retired
	}
	heap := slices.Clone(r.gather(d, func(int32) bool { return true }, key))
	for len(heap) > 0 && heap[0].key != retired {
		v := heap[0].member
		heap = popTop(heap)
		p := r.lightestFor(v, r.markSets(d))
		stamp := r.markSets(v)
		donor, refill := int32(-1), int32(-1)
		for _, set := range s.sets.setsOf(v) {
			for _, u := range s.sets.members[set] {
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
