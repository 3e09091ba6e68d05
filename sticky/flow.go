package sticky

import "slices"

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

func (pr *problem) newFlows() *flows {
	f := &flows{keep: make([]int32, len(pr.classHub)), hubOff: make([]int32, len(pr.hubSet)+1)}
	for h, s := range pr.hubSet {
		f.hubOff[h+1] = f.hubOff[h] + int32(len(pr.sets[s]))
	}
	f.give = make([]int32, f.hubOff[len(pr.hubSet)])
	return f
}

// cost is a lexicographic cost: load first (the convex balance cost), then
// rm, which packs the rack misses (times rackWeight) and the moves.
type cost struct{ load, rm int64 }

func (a cost) less(b cost) bool {
	return a.load < b.load || (a.load == b.load && a.rm < b.rm)
}
func (a cost) add(b cost) cost { return cost{a.load + b.load, a.rm + b.rm} }
func (a cost) sub(b cost) cost { return cost{a.load - b.load, a.rm - b.rm} }

// network is the min-cost flow of the general case, on hubs rather than
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
// order, because cost compares lexicographically. Rack misses weigh
// rackWeight, more than any sum of move costs along a path, so the two
// share one int64 without mixing.
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
type network struct {
	pr *problem
	f  *flows

	hubs       []int32 // network hub -> hub
	rackWeight int64

	size, sent []int32 // per network hub
	// Per hub and position in its set, aligned with f.give: what the member
	// owns there, the flow on arcs A and B, and whether it is a rack miss.
	own, flowA, flowB []int32
	missGive          []bool
	load              []int32
	lo, hi            []int32 // per member: the band of optimal loads

	memberHubFrom        []int32 // CSR: member -> (network hub, position)
	memberHub, memberPos []int32

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
func (pr *problem) solveFlow() *flows {
	f := pr.newFlows()
	nw := &network{pr: pr, f: f, load: make([]int32, pr.members)}
	n := len(f.give)
	nw.own = make([]int32, n)
	nw.flowA = make([]int32, n)
	nw.flowB = make([]int32, n)
	hubSize := make([]int32, len(pr.hubSet))
	for c, h := range pr.classHub {
		hubSize[h] += pr.classSize[c]
		if o := pr.classOwner[c]; o >= 0 {
			set := pr.sets[pr.hubSet[h]]
			i, _ := slices.BinarySearch(set, o)
			nw.own[f.hubOff[h]+int32(i)] += pr.classSize[c]
		}
	}
	for h, s := range pr.hubSet {
		if set := pr.sets[s]; len(set) == 1 {
			// No choice: the one subscriber takes the hub.
			nw.flowA[f.hubOff[h]] = nw.own[f.hubOff[h]]
			nw.flowB[f.hubOff[h]] = hubSize[h] - nw.own[f.hubOff[h]]
			nw.load[set[0]] += hubSize[h]
			continue
		}
		nw.hubs = append(nw.hubs, int32(h))
		nw.size = append(nw.size, hubSize[h])
	}
	if len(nw.hubs) > 0 {
		nw.build()
		nw.lo, nw.hi = nw.bands(nw.optimalLoads())
		nw.run()
	}
	for c, h := range pr.classHub {
		if o := pr.classOwner[c]; o >= 0 {
			set := pr.sets[pr.hubSet[h]]
			i, _ := slices.BinarySearch(set, o)
			g := f.hubOff[h] + int32(i)
			f.keep[c] = min(nw.own[g], nw.flowA[g]+nw.flowB[g])
		}
	}
	for g := range f.give {
		f.give[g] = nw.flowA[g] + nw.flowB[g] - min(nw.own[g], nw.flowA[g]+nw.flowB[g])
	}
	return f
}

func (nw *network) build() {
	pr := nw.pr
	nh, nm := int32(len(nw.hubs)), int32(pr.members)
	nw.nMember = 1 + nh
	nw.sink = 1 + nh + nm
	nw.rackWeight = 8*int64(nw.sink+1) + 8
	nw.sent = make([]int32, nh)
	nw.missGive = make([]bool, len(nw.f.give))
	hubCount := make([]int32, nm+1)
	for _, h := range nw.hubs {
		off := nw.f.hubOff[h]
		for i, m := range pr.sets[pr.hubSet[h]] {
			nw.missGive[off+int32(i)] = !pr.local(pr.hubRack[h], m)
			hubCount[m+1]++
		}
	}
	for m := range nm {
		hubCount[m+1] += hubCount[m]
	}
	nw.memberHubFrom = hubCount
	nw.memberHub = make([]int32, hubCount[nm])
	nw.memberPos = make([]int32, hubCount[nm])
	fill := make([]int32, nm)
	for j, h := range nw.hubs {
		for i, m := range pr.sets[pr.hubSet[h]] {
			k := nw.memberHubFrom[m] + fill[m]
			nw.memberHub[k], nw.memberPos[k] = int32(j), int32(i)
			fill[m]++
		}
	}
	V := nw.sink + 1
	nw.pi = make([]cost, V)
	nw.dist = make([]cost, V)
	nw.done = make([]bool, V)
	nw.level = make([]int32, V)
	nw.cur = make([]int32, V)
}

// degree is the number of arcs out of node u (residual or not).
func (nw *network) degree(u int32) int32 {
	switch {
	case u == 0:
		return int32(len(nw.hubs))
	case u < nw.nMember:
		return 2 * int32(len(nw.pr.sets[nw.pr.hubSet[nw.hubs[u-1]]]))
	case u < nw.sink:
		m := u - nw.nMember
		return 2 + 2*(nw.memberHubFrom[m+1]-nw.memberHubFrom[m])
	}
	return 0
}

// arc returns arc i of node u: its head, its cost, and whether it has
// residual capacity.
func (nw *network) arc(u, i int32) (int32, cost, bool) {
	switch {
	case u == 0:
		return 1 + i, cost{}, nw.sent[i] < nw.size[i]
	case u < nw.nMember:
		h := nw.hubs[u-1]
		set := nw.pr.sets[nw.pr.hubSet[h]]
		g := nw.f.hubOff[h] + i/2
		v := nw.nMember + set[i/2]
		if i%2 == 0 {
			return v, cost{rm: nw.miss(g)}, nw.flowA[g] < nw.own[g]
		}
		return v, cost{rm: nw.miss(g) + 1}, true
	case u < nw.sink:
		m := u - nw.nMember
		switch i {
		case 0: // free up to the band's low end
			return nw.sink, cost{}, nw.load[m] < nw.lo[m]
		case 1: // one more, to the band's high end
			return nw.sink, cost{load: 2*int64(nw.lo[m]) + 1}, nw.load[m] >= nw.lo[m] && nw.load[m] < nw.hi[m]
		}
		i -= 2
		x := nw.memberHubFrom[m] + i/2
		j := nw.memberHub[x]
		g := nw.f.hubOff[nw.hubs[j]] + nw.memberPos[x]
		if i%2 == 0 {
			return 1 + j, cost{rm: -nw.miss(g)}, nw.flowA[g] > 0
		}
		return 1 + j, cost{rm: -nw.miss(g) - 1}, nw.flowB[g] > 0
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
func (nw *network) residual(u int32, buf []outArc) []outArc {
	pr := nw.pr
	switch {
	case u == 0:
		for j := range nw.hubs {
			if nw.sent[j] < nw.size[j] {
				buf = append(buf, outArc{int32(j), 1 + int32(j), cost{}})
			}
		}
	case u < nw.nMember:
		h := nw.hubs[u-1]
		off := nw.f.hubOff[h]
		for p, m := range pr.sets[pr.hubSet[h]] {
			g := off + int32(p)
			miss := nw.miss(g)
			v := nw.nMember + m
			if nw.flowA[g] < nw.own[g] {
				buf = append(buf, outArc{2 * int32(p), v, cost{rm: miss}})
			}
			buf = append(buf, outArc{2*int32(p) + 1, v, cost{rm: miss + 1}})
		}
	case u < nw.sink:
		m := u - nw.nMember
		if nw.load[m] < nw.lo[m] {
			buf = append(buf, outArc{0, nw.sink, cost{}})
		} else if nw.load[m] < nw.hi[m] {
			buf = append(buf, outArc{1, nw.sink, cost{load: 2*int64(nw.lo[m]) + 1}})
		}
		for x := nw.memberHubFrom[m]; x < nw.memberHubFrom[m+1]; x++ {
			j := nw.memberHub[x]
			g := nw.f.hubOff[nw.hubs[j]] + nw.memberPos[x]
			i := 2 + 2*(x-nw.memberHubFrom[m])
			if nw.flowA[g] > 0 {
				buf = append(buf, outArc{i, 1 + j, cost{rm: -nw.miss(g)}})
			}
			if nw.flowB[g] > 0 {
				buf = append(buf, outArc{i + 1, 1 + j, cost{rm: -nw.miss(g) - 1}})
			}
		}
	}
	return buf
}

// capacity returns the residual capacity of arc i of node u (which must
// have some), capped at limit.
func (nw *network) capacity(u, i, limit int32) int32 {
	switch {
	case u == 0:
		return min(limit, nw.size[i]-nw.sent[i])
	case u < nw.nMember:
		if i%2 == 0 {
			g := nw.f.hubOff[nw.hubs[u-1]] + i/2
			return min(limit, nw.own[g]-nw.flowA[g])
		}
		return limit
	case u < nw.sink:
		m := u - nw.nMember
		switch i {
		case 0:
			return min(limit, nw.lo[m]-nw.load[m])
		case 1:
			return min(limit, nw.hi[m]-nw.load[m])
		}
		i -= 2
		x := nw.memberHubFrom[m] + i/2
		g := nw.f.hubOff[nw.hubs[nw.memberHub[x]]] + nw.memberPos[x]
		if i%2 == 0 {
			return min(limit, nw.flowA[g])
		}
		return min(limit, nw.flowB[g])
	}
	return 0
}

// push sends n units along arc i of node u.
func (nw *network) push(u, i, n int32) {
	switch {
	case u == 0:
		nw.sent[i] += n
	case u < nw.nMember:
		g := nw.f.hubOff[nw.hubs[u-1]] + i/2
		if i%2 == 0 {
			nw.flowA[g] += n
		} else {
			nw.flowB[g] += n
		}
	case u < nw.sink:
		m := u - nw.nMember
		if i < 2 {
			nw.load[m] += n
			return
		}
		i -= 2
		x := nw.memberHubFrom[m] + i/2
		g := nw.f.hubOff[nw.hubs[nw.memberHub[x]]] + nw.memberPos[x]
		if i%2 == 0 {
			nw.flowA[g] -= n
		} else {
			nw.flowB[g] -= n
		}
	}
}

func (nw *network) miss(g int32) int64 {
	if nw.missGive[g] {
		return nw.rackWeight
	}
	return 0
}

func (nw *network) run() {
	var supply int64
	for _, n := range nw.size {
		supply += int64(n)
	}
	for supply > 0 {
		if !nw.dijkstra() {
			return // unreachable: the bands leave room for every partition
		}
		for supply > 0 && nw.levels() {
			for i := range nw.cur {
				nw.cur[i] = 0
			}
			for supply > 0 {
				n := nw.augment(0, int32(min(supply, 1<<30)))
				if n == 0 {
					break
				}
				supply -= int64(n)
			}
		}
	}
}

// dijkstra computes shortest reduced distances from the source, stopping
// once the sink is settled, and adds min(distance, sink distance) to every
// potential, which keeps all reduced costs non-negative.
func (nw *network) dijkstra() bool {
	for i := range nw.done {
		nw.done[i] = false
	}
	inf := cost{load: 1 << 62}
	for i := range nw.dist {
		nw.dist[i] = inf
	}
	nw.dist[0] = cost{}
	nw.heap = nw.heap[:0]
	nw.heap.push(heapItem{cost{}, 0})
	for len(nw.heap) > 0 {
		it := nw.heap.pop()
		u := it.v
		if nw.done[u] || nw.dist[u] != it.c {
			continue
		}
		nw.done[u] = true
		if u == nw.sink {
			break
		}
		du, pu := nw.dist[u], nw.pi[u]
		nw.out = nw.residual(u, nw.out[:0])
		for _, a := range nw.out {
			v := a.v
			if nw.done[v] {
				continue
			}
			d := du.add(a.c).add(pu).sub(nw.pi[v])
			if d.less(nw.dist[v]) {
				nw.dist[v] = d
				nw.heap.push(heapItem{d, v})
			}
		}
	}
	if !nw.done[nw.sink] {
		return false
	}
	dt := nw.dist[nw.sink]
	for v := range nw.pi {
		d := dt
		if nw.done[v] && nw.dist[v].less(dt) {
			d = nw.dist[v]
		}
		nw.pi[v] = nw.pi[v].add(d)
	}
	return true
}

func (nw *network) admissible(u, v int32, c cost) bool {
	return c.add(nw.pi[u]) == nw.pi[v]
}

// levels numbers the nodes by BFS over admissible residual arcs and reports
// whether the sink is reachable.
func (nw *network) levels() bool {
	for i := range nw.level {
		nw.level[i] = -1
	}
	nw.level[0] = 0
	q := append(nw.queue[:0], 0)
	for h := 0; h < len(q); h++ {
		u := q[h]
		if u == nw.sink {
			continue
		}
		if nw.level[nw.sink] >= 0 && nw.level[u] >= nw.level[nw.sink] {
			break // deeper nodes cannot be on a shortest augmenting path
		}
		nw.out = nw.residual(u, nw.out[:0])
		for _, a := range nw.out {
			if v := a.v; nw.level[v] < 0 && nw.admissible(u, v, a.c) {
				nw.level[v] = nw.level[u] + 1
				q = append(q, v)
			}
		}
	}
	nw.queue = q
	return nw.level[nw.sink] >= 0
}

// augment pushes up to limit units from u to the sink along admissible
// arcs that go one level up, advancing each node's current arc past dead
// ends, and returns how many it pushed.
func (nw *network) augment(u, limit int32) int32 {
	if u == nw.sink {
		return limit
	}
	var pushed int32
	for n := nw.degree(u); nw.cur[u] < n && pushed < limit; {
		i := nw.cur[u]
		v, c, ok := nw.arc(u, i)
		if !ok || nw.level[v] != nw.level[u]+1 || !nw.admissible(u, v, c) {
			nw.cur[u]++
			continue
		}
		got := nw.augment(v, nw.capacity(u, i, limit-pushed))
		if got == 0 {
			nw.cur[u]++
			continue
		}
		nw.push(u, i, got)
		pushed += got
	}
	return pushed
}

type heapItem struct {
	c cost
	v int32
}

type costHeap []heapItem

func (h *costHeap) push(it heapItem) {
	*h = append(*h, it)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].c.less(s[p].c) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *costHeap) pop() heapItem {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && s[r].c.less(s[l].c) {
			m = r
		}
		if !s[m].c.less(s[i].c) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}
