package weighted

import (
	"slices"
	"sort"
)

// repair improves the dealt class totals to optimal ones; see countBands.
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
		up := (cc.total[src] - k + 1 + cc.size[src] - 1) / cc.size[src]
		down := (cc.total[v] + k - 1) / cc.size[v]
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
// countBands.
func (cc *countClasses) bands(members int) (lo, hi []int32) {
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
	lo, hi = make([]int32, members), make([]int32, members)
	for m, c := range cc.classOf {
		if c >= 0 {
			lo[m], hi[m] = int32(low[c]), int32(high[c])
		}
	}
	return lo, hi
}
