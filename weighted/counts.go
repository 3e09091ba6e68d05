package weighted

import "github.com/kgroup/assignor/internal/balance"

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

// countClasses is the class-level balance problem, on the exchange graph
// of classes and subscriber sets (group s of graph is set s, its members
// the classes whose sets include s).
type countClasses struct {
	ss      *subscriberSets
	classOf []int32 // per member: its class, or -1 in no set
	size    []int64 // per class: its members
	total   []int64 // per class: partitions it holds
	graph   balance.Graph
	held    []int32 // per slot (set, class): partitions of the set the class holds
	walk    *balance.Walk
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
	cc := &countClasses{ss: ss, classOf: make([]int32, members)}
	setClasses := make([][]int32, ss.numSets())
	var classes balance.Interner
	for m := range int32(members) {
		sets := ss.setsOf(m)
		cc.classOf[m] = -1
		if len(sets) == 0 {
			continue
		}
		c := classes.Intern(sets)
		if int(c) == len(cc.size) {
			cc.size = append(cc.size, 0)
			for _, s := range sets {
				setClasses[s] = append(setClasses[s], c)
			}
		}
		cc.classOf[m] = c
		cc.size[c]++
	}
	cc.graph = balance.NewGraph(len(cc.size), setClasses, nil)
	cc.held = make([]int32, cc.graph.SlotFrom[len(setClasses)])
	cc.total = make([]int64, len(cc.size))
	cc.walk = balance.NewWalk(&cc.graph, cc.held)
	return cc
}

// top and bottom are the most and fewest partitions a member of class c
// holds when the class spreads its total evenly.
func (cc *countClasses) top(c int32) int64 {
	return (cc.total[c] + cc.size[c] - 1) / cc.size[c]
}

func (cc *countClasses) bottom(c int32) int64 { return cc.total[c] / cc.size[c] }

// deal gives each set's partitions to its classes in proportion to their
// sizes, the remainder one each to the first classes.
func (cc *countClasses) deal() {
	for s, classes := range cc.graph.Members {
		var members int64
		for _, c := range classes {
			members += cc.size[c]
		}
		from := cc.graph.SlotFrom[s]
		left := int64(cc.ss.size[s])
		for i, c := range classes {
			share := int64(cc.ss.size[s]) * cc.size[c] / members
			cc.held[from+int32(i)] += int32(share)
			cc.total[c] += share
			left -= share
		}
		for i := int32(0); left > 0; i, left = i+1, left-1 {
			cc.held[from+i]++
			cc.total[classes[i]]++
		}
	}
}

// restart clears the walk and queues the classes start accepts as roots.
func (cc *countClasses) restart(start func(c int32) bool) {
	cc.walk.Reset()
	for c := range int32(len(cc.size)) {
		if start(c) {
			cc.walk.Start(c)
		}
	}
}
