package balance

import "slices"

// Graph is the exchange graph of a group: members, and groups of
// partitions (subscriber sets, or sticky's hubs of a subscriber set and a
// rack set) that a group's members may pass each other. Each (group,
// member of the group) pair is a slot: a caller keeps per slot how many of
// the group's partitions the member holds, and a partition can pass from
// member u to member v through a group where u's slot holds some and v is
// a member. Slots of one group are consecutive: member i of group g (in
// the ascending order of Members[g]) is slot SlotFrom[g]+i.
//
// Example: topics t0 (subscribers A, B) and t1 (B, C) make groups 0 = {A,
// B} with slots 0, 1 and 1 = {B, C} with slots 2, 3. If A holds t0's
// partitions and B holds t1's, a partition of t0 can pass A → B and one of
// t1 B → C, so one partition moves A → B → C along a chain.
type Graph struct {
	// Members[g] are group g's members, ascending, distinct.
	Members [][]int32
	// SlotFrom[g] is the slot of group g's first member.
	SlotFrom []int32
	// Per member m, its groups and its slots in them:
	// MemberGroup[MemberFrom[m]:MemberFrom[m+1]], ascending, and MemberSlot
	// alongside.
	MemberFrom  []int32
	MemberGroup []int32
	MemberSlot  []int32
}

// NewGraph returns the graph of the given groups over members 0..members-1.
// groups[g] must be ascending and distinct; it is kept, not copied. With
// slotFrom nil, slots are numbered group after group from 0 (SlotFrom[g] is
// the sum of the earlier groups' sizes, and SlotFrom has one more entry, the
// number of slots); otherwise slotFrom gives each group's first slot and is
// kept. O(members + Σ|groups[g]|).
func NewGraph(members int, groups [][]int32, slotFrom []int32) Graph {
	g := Graph{Members: groups, SlotFrom: slotFrom}
	if slotFrom == nil {
		g.SlotFrom = make([]int32, len(groups)+1)
		for j, set := range groups {
			g.SlotFrom[j+1] = g.SlotFrom[j] + int32(len(set))
		}
	}
	// Count each member's groups into MemberFrom[m+1], and use
	// MemberFrom[m] as member m's fill cursor: after the fill it has
	// reached MemberFrom[m+1]'s final value, so one shift restores the
	// offsets.
	g.MemberFrom = make([]int32, members+1)
	for _, set := range groups {
		for _, m := range set {
			g.MemberFrom[m+1]++
		}
	}
	for m := range members {
		g.MemberFrom[m+1] += g.MemberFrom[m]
	}
	n := g.MemberFrom[members]
	backing := make([]int32, 2*n)
	g.MemberGroup, g.MemberSlot = backing[:n:n], backing[n:]
	for j, set := range groups {
		for i, m := range set {
			k := g.MemberFrom[m]
			g.MemberGroup[k] = int32(j)
			g.MemberSlot[k] = g.SlotFrom[j] + int32(i)
			g.MemberFrom[m]++
		}
	}
	copy(g.MemberFrom[1:], g.MemberFrom[:members])
	g.MemberFrom[0] = 0
	return g
}

// NumMembers is the number of members.
func (g *Graph) NumMembers() int { return len(g.MemberFrom) - 1 }

// GroupsOf returns the groups member m belongs to, ascending.
func (g *Graph) GroupsOf(m int32) []int32 {
	return g.MemberGroup[g.MemberFrom[m]:g.MemberFrom[m+1]]
}

// SlotsOf returns member m's slots, alongside GroupsOf(m).
func (g *Graph) SlotsOf(m int32) []int32 {
	return g.MemberSlot[g.MemberFrom[m]:g.MemberFrom[m+1]]
}

// Slot returns the slot of member m in group j, and whether m is a member
// of j. O(log |Members[j]|).
func (g *Graph) Slot(j, m int32) (int32, bool) {
	i, ok := slices.BinarySearch(g.Members[j], m)
	return g.SlotFrom[j] + int32(i), ok
}

