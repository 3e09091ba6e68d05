package balance

import (
	"slices"
	"sort"
)

// Count balance: the partition counts that minimise the sum of squared
// counts over every valid plan (sticky's first criterion, and the band the
// weighted assignor bounds each member's count by). The groups of a Graph
// (subscriber sets, or sticky's hubs) each hold size[g] partitions that any
// of the group's members may take.
//
// The count vectors of the optimal plans form a narrow band: member m has
// lo_m or, in some of them, hi_m ∈ {lo_m, lo_m + 1} (Frank and Murota's
// decreasingly-minimal elements). With identical subscriptions every
// member has ⌊N/k⌋ or ⌈N/k⌉; with different ones no chain of the exchange
// graph can pass a partition from a member to one with two fewer.
//
// Members in the same groups with the same base count are interchangeable,
// so the balance is solved over classes of them: a class of n members
// holding T partitions gives ⌊T/n⌋ to each and one more to T mod n of them.
// Real groups have a handful of subscription patterns, so the class-level
// search is tiny even with thousands of members, and no worse than a
// member-level one when every member subscribes differently.

// CountBands returns each member's lowest and highest count over the
// count-balanced plans of the groups of g, each member starting from
// base[m] partitions it holds already (nil: none), which count in the
// squares but do not move.
//
// It deals each group over its classes in proportion to their sizes, then
// repairs: while a class whose members hold up to c partitions (c the
// highest such among the unsettled) can pass a partition along a chain of
// classes to one whose members hold c−2 or fewer, it passes as many as keep
// that true and the chain's holdings allow; when none can, every class
// reachable from those at c is settled. With no improving chain left the
// class totals are optimal, and so is the member vector that spreads each
// evenly; the band is then found by asking, for each pair of neighbouring
// counts v+1 and v, which classes with members at v+1 can pass a partition
// to which with members at v (the two trade places at no cost). O(C·E) per
// settled level in the worst case, for C classes and E class-group pairs.
//
// Example: A subscribes to t0 (4 partitions), B to t0 and t1 (2), C to t1:
// three classes. Dealt, A and B share t0 (2 each) and B and C t1 (1 each):
// B holds 3, C 1, and the chain B → C evens them: every band is [2, 2].
func CountBands(g *Graph, size, base []int32) (lo, hi []int32) {
	cc := newCountClasses(g, base)
	cc.deal(size)
	cc.repair()
	return cc.bands()
}

// countClasses is the class-level balance problem, on the exchange graph
// of classes and groups (group j of graph is group j of the member graph,
// its members the classes whose groups include j).
type countClasses struct {
	members    int
	memberBase []int32 // per member: its base count (nil: none)
	classOf    []int32 // per member: its class, or -1 in no group
	size       []int64 // per class: its members
	base       []int64 // per class: each member's base count
	total      []int64 // per class: partitions it holds beyond its base
	graph      Graph
	held       []int32 // per slot (group, class): partitions of the group the class holds
	walk       *Walk
}

func newCountClasses(g *Graph, base []int32) *countClasses {
	members := g.NumMembers()
	cc := &countClasses{members: members, memberBase: base, classOf: make([]int32, members)}
	groupClasses := make([][]int32, len(g.Members))
	var classes Interner
	var key []int32
	for m := range int32(members) {
		groups := g.GroupsOf(m)
		cc.classOf[m] = -1
		if len(groups) == 0 {
			continue
		}
		if base != nil {
			// The class key is the groups and, after them, -1-base[m].
			key = append(append(key[:0], groups...), -1-base[m])
			groups = key
		}
		c := classes.Intern(groups)
		if int(c) == len(cc.size) {
			if base != nil {
				classes.Lists[c] = slices.Clone(key)
			}
			cc.size = append(cc.size, 0)
			var b int64
			if base != nil {
				b = int64(base[m])
			}
			cc.base = append(cc.base, b)
			for _, j := range g.GroupsOf(m) {
				groupClasses[j] = append(groupClasses[j], c)
			}
		}
		cc.classOf[m] = c
		cc.size[c]++
	}
	cc.graph = NewGraph(len(cc.size), groupClasses, nil)
	cc.held = make([]int32, cc.graph.SlotFrom[len(groupClasses)])
	cc.total = make([]int64, len(cc.size))
	cc.walk = NewWalk(&cc.graph, cc.held)
	return cc
}

