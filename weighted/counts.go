package weighted

import "slices"

// The count constraint. A count-balanced plan is one whose partition counts
// minimise the sum of squared counts over all valid plans, as in package
// sticky: with identical subscriptions every member has ⌊N/k⌋ or ⌈N/k⌉;
// with different subscriptions no chain of subscribers can pass a
// partition from a member to one with two fewer. The count vectors of those
// plans form a narrow band: member m has lo_m or, in some of them, hi_m ∈
// {lo_m, lo_m + 1}. A weighted plan may give m any count in
// [lo_m − skew, hi_m + skew], but at least 1 if lo_m is (see
// solver.countLimits).
//
// Members in the same subscriber sets are interchangeable for the counts,
// so the balance is solved over classes of them: a class of n members with
// T partitions gives ⌊T/n⌋ to each and one more to T mod n of them. Real
// groups have a handful of subscription patterns, so a class-level search
// is tiny even with thousands of members (and no worse than a member-level
// one when every member subscribes differently).

// countClasses is the class-level balance problem.
type countClasses struct {
	ss      *subscriberSets
	classOf []int32   // per member: its class, or -1 in no set
	size    []int64   // per class: its members
	sets    [][]int32 // per class: its sets, ascending
	held    [][]int64 // per class, alongside sets: partitions of that set it holds
	total   []int64   // per class: partitions it holds
	// setClasses[s] are the classes whose sets include s, ascending.
	setClasses [][]int32

	// Search state, per class.
	seen      []bool
	parent    []int32 // the class that passes to it on a chain, -1 at a root
	parentSet []int32 // the set it passes, as an index into sets[parent]
	queue     []int32
}

// countBands returns each member's lowest and highest count over the
// count-balanced plans (0 and 0 for a member in no set).
//
// It deals each set over its classes in proportion to their sizes, then
// repairs: while a class whose members hold up to c partitions (c the
// highest such among the unsettled) can pass a partition along a chain of
// classes to one whose members hold c−2 or fewer, it passes as many as keep
// that true and the chain's holdings allow; when none can, every class
// reachable from those at c is settled. With no improving chain left the
// class totals are optimal, and so is the member vector that spreads each
// evenly; the band is then found by asking, for each pair of neighbouring
// counts v+1 and v, which classes with members at v+1 can pass a partition
// to which with members at v (the two trade places at no cost). O(C·E) per
// settled level in the worst case, for C classes and E class-set pairs.
func countBands(ss *subscriberSets, members int) (lo, hi []int32) {
	cc := newCountClasses(ss, members)
	cc.deal()
	cc.repair()
	return cc.bands(members)
}

func newCountClasses(ss *subscriberSets, members int) *countClasses {
	cc := &countClasses{ss: ss, classOf: make([]int32, members), setClasses: make([][]int32, len(ss.members))}
	byHash := map[uint64][]int32{}
	for m := range int32(members) {
		sets := ss.setsOf(m)
		cc.classOf[m] = -1
		if len(sets) == 0 {
			continue
		}
		h := hashMembers(sets)
		c := int32(-1)
		for _, k := range byHash[h] {
			if slices.Equal(cc.sets[k], sets) {
				c = k
				break
			}
		}
		if c < 0 {
			c = int32(len(cc.sets))
			cc.sets = append(cc.sets, sets)
			cc.size = append(cc.size, 0)
			byHash[h] = append(byHash[h], c)
			for _, s := range sets {
				cc.setClasses[s] = append(cc.setClasses[s], c)
			}
		}
		cc.classOf[m] = c
		cc.size[c]++
	}
	n := len(cc.sets)
	cc.held = make([][]int64, n)
	for c, sets := range cc.sets {
		cc.held[c] = make([]int64, len(sets))
	}
	cc.total = make([]int64, n)
	cc.seen = make([]bool, n)
	cc.parent = make([]int32, n)
	cc.parentSet = make([]int32, n)
	return cc
}

// top and bottom are the most and fewest partitions a member of class c
// holds when the class spreads its total evenly.
func (cc *countClasses) top(c int32) int64 {
	return (cc.total[c] + cc.size[c] - 1) / cc.size[c]
}

func (cc *countClasses) bottom(c int32) int64 { return cc.total[c] / cc.size[c] }

// index returns the index of set s in class c's sets (c must be in s).
func (cc *countClasses) index(c, s int32) int32 {
	i, _ := slices.BinarySearch(cc.sets[c], s)
	return int32(i)
}

// deal gives each set's partitions to its classes in proportion to their
// sizes, the remainder one each to the first classes.
func (cc *countClasses) deal() {
	for s, classes := range cc.setClasses {
		var members int64
		for _, c := range classes {
			members += cc.size[c]
		}
		left := int64(cc.ss.size[s])
		for _, c := range classes {
			share := int64(cc.ss.size[s]) * cc.size[c] / members
			cc.held[c][cc.index(c, int32(s))] += share
			cc.total[c] += share
			left -= share
		}
		for i := 0; left > 0; i, left = i+1, left-1 {
			c := classes[i]
			cc.held[c][cc.index(c, int32(s))]++
			cc.total[c]++
		}
	}
}

// search runs a breadth-first search from the queued classes over classes
// not blocked, along the sets each holds partitions of; it returns the
// first newly reached class stop accepts, or -1 (then the queue holds every
// class reached).
func (cc *countClasses) search(blocked []bool, stop func(c int32) bool) int32 {
	for head := 0; head < len(cc.queue); head++ {
		u := cc.queue[head]
		for i, s := range cc.sets[u] {
			if cc.held[u][i] == 0 {
				continue
			}
			for _, v := range cc.setClasses[s] {
				if cc.seen[v] || (blocked != nil && blocked[v]) {
					continue
				}
				cc.seen[v] = true
				cc.parent[v], cc.parentSet[v] = u, int32(i)
				if stop(v) {
					return v
				}
				cc.queue = append(cc.queue, v)
			}
		}
	}
	return -1
}

// restart clears the search and queues the classes start accepts as roots.
func (cc *countClasses) restart(start func(c int32) bool) {
	clear(cc.seen)
	cc.queue = cc.queue[:0]
	for c := range int32(len(cc.sets)) {
		if start(c) {
			cc.seen[c] = true
			cc.parent[c] = -1
			cc.queue = append(cc.queue, c)
		}
	}
}
