package sticky

import (
	"cmp"
	"slices"

	"github.com/kgroup/assignor/internal/balance"
)

// Balance alone (criterion 1) is solved before the flow, because it tells
// the flow which loads are possible at all, and that makes the flow cheap.
//
// The loads of the optimal plans (those minimising the sum of squared loads)
// form a narrow band: member m's load is L_m or, for some members, one more
// or one less, never both (Frank and Murota's decreasingly-minimal
// elements). If one optimal load vector L is known, m can rise to L_m + 1
// in an optimal plan exactly when a member at L_m + 1 can pass it a
// partition along a chain of subscribers, and fall to L_m - 1 when m can
// pass one to a member at L_m - 1 (the two never both hold, or L would not
// be optimal). With lo_m and hi_m the band, the convex load cost can be cut
// to: free up to lo_m, 2·lo_m + 1 for the one unit up to hi_m, forbidden
// beyond. That cut cost has exactly the same minimisers as the sum of
// squares, and it has at most two prices per member, so the flow needs a
// handful of phases instead of one per unit of load.

// optimalLoads returns one optimal load vector over the network hubs, on top
// of net.load (the settled single-member hubs), and the holdings behind it:
// held[g] partitions of hub-and-position g.
//
// It deals each hub, smallest subscriber set first, by water-filling (the
// least-loaded subscribers first), then repairs: while some member at the
// highest unsettled load L can pass a partition along a chain of
// subscribers to a member at L-2 or less, it does so (as many as keep the
// two ordered); when none can, every member reachable from the highest ones
// is settled (nothing they hold can reach a lower member, and nothing can
// reach them from a member two above). It stops when every member is
// settled: then no improving chain exists, which is the optimality
// condition for the sum of squares.
func (net *flowNetwork) optimalLoads() (load, held []int32) {
	sol := net.sol
	load = slices.Clone(net.load)
	held = make([]int32, len(net.f.give))
	order := make([]int32, len(net.hubs))
	for j := range order {
		order[j] = int32(j)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		return cmp.Compare(len(sol.sets[sol.hubSet[net.hubs[a]]]), len(sol.sets[sol.hubSet[net.hubs[b]]]))
	})
	var scratch []int32
	for _, j := range order {
		h := net.hubs[j]
		set := sol.sets[sol.hubSet[h]]
		scratch = waterFill(net.size[j], set, load, held[net.f.hubOff[h]:net.f.hubOff[h+1]], scratch)
	}
	net.repair(load, held)
	return load, held
}

// waterFill deals n partitions to the members of set (positions into out),
// raising the least loaded first; ties go to the first positions.
func waterFill(n int32, set, load, out, scratch []int32) []int32 {
	k := len(set)
	scratch = scratch[:0]
	for _, m := range set {
		scratch = append(scratch, load[m])
	}
	slices.Sort(scratch)
	// Find the level T: the largest with sum(max(0, T-load)) <= n.
	level := scratch[0]
	left := n
	i := 1
	for {
		for i < k && scratch[i] <= level {
			i++
		}
		next := int32(1 << 30)
		if i < k {
			next = scratch[i]
		}
		step := min(next-level, left/int32(i))
		level += step
		left -= step * int32(i)
		if i == k || level < next {
			break
		}
	}
	// Members at or below the level are raised to it; left of them, by
	// position, get one more.
	for p, m := range set {
		if load[m] < level {
			out[p] += level - load[m]
			load[m] = level
		}
	}
	for p, m := range set {
		if left == 0 {
			break
		}
		if load[m] == level {
			out[p]++
			load[m]++
			left--
		}
	}
	return scratch
}

// repair improves the water-filled loads to an optimal vector; see
// optimalLoads.
func (net *flowNetwork) repair(load, held []int32) {
	sol := net.sol
	x := balance.NewWalk(&net.graph, held)
	settled := make([]bool, sol.members)
	for m := range int32(sol.members) {
		settled[m] = len(net.graph.GroupsOf(m)) == 0
	}
	for {
		top := int32(-1)
		for m := range sol.members {
			if !settled[m] && load[m] > top {
				top = load[m]
			}
		}
		if top < 0 {
			return
		}
		x.Reset()
		for m := range int32(sol.members) {
			if !settled[m] && load[m] == top {
				x.Start(m)
			}
		}
		v := x.Forward(settled, func(m int32) bool { return load[m] <= top-2 })
		if v < 0 {
			for _, m := range x.Queue {
				settled[m] = true
			}
			continue
		}
		// Pass along the chain back to its source, as many as the chain
		// carries and keep the source above the receiver.
		src := v
		amount := int32(1 << 30)
		for u := v; x.Parent[u] >= 0; u = x.Parent[u] {
			amount = min(amount, held[x.ParentSlot[u]])
			src = x.Parent[u]
		}
		amount = max(1, min(amount, (load[src]-load[v])/2))
		for u := v; x.Parent[u] >= 0; u = x.Parent[u] {
			held[x.ParentSlot[u]] -= amount
			slot, _ := net.graph.Slot(x.ParentGroup[u], u)
			held[slot] += amount
		}
		load[src] -= amount
		load[v] += amount
	}
}

// bands returns, for the optimal load vector load (with holdings held),
// each member's lowest and highest load over all optimal plans.
func (net *flowNetwork) bands(load, held []int32) (lo, hi []int32) {
	sol := net.sol
	numMembers := sol.members
	lo, hi = slices.Clone(load), slices.Clone(load)
	x := balance.NewWalk(&net.graph, held)
	var values []int32
	for m := range numMembers {
		values = append(values, load[m])
	}
	slices.Sort(values)
	values = slices.Compact(values)
	for i := 1; i < len(values); i++ {
		v := values[i-1]
		if values[i] != v+1 {
			continue
		}
		// Members at v reachable from members at v+1 can rise; members at
		// v+1 that reach one at v can fall.
		x.Reset()
		for m := range int32(numMembers) {
			if load[m] == v+1 {
				x.Start(m)
			}
		}
		x.Forward(nil, func(m int32) bool {
			if load[m] == v {
				hi[m] = v + 1
			}
			return false
		})
		x.Reset()
		for m := range int32(numMembers) {
			if load[m] == v {
				x.Start(m)
			}
		}
		x.Backward(func(m int32) bool {
			if load[m] == v+1 {
				lo[m] = v
			}
			return false
		})
	}
	return lo, hi
}