// Walk is a breadth-first search over a Graph, along the slots that hold
// something: from a member u, through each group where u's slot holds a
// partition, to the group's other members (Forward); or against that
// direction, from a member to the members that could pass it a partition
// (Backward). Each group is crossed once per search. A Walk is reused
// across searches (Reset); it reads held as it is at each step, so the
// caller may change the holdings between searches.
type Walk struct {
	g    *Graph
	held []int32 // per slot
	seen []bool  // per member
	// groupSeen[j]: group j was crossed in this search.
	groupSeen []bool
	// Parent[v] is the member next to v on the chain back to a start (-1 at
	// a start): forward, the member that passes to v; backward, the member
	// v passes to. ParentGroup[v] is the group the partition passes
	// through, and ParentSlot[v] the slot it leaves: forward the parent's,
	// backward v's own.
	Parent, ParentGroup, ParentSlot []int32
	// Queue holds the members reached so far, starts first, in the order
	// they were reached.
	Queue []int32
}

// NewWalk returns a walk over g's slots holding held[slot] each (kept, and
// read at every step).
func NewWalk(g *Graph, held []int32) *Walk {
	n := g.NumMembers()
	seen := make([]bool, n+len(g.Members))
	chain := make([]int32, 3*n)
	return &Walk{
		g: g, held: held,
		seen: seen[:n:n], groupSeen: seen[n:],
		Parent: chain[:n:n], ParentGroup: chain[n : 2*n : 2*n], ParentSlot: chain[2*n:],
	}
}

// Reset clears the search: no member seen, no group crossed, an empty
// queue.
func (w *Walk) Reset() {
	clear(w.seen)
	clear(w.groupSeen)
	w.Queue = w.Queue[:0]
}

// Start queues member m as a starting point.
func (w *Walk) Start(m int32) {
	w.seen[m] = true
	w.Parent[m] = -1
	w.Queue = append(w.Queue, m)
}

// Seen reports whether member m was started from or reached.
func (w *Walk) Seen(m int32) bool { return w.seen[m] }

// Forward searches from the queued members over the members not blocked
// (blocked may be nil): from u through every group where u's slot holds
// something, to the group's members. It calls stop on each member it
// reaches, once, and returns the first one stop accepts (the chain runs
// back from it through Parent), or -1 when none does (Queue then holds
// every member reached). O(slots + Σ|Members|) per search.
func (w *Walk) Forward(blocked []bool, stop func(m int32) bool) int32 {
	g := w.g
	for head := 0; head < len(w.Queue); head++ {
		u := w.Queue[head]
		for k := g.MemberFrom[u]; k < g.MemberFrom[u+1]; k++ {
			j, slot := g.MemberGroup[k], g.MemberSlot[k]
			if w.groupSeen[j] || w.held[slot] == 0 {
				continue
			}
			w.groupSeen[j] = true
			for _, v := range g.Members[j] {
				if w.seen[v] || (blocked != nil && blocked[v]) {
					continue
				}
				w.seen[v] = true
				w.Parent[v], w.ParentGroup[v], w.ParentSlot[v] = u, j, slot
				if stop(v) {
					return v
				}
				w.Queue = append(w.Queue, v)
			}
		}
	}
	return -1
}

// Backward searches from the queued members against the direction of
// Forward: from a member v through every group v belongs to, to the
// group's members whose slot holds something (they could pass v a
// partition). It calls stop on each member it reaches, once, and returns
// the first one stop accepts (the chain runs from it through Parent to a
// start), or -1 when none does. Cost as for Forward.
func (w *Walk) Backward(stop func(m int32) bool) int32 {
	g := w.g
	for head := 0; head < len(w.Queue); head++ {
		v := w.Queue[head]
		for k := g.MemberFrom[v]; k < g.MemberFrom[v+1]; k++ {
			j := g.MemberGroup[k]
			if w.groupSeen[j] {
				continue
			}
			w.groupSeen[j] = true
			from := g.SlotFrom[j]
			for i, u := range g.Members[j] {
				slot := from + int32(i)
				if w.seen[u] || w.held[slot] == 0 {
					continue
				}
				w.seen[u] = true
				w.Parent[u], w.ParentGroup[u], w.ParentSlot[u] = v, j, slot
				if stop(u) {
					return u
				}
				w.Queue = append(w.Queue, u)
			}
		}
	}
	return -1
}