// top and bottom are the most and fewest partitions a member of class c
// holds, base included, when the class spreads its total evenly.
func (cc *countClasses) top(c int32) int64 {
	return cc.base[c] + (cc.total[c]+cc.size[c]-1)/cc.size[c]
}

func (cc *countClasses) bottom(c int32) int64 { return cc.base[c] + cc.total[c]/cc.size[c] }

// deal gives each group's size partitions to its classes in proportion to
// their sizes, the remainder one each to the first classes.
func (cc *countClasses) deal(size []int32) {
	for j, classes := range cc.graph.Members {
		var members int64
		for _, c := range classes {
			members += cc.size[c]
		}
		from := cc.graph.SlotFrom[j]
		left := int64(size[j])
		for i, c := range classes {
			share := int64(size[j]) * cc.size[c] / members
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

// repair improves the dealt class totals to optimal ones; see CountBands.
func (cc *countClasses) repair() {
	settled := make([]bool, len(cc.size))
	for {
		top := int64(-1)
		for c := range int32(len(cc.size)) {
			if !settled[c] {
				top = max(top, cc.top(c))
			}
		}
		if top < 0 {
			return
		}
		cc.restart(func(c int32) bool { return !settled[c] && cc.top(c) == top })
		v := cc.walk.Forward(settled, func(c int32) bool { return cc.bottom(c) <= top-2 })
		if v < 0 {
			for _, c := range cc.walk.Queue {
				settled[c] = true
			}
			continue
		}
		cc.pass(v)
	}
}

// pass moves partitions along the chain found to class v from its root:
// the most that the chain's holdings allow with each one still improving
// (the root's fullest member at least two above v's emptiest).
func (cc *countClasses) pass(v int32) {
	w := cc.walk
	src, limit := v, int64(1)<<62
	for u := v; w.Parent[u] >= 0; u = w.Parent[u] {
		limit = min(limit, int64(cc.held[w.ParentSlot[u]]))
		src = w.Parent[u]
	}
	improving := func(k int64) bool { // the k-th unit, from 1
		up := cc.base[src] + (cc.total[src]-k+1+cc.size[src]-1)/cc.size[src]
		down := cc.base[v] + (cc.total[v]+k-1)/cc.size[v]
		return up >= down+2
	}
	amount := int64(sort.Search(int(min(limit, 1<<40)), func(k int) bool { return !improving(int64(k) + 1) }))
	amount = max(amount, 1)
	for u := v; w.Parent[u] >= 0; u = w.Parent[u] {
		from := w.Parent[u]
		cc.held[w.ParentSlot[u]] -= int32(amount)
		slot, _ := cc.graph.Slot(w.ParentGroup[u], u)
		cc.held[slot] += int32(amount)
		cc.total[from] -= amount
		cc.total[u] += amount
	}
}

// has reports whether class c has a member at count level when spread
// evenly.
func (cc *countClasses) has(c int32, level int64) bool {
	return cc.bottom(c) == level || cc.top(c) == level
}

// bands returns each member's band around the optimal class totals; see
// CountBands. A member in no group has its base as its band.
func (cc *countClasses) bands() (lo, hi []int32) {
	n := int32(len(cc.size))
	low, high := make([]int64, n), make([]int64, n)
	var levels []int64
	for c := range n {
		low[c], high[c] = cc.bottom(c), cc.top(c)
		levels = append(levels, low[c], high[c])
	}
	slices.Sort(levels)
	levels = slices.Compact(levels)
	for i := 1; i < len(levels); i++ {
		v := levels[i-1]
		if levels[i] != v+1 {
			continue
		}
		// Classes all at v that a class with members at v+1 reaches can
		// rise; classes all at v+1 that reach one with members at v can
		// fall.
		cc.restart(func(c int32) bool { return cc.has(c, v+1) })
		cc.walk.Forward(nil, func(c int32) bool {
			if cc.top(c) == v && cc.bottom(c) == v {
				high[c] = v + 1
			}
			return false
		})
		cc.restart(func(c int32) bool { return cc.has(c, v) })
		cc.walk.Backward(func(c int32) bool {
			if cc.bottom(c) == v+1 && cc.top(c) == v+1 {
				low[c] = v
			}
			return false
		})
	}
	lo, hi = make([]int32, cc.members), make([]int32, cc.members)
	for m, c := range cc.classOf {
		switch {
		case c >= 0:
			lo[m], hi[m] = int32(low[c]), int32(high[c])
		case cc.memberBase != nil:
			lo[m], hi[m] = cc.memberBase[m], cc.memberBase[m]
		}
	}
	return lo, hi
}
