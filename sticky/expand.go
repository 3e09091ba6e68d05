package sticky

import "slices"

// expand turns class-level flows into concrete partitions in sol.assign.
//
// Keeping: an owner that keeps only part of a class keeps the partitions
// aimed closest to it, that is with the smallest (distance from the
// partition's target position to the owner's position, partition), so what
// it keeps is spread over topics the way a fresh plan would spread it.
//
// Giving: each hub's pool (released and unowned partitions) is dealt by
// [solver.deal], which is consistent under restriction: dealing any subset
// of a pool with the counts it got the first time gives every partition of
// the subset to the same member. That, with the stable quotas, is what makes
// the plan stable for the cooperative follow-up round.
func (sol *solver) expand(f *flows) {
	ix := sol.ix
	numPartitions := len(sol.partClass)
	// partial[c] numbers the classes whose owner keeps some but not all.
	partial := make([]int32, len(sol.classHub))
	var partialFrom []int32
	var ownerPos []int32
	for c, size := range sol.classSize {
		partial[c] = -1
		if o := sol.classOwner[c]; o >= 0 && f.keep[c] > 0 && f.keep[c] < size {
			partial[c] = int32(len(partialFrom))
			partialFrom = append(partialFrom, size)
			set := sol.sets[sol.hubSet[sol.classHub[c]]]
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
	if total == 0 {
		// deal writes every entry of assign, each after reading the same
		// entry of partClass and no other: one array serves both.
		sol.assign = sol.partClass
		sol.deal(f, partial, false)
		sol.partClass = nil // it holds the assignment now
		return
	}
	sol.assign = make([]int32, numPartitions)
	keys := make([]uint64, total)
	fill := make([]int32, len(partialFrom))
	for t := range int32(ix.NumTopics()) {
		s := sol.topicSet[t]
		lo, hi := ix.TopicRange(t)
		for p := lo; p < hi; p++ {
			c := sol.partClass[p]
			sol.assign[p] = -1
			if c < 0 || partial[c] < 0 {
				continue
			}
			j := partial[c]
			k := int32(len(sol.sets[s]))
			d := (ownerPos[j] - sol.target(t, p) + k) % k
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
		o := sol.classOwner[c]
		for _, key := range ks[:f.keep[c]] {
			sol.assign[uint32(key)] = o
		}
	}
	sol.deal(f, partial, true)
}

// deal gives every class that its owner keeps whole to the owner, and hands
// out every hub's pool (the subscribed partitions still unassigned), all in
// one sweep in flat order: each pool partition goes to the first member, in
// the hub's subscriber set and going round from the partition's target
// position, that still has room (f.give). A union-find over the positions
// skips the full ones, so the sweep costs O(P α(M)).
//
// This rule depends on neither ownership nor input order, spreads each topic
// (consecutive partitions aim at consecutive members), and is consistent
// under restriction: dealing any subset S of a pool, with each member's room
// set to how many of S the full deal gave it, gives every partition of S to
// the same member. (When s ∈ S is dealt, every position between its target
// and its member was full in the full deal before s came, filled by earlier
// partitions only; in the restricted deal those positions hold exactly the
// earlier members of S that went there, already dealt, so they are full
// again, and s's member still has room for s.) That, with the stable quotas,
// makes the plan stable for the follow-up round of a cooperative rebalance.
//
// Worked example: set [M0 M1 M2] with room [1 0 2], pool p0 p1 p2 aimed at
// M0, M0, M1: p0 → M0; p1 finds M0 full, skips M1 (no room) → M2; p2 finds
// M1 without room → M2. Dealing only {p2} with room [0 0 1] gives p2 → M2
// again.
//
// With kept set, sol.assign already holds -1 or the owner for every
// partition; otherwise deal writes every entry.
func (sol *solver) deal(f *flows, partial []int32, kept bool) {
	ix := sol.ix
	// next[g]: for slot g (hub, position), the position to try after it:
	// itself while it has room. left[h]: room left in hub h.
	next := make([]int32, len(f.give))
	left := make([]int32, len(sol.hubSet))
	for h := range sol.hubSet {
		off, k := f.hubOff[h], f.hubOff[h+1]-f.hubOff[h]
		for i := range k {
			next[off+i] = i
			if f.give[off+i] == 0 {
				next[off+i] = (i + 1) % k
			}
			left[h] += f.give[off+i]
		}
	}
	for t := range int32(ix.NumTopics()) {
		s := sol.topicSet[t]
		lo, hi := ix.TopicRange(t)
		if s < 0 {
			for p := lo; p < hi; p++ {
				sol.assign[p] = -1
			}
			continue
		}
		set := sol.sets[s]
		k := int32(len(set))
		at := sol.topicOffset[t] % k // target of lo; advances with p
		for p := lo; p < hi; p, at = p+1, at+1 {
			if at == k {
				at = 0
			}
			c := sol.partClass[p]
			m := int32(-1)
			switch o := sol.classOwner[c]; {
			case kept && sol.assign[p] >= 0:
				m = sol.assign[p] // kept by a partial owner
			case o >= 0 && partial[c] < 0 && f.keep[c] > 0:
				m = o // the owner keeps the whole class
			default:
				h := sol.classHub[c]
				if left[h] == 0 {
					sol.assign[p] = -1 // the solver gave the pool too little room: a bug
					continue
				}
				off := f.hubOff[h]
				pos := findRoom(next[off:off+k], at)
				g := off + pos
				m = set[pos]
				left[h]--
				if f.give[g]--; f.give[g] == 0 {
					next[g] = (pos + 1) % k
				}
			}
			sol.assign[p] = m
		}
	}
}

// findRoom follows next from position x to the first position with room,
// compressing the path.
func findRoom(next []int32, x int32) int32 {
	r := x
	for next[r] != r {
		r = next[r]
	}
	for next[x] != r {
		next[x], x = r, next[x]
	}
	return r
}
