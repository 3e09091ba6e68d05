package sticky

import (
	"slices"

	"github.com/kgroup/assignor/internal/balance"
)

// flows is the solver's answer at class level, before it is expanded to
// concrete partitions.
type flows struct {
	// keep[c] is how many of class c's partitions stay with its owner; the
	// rest of an owned class, and all of an unowned class, go to the pool of
	// the class's hub.
	keep []int32
	// give[hubOff[h]+i] is how many partitions of hub h's pool go to the
	// member at position i of the hub's subscriber set.
	hubOff []int32
	give   []int32
}

func (sol *solver) newFlows() *flows {
	f := &flows{keep: make([]int32, len(sol.classHub)), hubOff: make([]int32, len(sol.hubSet)+1)}
	for h, s := range sol.hubSet {
		f.hubOff[h+1] = f.hubOff[h] + int32(len(sol.sets[s]))
	}
	f.give = make([]int32, f.hubOff[len(sol.hubSet)])
	return f
}

// flowNetwork is the min-cost flow of the general case, on hubs rather than
// classes: within a hub, partitions differ only by owner, and an owner that
// ends with x of its hub's partitions keeps min(x, owned) of them, so the
// flow only needs x per (hub, member). Nodes: the source, the hubs, the
// members and the sink. Arcs and their costs:
//
//	source → hub      capacity: the hub's partitions; cost 0
//	hub → member (A)  capacity: what the member owns in the hub; its rack miss
//	hub → member (B)  unbounded; its rack miss, plus one move
//	member → sink     its k-th partition (from 0) costs 2k+1 in load
//
// plus the reverse of every arc with flow. The sum of 2k+1 over a member's
// partitions is its load squared, so a min-cost flow minimises the sum of
// squared loads, then the rack misses, then the partitions members receive
// beyond what they own, which differs from the partitions leaving their
// owners by a constant (the unowned ones): criteria (1) to (3), in that
// order, because cost compares lexicographically.
//
// The member → sink cost is not used as is: balance is solved first (see
// balance.go) and the arc is cut to the member's band of optimal loads, two
// arcs: free up to the band's low end, 2·lo+1 for the one unit up to its
// high end. That keeps the same optimal flows and leaves few distinct path
// costs, so successive shortest paths take a handful of phases (primal-dual:
// a Dijkstra over reduced costs gives new potentials, then Dinic blocking
// flows over the zero-reduced-cost arcs push in bulk), each O(E log V) for
// E = Σ|subscriber set| over hubs.
//
// Hubs whose subscriber set has one member are settled before the flow
// (they have no choice) and enter it as that member's initial load.
type flowNetwork struct {
	sol *solver
	f   *flows

	hubs []int32 // network hub -> hub

	size, sent []int32 // per network hub
	// Per hub and position in its set, aligned with f.give: what the member
	// owns there, the flow on arcs A and B, and whether it is a rack miss.
	own, flowKept, flowMoved []int32
	missGive                 []bool
	load                     []int32
	lo, hi                   []int32 // per member: the band of optimal loads

	// graph is the exchange graph over the network hubs: group j is
	// network hub j, its slots those of hubs[j] in f.give.
	graph balance.Graph

	nMember, sink int32 // node numbers: 0 source, 1.. hubs, nMember.. members

	pi, dist []cost
	done     []bool
	level    []int32
	cur      []int32
	queue    []int32
	heap     costHeap
	out      []outArc
}

