package weighted

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kgroup/assignor/internal/balance"
)

// memberBands is the member-level balance that countBands replaced, kept as
// a reference (package sticky's algorithm): water-fill each set, smallest
// first, repair along chains of members one level at a time, then find the
// bands.
func memberBands(ss *subscriberSets, members int) (lo, hi []int32) {
	count := make([]int32, members)
	held := make([]int32, ss.SlotFrom[ss.numSets()])
	order := make([]int32, ss.numSets())
	for s := range order {
		order[s] = int32(s)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(len(ss.Members[a]), len(ss.Members[b])) })
	var scratch []int32
	for _, s := range order {
		scratch = waterFill(ss.size[s], ss.Members[s], count, held[ss.SlotFrom[s]:ss.SlotFrom[s+1]], scratch)
	}
	x := balance.NewWalk(&ss.Graph, held)
	repairMembers(ss, x, held, count)
	return bandsOfMembers(x, count)
}

// waterFill deals n partitions over the members of set (out is their
// slots), raising the lowest counts first; ties go to the first members.
func waterFill(n int32, set, count, out, scratch []int32) []int32 {
	scratch = scratch[:0]
	for _, m := range set {
		scratch = append(scratch, count[m])
	}
	slices.Sort(scratch)
	// The level: the largest with Σ max(0, level − count) <= n.
	level, left := scratch[0], n
	below := 1 // members at or below level
	for {
		for below < len(scratch) && scratch[below] <= level {
			below++
		}
		next := int32(1 << 30)
		if below < len(scratch) {
			next = scratch[below]
		}
		step := min(next-level, left/int32(below))
		level += step
		left -= step * int32(below)
		if below == len(scratch) || level < next {
			break
		}
	}
	for i, m := range set {
		if count[m] < level {
			out[i] += level - count[m]
			count[m] = level
		}
	}
	for i, m := range set {
		if left == 0 {
			break
		}
		if count[m] == level {
			out[i]++
			count[m]++
			left--
		}
	}
	return scratch
}

// repair improves the water-filled counts to an optimal vector; see
// countBands.
func repairMembers(ss *subscriberSets, x *balance.Walk, held, count []int32) {
	members := len(count)
	settled := make([]bool, members)
	for m := range members {
		settled[m] = !ss.active(int32(m))
	}
	for {
		top := int32(-1)
		for m := range members {
			if !settled[m] {
				top = max(top, count[m])
			}
		}
		if top < 0 {
			return
		}
		x.Reset()
		for m := range members {
			if !settled[m] && count[m] == top {
				x.Start(int32(m))
			}
		}
		v := x.Forward(settled, func(m int32) bool { return count[m] <= top-2 })
		if v < 0 {
			for _, m := range x.Queue {
				settled[m] = true
			}
			continue
		}
		src, amount := v, int32(1<<30)
		for u := v; x.Parent[u] >= 0; u = x.Parent[u] {
			amount = min(amount, held[x.ParentSlot[u]])
			src = x.Parent[u]
		}
		amount = max(1, min(amount, (count[src]-count[v])/2))
		for u := v; x.Parent[u] >= 0; u = x.Parent[u] {
			held[x.ParentSlot[u]] -= amount
			held[ss.slot(x.ParentGroup[u], u)] += amount
		}
		count[src] -= amount
		count[v] += amount
	}
}

// bands returns each member's band of counts around the optimal vector
// count; see countBands.
func bandsOfMembers(x *balance.Walk, count []int32) (lo, hi []int32) {
	lo, hi = slices.Clone(count), slices.Clone(count)
	values := slices.Compact(slices.Sorted(slices.Values(count)))
	for i := 1; i < len(values); i++ {
		v := values[i-1]
		if values[i] != v+1 {
			continue
		}
		x.Reset()
		for m, c := range count {
			if c == v+1 {
				x.Start(int32(m))
			}
		}
		x.Forward(nil, func(m int32) bool {
			if count[m] == v {
				hi[m] = v + 1
			}
			return false
		})
		x.Reset()
		for m, c := range count {
			if c == v {
				x.Start(int32(m))
			}
		}
		x.Backward(func(m int32) bool {
			if count[m] == v+1 {
				lo[m] = v
			}
			return false
		})
	}
	return lo, hi
}

// TestCountBandsMatchMembers checks the class-level bands against the
// member-level reference on random groups too big to enumerate (up to 12
// members, 6 topics of up to 15 partitions, subscriptions drawn from a few
// patterns so that classes have several members).
func TestCountBandsMatchMembers(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range 3000 {
		members, topics := 1+rng.IntN(12), 1+rng.IntN(6)
		g := &group{members: members, subscribers: make([][]int32, topics)}
		patterns := make([][]bool, 1+rng.IntN(4))
		for k := range patterns {
			patterns[k] = make([]bool, topics)
			for tp := range topics {
				patterns[k][tp] = rng.IntN(2) == 0
			}
		}
		for m := range members {
			pattern := patterns[rng.IntN(len(patterns))]
			for tp := range topics {
				if pattern[tp] {
					g.subscribers[tp] = append(g.subscribers[tp], int32(m))
				}
			}
		}
		for tp := range topics {
			for range rng.IntN(16) {
				g.topic = append(g.topic, int32(tp))
			}
		}
		ss := newSubscriberSets(g.members, g.subscribers, g.topic)
		lo, hi := countBands(ss, members)
		wantLo, wantHi := memberBands(ss, members)
		if !slices.Equal(lo, wantLo) || !slices.Equal(hi, wantHi) {
			t.Fatalf("group %d: bands lo %v hi %v, member-level lo %v hi %v; subscribers %v, topics %v", i, lo, hi, wantLo, wantHi, g.subscribers, g.topic)
		}
	}
}
