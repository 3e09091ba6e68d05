package weighted

import "slices"

// plan is a (possibly partial) assignment and what the search needs to
// read off it quickly.
type plan struct {
	weight []int64 // per partition; shared with the solver, read-only

	holder []int32 // per partition: member, or -1
	load   []int64 // per member: the weight it holds
	count  []int32 // per member: the partitions it holds
	// held[m] is member m's partitions by weight descending, then
	// partition ascending (the order placement deals them in), and tail[m]
	// the weight of its last (so that appending in that order reads no
	// other partition's weight).
	held [][]int32
	tail []int64
}

// newPlan returns an empty plan, member m's list sized for capacity[m]
// partitions and one more, which a swap holds for a moment (it grows
// beyond if it must).
func newPlan(weight []int64, members int, capacity []int32) *plan {
	pl := &plan{
		weight: weight,
		holder: make([]int32, len(weight)),
		load:   make([]int64, members),
		count:  make([]int32, members),
		held:   make([][]int32, members),
		tail:   make([]int64, members),
	}
	for p := range pl.holder {
		pl.holder[p] = -1
	}
	var total int
	for _, c := range capacity {
		total += int(c) + 1
	}
	backing := make([]int32, total)
	at := 0
	for m, c := range capacity {
		pl.held[m] = backing[at : at : at+int(c)+1]
		at += int(c) + 1
	}
	return pl
}

// before reports whether partition p comes before q in a held list.
func (pl *plan) before(p, q int32) bool {
	wp, wq := pl.weight[p], pl.weight[q]
	return wp > wq || (wp == wq && p < q)
}

// add gives unheld partition p to member m.
func (pl *plan) add(p, m int32) { pl.addWeighted(p, m, pl.weight[p]) }

// addWeighted is add for a partition of weight w.
func (pl *plan) addWeighted(p, m int32, w int64) {
	list := pl.held[m]
	if n := len(list); n == 0 || w < pl.tail[m] || (w == pl.tail[m] && p > list[n-1]) {
		pl.held[m] = append(list, p)
		pl.tail[m] = w
	} else {
		i, _ := slices.BinarySearchFunc(list, p, pl.order)
		pl.held[m] = slices.Insert(list, i, p)
	}
	pl.holder[p] = m
	pl.load[m] += w
	pl.count[m]++
}

// addUnsorted gives unheld partition p of weight w to member m, appending
// it to m's list even out of order, and reports whether it is out of
// order; resort restores the order. Placement adds a partition to every
// member's list in turn, most of them ahead of partitions the member kept,
// and sorting each list once is cheaper than inserting one at a time.
func (pl *plan) addUnsorted(p, m int32, w int64) bool {
	list := pl.held[m]
	n := len(list)
	sorted := n == 0 || w < pl.tail[m] || (w == pl.tail[m] && p > list[n-1])
	pl.held[m] = append(list, p)
	if sorted {
		pl.tail[m] = w
	}
	pl.holder[p] = m
	pl.load[m] += w
	pl.count[m]++
	return !sorted
}

// resort sorts the held lists of the members in dirty (repeats allowed).
func (pl *plan) resort(dirty []int32) {
	for _, m := range dirty {
		list := pl.held[m]
		if slices.IsSortedFunc(list, pl.order) {
			continue
		}
		slices.SortFunc(list, pl.order)
		pl.tail[m] = pl.weight[list[len(list)-1]]
	}
}

// order compares partitions as held lists sort them.
func (pl *plan) order(p, q int32) int {
	switch {
	case p == q:
		return 0
	case pl.before(p, q):
		return -1
	}
	return 1
}

// remove takes held partition p from its holder.
func (pl *plan) remove(p int32) {
	m := pl.holder[p]
	list := pl.held[m]
	i, _ := slices.BinarySearchFunc(list, p, pl.order)
	pl.held[m] = slices.Delete(list, i, i+1)
	if n := len(list) - 1; i == n && n > 0 {
		pl.tail[m] = pl.weight[list[n-1]]
	}
	pl.holder[p] = -1
	pl.load[m] -= pl.weight[p]
	pl.count[m]--
}

// move gives held partition p to member m.
func (pl *plan) move(p, m int32) {
	pl.remove(p)
	pl.add(p, m)
}

// clone returns a deep copy sharing only the weights.
func (pl *plan) clone() *plan {
	c := &plan{
		weight: pl.weight,
		holder: slices.Clone(pl.holder),
		load:   slices.Clone(pl.load),
		count:  slices.Clone(pl.count),
		held:   make([][]int32, len(pl.held)),
		tail:   slices.Clone(pl.tail),
	}
	var total int
	for _, list := range pl.held {
		total += cap(list)
	}
	backing := make([]int32, total)
	at := 0
	for m, list := range pl.held {
		c.held[m] = append(backing[at:at:at+cap(list)], list...)
		at += cap(list)
	}
	return c
}

// maxLoad returns the heaviest member's load (0 with no members).
func (pl *plan) maxLoad() int64 {
	var top int64
	for _, l := range pl.load {
		top = max(top, l)
	}
	return top
}

// squares returns the sum of squared loads.
func (pl *plan) squares() wide {
	var q wide
	for _, l := range pl.load {
		q = q.add(square(l))
	}
	return q
}