// solveFlow computes the flows by the min-cost flow.
func (sol *solver) solveFlow() *flows {
	f := sol.newFlows()
	net := &flowNetwork{sol: sol, f: f, load: make([]int32, sol.members)}
	n := len(f.give)
	net.own = make([]int32, n)
	net.flowKept = make([]int32, n)
	net.flowMoved = make([]int32, n)
	hubSize := make([]int32, len(sol.hubSet))
	for c, h := range sol.classHub {
		hubSize[h] += sol.classSize[c]
		if o := sol.classOwner[c]; o >= 0 {
			set := sol.sets[sol.hubSet[h]]
			i, _ := slices.BinarySearch(set, o)
			net.own[f.hubOff[h]+int32(i)] += sol.classSize[c]
		}
	}
	for h, s := range sol.hubSet {
		if set := sol.sets[s]; len(set) == 1 {
			// No choice: the one subscriber takes the hub.
			net.flowKept[f.hubOff[h]] = net.own[f.hubOff[h]]
			net.flowMoved[f.hubOff[h]] = hubSize[h] - net.own[f.hubOff[h]]
			net.load[set[0]] += hubSize[h]
			continue
		}
		net.hubs = append(net.hubs, int32(h))
		net.size = append(net.size, hubSize[h])
	}
	if len(net.hubs) > 0 {
		net.build()
		net.countBands()
		net.run()
	}
	for c, h := range sol.classHub {
		if o := sol.classOwner[c]; o >= 0 {
			set := sol.sets[sol.hubSet[h]]
			i, _ := slices.BinarySearch(set, o)
			g := f.hubOff[h] + int32(i)
			f.keep[c] = min(net.own[g], net.flowKept[g]+net.flowMoved[g])
		}
	}
	for g := range f.give {
		f.give[g] = net.flowKept[g] + net.flowMoved[g] - min(net.own[g], net.flowKept[g]+net.flowMoved[g])
	}
	return f
}

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

// countBands sets net.lo and net.hi, the band of optimal loads over the
// network hubs on top of net.load (the settled single-member hubs):
// balance.CountBands on the network's exchange graph.
func (net *flowNetwork) countBands() {
	net.lo, net.hi = balance.CountBands(&net.graph, net.size, net.load)
}

func (net *flowNetwork) build() {
	sol := net.sol
	nh, nm := int32(len(net.hubs)), int32(sol.members)
	net.nMember = 1 + nh
	net.sink = 1 + nh + nm
	net.sent = make([]int32, nh)
	net.missGive = make([]bool, len(net.f.give))
	groups := make([][]int32, nh)
	slotFrom := make([]int32, nh)
	for j, h := range net.hubs {
		off := net.f.hubOff[h]
		groups[j], slotFrom[j] = sol.sets[sol.hubSet[h]], off
		for i, m := range groups[j] {
			net.missGive[off+int32(i)] = !sol.local(sol.hubRack[h], m)
		}
	}
	net.graph = balance.NewGraph(int(nm), groups, slotFrom)
	V := net.sink + 1
	net.pi = make([]cost, V)
	net.dist = make([]cost, V)
	net.done = make([]bool, V)
	net.level = make([]int32, V)
	net.cur = make([]int32, V)
}

// degree is the number of arcs out of node u (residual or not).
func (net *flowNetwork) degree(u int32) int32 {
	switch {
	case u == 0:
		return int32(len(net.hubs))
	case u < net.nMember:
		return 2 * int32(len(net.sol.sets[net.sol.hubSet[net.hubs[u-1]]]))
	case u < net.sink:
		m := u - net.nMember
		return 2 + 2*(net.graph.MemberFrom[m+1]-net.graph.MemberFrom[m])
	}
	return 0
}

// arc returns arc i of node u: its head, its cost, and whether it has
// residual capacity.
func (net *flowNetwork) arc(u, i int32) (int32, cost, bool) {
	switch {
	case u == 0:
		return 1 + i, cost{}, net.sent[i] < net.size[i]
	case u < net.nMember:
		h := net.hubs[u-1]
		set := net.sol.sets[net.sol.hubSet[h]]
		g := net.f.hubOff[h] + i/2
		v := net.nMember + set[i/2]
		if i%2 == 0 {
			return v, cost{rackMisses: net.miss(g)}, net.flowKept[g] < net.own[g]
		}
		return v, cost{rackMisses: net.miss(g), moves: 1}, true
	case u < net.sink:
		m := u - net.nMember
		switch i {
		case 0: // free up to the band's low end
			return net.sink, cost{}, net.load[m] < net.lo[m]
		case 1: // one more, to the band's high end
			return net.sink, cost{load: 2*int64(net.lo[m]) + 1}, net.load[m] >= net.lo[m] && net.load[m] < net.hi[m]
		}
		i -= 2
		x := net.graph.MemberFrom[m] + i/2
		j, g := net.graph.MemberGroup[x], net.graph.MemberSlot[x]
		if i%2 == 0 {
			return 1 + j, cost{rackMisses: -net.miss(g)}, net.flowKept[g] > 0
		}
		return 1 + j, cost{rackMisses: -net.miss(g), moves: -1}, net.flowMoved[g] > 0
	}
	return 0, cost{}, false
}

