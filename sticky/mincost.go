package sticky

// The min-cost flow algorithm on a flowNetwork: primal-dual successive
// shortest paths (a Dijkstra over reduced costs gives new potentials, then
// Dinic blocking flows over the zero-reduced-cost arcs push in bulk).

// cost is a lexicographic cost: load first (the convex balance cost), then
// rack misses, then moves: criteria (1) to (3) of the package doc.
type cost struct{ load, rackMisses, moves int64 }

func (a cost) less(b cost) bool {
	switch {
	case a.load != b.load:
		return a.load < b.load
	case a.rackMisses != b.rackMisses:
		return a.rackMisses < b.rackMisses
	}
	return a.moves < b.moves
}

func (a cost) add(b cost) cost {
	return cost{a.load + b.load, a.rackMisses + b.rackMisses, a.moves + b.moves}
}

func (a cost) sub(b cost) cost {
	return cost{a.load - b.load, a.rackMisses - b.rackMisses, a.moves - b.moves}
}

func (net *flowNetwork) run() {
	var supply int64
	for _, n := range net.size {
		supply += int64(n)
	}
	for supply > 0 {
		if !net.dijkstra() {
			return // unreachable: the bands leave room for every partition
		}
		for supply > 0 && net.levels() {
			for i := range net.cur {
				net.cur[i] = 0
			}
			for supply > 0 {
				n := net.augment(0, int32(min(supply, 1<<30)))
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
func (net *flowNetwork) dijkstra() bool {
	for i := range net.done {
		net.done[i] = false
	}
	inf := cost{load: 1 << 62}
	for i := range net.dist {
		net.dist[i] = inf
	}
	net.dist[0] = cost{}
	net.heap = net.heap[:0]
	net.heap.push(heapItem{cost{}, 0})
	for len(net.heap) > 0 {
		it := net.heap.pop()
		u := it.v
		if net.done[u] || net.dist[u] != it.c {
			continue
		}
		net.done[u] = true
		if u == net.sink {
			break
		}
		du, pu := net.dist[u], net.pi[u]
		net.out = net.residual(u, net.out[:0])
		for _, a := range net.out {
			v := a.v
			if net.done[v] {
				continue
			}
			d := du.add(a.c).add(pu).sub(net.pi[v])
			if d.less(net.dist[v]) {
				net.dist[v] = d
				net.heap.push(heapItem{d, v})
			}
		}
	}
	if !net.done[net.sink] {
		return false
	}
	dt := net.dist[net.sink]
	for v := range net.pi {
		d := dt
		if net.done[v] && net.dist[v].less(dt) {
			d = net.dist[v]
		}
		net.pi[v] = net.pi[v].add(d)
	}
	return true
}

func (net *flowNetwork) admissible(u, v int32, c cost) bool {
	return c.add(net.pi[u]) == net.pi[v]
}

// levels numbers the nodes by BFS over admissible residual arcs and reports
// whether the sink is reachable.
func (net *flowNetwork) levels() bool {
	for i := range net.level {
		net.level[i] = -1
	}
	net.level[0] = 0
	q := append(net.queue[:0], 0)
	for h := 0; h < len(q); h++ {
		u := q[h]
		if u == net.sink {
			continue
		}
		if net.level[net.sink] >= 0 && net.level[u] >= net.level[net.sink] {
			break // deeper nodes cannot be on a shortest augmenting path
		}
		net.out = net.residual(u, net.out[:0])
		for _, a := range net.out {
			if v := a.v; net.level[v] < 0 && net.admissible(u, v, a.c) {
				net.level[v] = net.level[u] + 1
				q = append(q, v)
			}
		}
	}
	net.queue = q
	return net.level[net.sink] >= 0
}

// augment pushes up to limit units from u to the sink along admissible
// arcs that go one level up, advancing each node's current arc past dead
// ends, and returns how many it pushed.
func (net *flowNetwork) augment(u, limit int32) int32 {
	if u == net.sink {
		return limit
	}
	var pushed int32
	for n := net.degree(u); net.cur[u] < n && pushed < limit; {
		i := net.cur[u]
		v, c, ok := net.arc(u, i)
		if !ok || net.level[v] != net.level[u]+1 || !net.admissible(u, v, c) {
			net.cur[u]++
			continue
		}
		got := net.augment(v, net.capacity(u, i, limit-pushed))
		if got == 0 {
			net.cur[u]++
			continue
		}
		net.push(u, i, got)
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
