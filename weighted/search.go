package weighted

import (
	"cmp"
	"slices"
)

// search is the local search over a plan: moves (a partition from member a
// to member b) and swaps (a partition each way), within the count bounds
// and subscriptions. Every operation it applies passes a weight d with
// 0 < d < load[a] − load[b] from a to b, so it lowers the pair's larger
// load and the sum of squared loads, and never raises the heaviest load.
type search struct {
	s  *solver
	pl *plan

	byLoad []int32 // members in some set, by (load, member) ascending
	rank   []int32 // per member: position in byLoad, or -1

	rackSafe bool  // only operations that lose no rack-local partition
	freeOnly bool  // only operations that move no partition off its owner
	budget   int64 // work left, in partitions scanned
	log      bool  // keep the applied operations, for undo
	applied  []op
	squares  wide // the plan's sum of squared loads, kept by apply
	behind   rate // set when settle stops because it fell behind its pace
	prior    rate // the rate of an earlier settle from the same plan, if any

	stampA, stampB []int32 // per set: marks of the sets of a and b
	stamp          int32
	xs, ys         []int32 // scratch: a's partitions b may take, and b's a may
	order          []int32 // scratch of sweep
	chainXs        []int32 // scratch of lowerTopByChain and bestChain
	chainYs        []int32
	chainZs        []int32
}

// newSearch prepares a search over pl with budget units of work.
func (s *solver) newSearch(pl *plan, budget int64) *search {
	sr := &search{s: s, pl: pl, budget: budget, rank: make([]int32, s.members)}
	for m := range int32(s.members) {
		sr.rank[m] = -1
		if s.sets.active(m) {
			sr.byLoad = append(sr.byLoad, m)
		}
	}
	slices.SortFunc(sr.byLoad, sr.compare)
	sr.squares = pl.squares()
	for i, m := range sr.byLoad {
		sr.rank[m] = int32(i)
	}
	if !s.uniform {
		sr.stampA = make([]int32, s.sets.numSets())
		sr.stampB = make([]int32, s.sets.numSets())
	}
	return sr
}

func (sr *search) compare(a, b int32) int {
	return cmp.Or(cmp.Compare(sr.pl.load[a], sr.pl.load[b]), cmp.Compare(a, b))
}

// reposition restores byLoad's order after member m's load changed.
func (sr *search) reposition(m int32) {
	i := int(sr.rank[m])
	for i > 0 && sr.compare(m, sr.byLoad[i-1]) < 0 {
		sr.byLoad[i] = sr.byLoad[i-1]
		sr.rank[sr.byLoad[i]] = int32(i)
		i--
	}
	for i+1 < len(sr.byLoad) && sr.compare(m, sr.byLoad[i+1]) > 0 {
		sr.byLoad[i] = sr.byLoad[i+1]
		sr.rank[sr.byLoad[i]] = int32(i)
		i++
	}
	sr.byLoad[i] = m
	sr.rank[m] = int32(i)
}

// top returns the heaviest member, or -1.
func (sr *search) top() int32 {
	if len(sr.byLoad) == 0 {
		return -1
	}
	return sr.byLoad[len(sr.byLoad)-1]
}

// op is one operation: a gives x to b and, for a swap, b gives y to a.
type op struct {
	a, b, x, y int32
	d          int64 // the weight a passes to b: w(x) − w(y)
}

func (sr *search) apply(o op) {
	pl := sr.pl
	sr.squares = sr.squares.sub(square(pl.load[o.a])).sub(square(pl.load[o.b]))
	pl.move(o.x, o.b)
	if o.y >= 0 {
		pl.move(o.y, o.a)
	}
	sr.squares = sr.squares.add(square(pl.load[o.a])).add(square(pl.load[o.b]))
	sr.reposition(o.a)
	sr.reposition(o.b)
	if sr.log {
		sr.applied = append(sr.applied, o)
	}
}

// undo reverts the logged operations, last first, and leaves the search
// unusable (its order is not restored).
func (sr *search) undo() {
	for i := len(sr.applied) - 1; i >= 0; i-- {
		o := sr.applied[i]
		sr.pl.move(o.x, o.a)
		if o.y >= 0 {
			sr.pl.move(o.y, o.b)
		}
	}
	sr.applied = nil
}

// lists sets xs to a's partitions b subscribes to and ys to b's partitions
// a subscribes to, both in held order, and charges their length to the
// budget. It reports false when the two share no set.
func (sr *search) lists(a, b int32) bool {
	s, pl := sr.s, sr.pl
	sr.budget -= int64(len(pl.held[a]) + len(pl.held[b]) + 1)
	if s.uniform {
		sr.xs, sr.ys = pl.held[a], pl.held[b]
		return true
	}
	sr.stamp++
	shared := false
	for _, set := range s.sets.setsOf(a) {
		sr.stampA[set] = sr.stamp
	}
	for _, set := range s.sets.setsOf(b) {
		sr.stampB[set] = sr.stamp
		shared = shared || sr.stampA[set] == sr.stamp
	}
	if !shared {
		return false
	}
	sr.xs, sr.ys = sr.xs[:0], sr.ys[:0]
	for _, p := range pl.held[a] {
		if sr.stampB[s.partSet[p]] == sr.stamp {
			sr.xs = append(sr.xs, p)
		}
	}
	for _, p := range pl.held[b] {
		if sr.stampA[s.partSet[p]] == sr.stamp {
			sr.ys = append(sr.ys, p)
		}
	}
	return true
}

// shares reports whether members a and b share a subscriber set.
func (sr *search) shares(a, b int32) bool {
	s := sr.s
	if s.uniform {
		return true
	}
	sr.budget--
	sr.stamp++
	for _, set := range s.sets.setsOf(a) {
		sr.stampA[set] = sr.stamp
	}
	for _, set := range s.sets.setsOf(b) {
		if sr.stampA[set] == sr.stamp {
			return true
		}
	}
	return false
}

// canMove reports whether a may give b a partition without a swap.
func (sr *search) canMove(a, b int32) bool {
	s, pl := sr.s, sr.pl
	return pl.count[a] > s.minCount[a] && pl.count[b] < s.maxCount[b]
}

// safe reports whether o keeps the rack-local partitions when the search
// must.
func (sr *search) safe(o op) bool {
	if sr.freeOnly && !sr.free(o.x, o.y, o.a, o.b) {
		return false
	}
	if !sr.rackSafe {
		return true
	}
	rk := sr.s.racks
	gain := rk.localGain(o.x, o.a, o.b)
	if o.y >= 0 {
		gain += rk.localGain(o.y, o.b, o.a)
	}
	return gain >= 0
}

// firstAtMost returns the first index of list (held order) whose weight
// is at most w.
func (sr *search) firstAtMost(list []int32, w int64) int {
	i, _ := slices.BinarySearchFunc(list, w, func(p int32, w int64) int {
		if sr.pl.weight[p] > w {
			return -1
		}
		return 1
	})
	return i
}