// outArc is one residual arc out of a node: its index, head and cost.
type outArc struct {
	i, v int32
	c    cost
}

// residual appends to buf the arcs out of u that have residual capacity.
// It is arc over every index, with the per-node lookups hoisted: the hot
// loop of the Dijkstra and BFS passes.
func (net *flowNetwork) residual(u int32, buf []outArc) []outArc {
	sol := net.sol
	switch {
	case u == 0:
		for j := range net.hubs {
			if net.sent[j] < net.size[j] {
				buf = append(buf, outArc{int32(j), 1 + int32(j), cost{}})
			}
		}
	case u < net.nMember:
		h := net.hubs[u-1]
		off := net.f.hubOff[h]
		for p, m := range sol.sets[sol.hubSet[h]] {
			g := off + int32(p)
			miss := net.miss(g)
			v := net.nMember + m
			if net.flowKept[g] < net.own[g] {
				buf = append(buf, outArc{2 * int32(p), v, cost{rackMisses: miss}})
			}
			buf = append(buf, outArc{2*int32(p) + 1, v, cost{rackMisses: miss, moves: 1}})
		}
	case u < net.sink:
		m := u - net.nMember
		if net.load[m] < net.lo[m] {
			buf = append(buf, outArc{0, net.sink, cost{}})
		} else if net.load[m] < net.hi[m] {
			buf = append(buf, outArc{1, net.sink, cost{load: 2*int64(net.lo[m]) + 1}})
		}
		from, to := net.graph.MemberFrom[m], net.graph.MemberFrom[m+1]
		for x := from; x < to; x++ {
			j, g := net.graph.MemberGroup[x], net.graph.MemberSlot[x]
			i := 2 + 2*(x-from)
			if net.flowKept[g] > 0 {
				buf = append(buf, outArc{i, 1 + j, cost{rackMisses: -net.miss(g)}})
			}
			if net.flowMoved[g] > 0 {
				buf = append(buf, outArc{i + 1, 1 + j, cost{rackMisses: -net.miss(g), moves: -1}})
			}
		}
	}
	return buf
}

// capacity returns the residual capacity of arc i of node u (which must
// have some), capped at limit.
func (net *flowNetwork) capacity(u, i, limit int32) int32 {
	switch {
	case u == 0:
		return min(limit, net.size[i]-net.sent[i])
	case u < net.nMember:
		if i%2 == 0 {
			g := net.f.hubOff[net.hubs[u-1]] + i/2
			return min(limit, net.own[g]-net.flowKept[g])
		}
		return limit
	case u < net.sink:
		m := u - net.nMember
		switch i {
		case 0:
			return min(limit, net.lo[m]-net.load[m])
		case 1:
			return min(limit, net.hi[m]-net.load[m])
		}
		i -= 2
		g := net.graph.MemberSlot[net.graph.MemberFrom[m]+i/2]
		if i%2 == 0 {
			return min(limit, net.flowKept[g])
		}
		return min(limit, net.flowMoved[g])
	}
	return 0
}

// push sends n units along arc i of node u.
func (net *flowNetwork) push(u, i, n int32) {
	switch {
	case u == 0:
		net.sent[i] += n
	case u < net.nMember:
		g := net.f.hubOff[net.hubs[u-1]] + i/2
		if i%2 == 0 {
			net.flowKept[g] += n
		} else {
			net.flowMoved[g] += n
		}
	case u < net.sink:
		m := u - net.nMember
		if i < 2 {
			net.load[m] += n
			return
		}
		i -= 2
		g := net.graph.MemberSlot[net.graph.MemberFrom[m]+i/2]
		if i%2 == 0 {
			net.flowKept[g] -= n
		} else {
			net.flowMoved[g] -= n
		}
	}
}

// miss is 1 if the member of slot g is not in the hub's rack set.
func (net *flowNetwork) miss(g int32) int64 {
	if net.missGive[g] {
		return 1
	}
	return 0
}
