package weighted

import (
	"math"
	"slices"
)

// memberTrees are what placement picks members from: a tournament over the
// members of each subscriber set and, when racks are in play, one over the
// members of each (set, member rack). A member competes while it has room
// (count below its maximum). The key is the member's load, or, for placing
// idle partitions, its count minus its count-balanced low (see key); ties
// go to the lower member number.
//
// Keys only grow while the trees are in use, so they are refreshed lazily:
// a winner whose key is out of date is re-keyed and the tournament
// replayed, and one whose member is full is retired there. A member is a
// leaf of every tree of its sets, so a pick costs O(log k) for a set of k
// members however often its members changed through other trees. (A
// tournament rather than a heap: replaying a path compares two siblings
// per level, with no early exit to mispredict, and placement does one
// replay per partition.)
type memberTrees struct {
	pl       *plan
	maxCount []int32
	base     []int32 // non-nil: the key is count − base[m] (see key); nil: load
	sets     *subscriberSets
	trees    []tournament

	// Per set s, its rack trees: rackOf[rackFrom[s]:rackFrom[s+1]] are the
	// member racks of its members, ascending, and tree len(sets)+j belongs
	// to entry j.
	rackFrom []int32
	rackOf   []int32
}

// retired is the key of a leaf that no longer competes.
const retired = math.MaxInt64

// tournament is a winner tree of fan-out four: node i's children are
// 4i+1..4i+4, leaves (the last size nodes) are members[j] for j <
// len(members) and retired padding after. A node holds its subtree's winner:
// the lowest key, the leftmost on a tie (the lower member, as members
// ascend), and the winner's key, so a replay reads one run of four
// neighbouring nodes per level (a cache line, as node storage starts three
// nodes in): half the levels of a binary tree, each one load.
type tournament struct {
	members []int32
	nodes   []node // node i is nodes[i+3]
	base    int    // the first leaf
}

type node struct {
	key  int64
	leaf int32
}

func newTournament(members []int32, key func(m int32) int64) tournament {
	size, base := 1, 0
	for size < len(members) {
		base += size
		size *= 4
	}
	t := tournament{members: members, nodes: make([]node, 3+base+size), base: base}
	for j := range size {
		k := int64(retired)
		if j < len(members) {
			k = key(members[j])
		}
		t.nodes[3+base+j] = node{k, int32(j)}
	}
	for i := base - 1; i >= 0; i-- {
		t.nodes[3+i] = t.winner(i)
	}
	return t
}

// winner returns the winner among the children of internal node i.
func (t *tournament) winner(i int) node {
	kids := t.nodes[4*i+4 : 4*i+8 : 4*i+8]
	w := kids[0]
	for _, k := range kids[1:] {
		if k.key < w.key {
			w = k
		}
	}
	return w
}

// root returns the overall winner.
func (t *tournament) root() node { return t.nodes[3] }

// set gives leaf j key k and replays its path.
func (t *tournament) set(j int32, k int64) {
	i := t.base + int(j)
	t.nodes[3+i].key = k
	for i > 0 {
		i = (i - 1) / 4
		t.nodes[3+i] = t.winner(i)
	}
}

// newTrees builds the trees over pl's members.
func (s *solver) newTrees(pl *plan, base []int32) *memberTrees {
	ss := s.sets
	h := &memberTrees{pl: pl, maxCount: s.maxCount, base: base, sets: s.sets}
	key := func(m int32) int64 {
		if pl.count[m] >= s.maxCount[m] {
			return retired
		}
		return h.key(m)
	}
	h.trees = make([]tournament, ss.numSets())
	h.rackFrom = make([]int32, ss.numSets()+1)
	var racks []int32
	for set, members := range ss.Members {
		h.trees[set] = newTournament(members, key)
		if s.racks == nil {
			continue
		}
		racks = racks[:0]
		for _, m := range members {
			if r := s.racks.memberRack[m]; r >= 0 {
				racks = append(racks, r)
			}
		}
		slices.Sort(racks)
		racks = slices.Compact(racks)
		for _, r := range racks {
			var inRack []int32
			for _, m := range members {
				if s.racks.memberRack[m] == r {
					inRack = append(inRack, m)
				}
			}
			h.rackOf = append(h.rackOf, r)
			h.trees = append(h.trees, newTournament(inRack, key))
		}
		h.rackFrom[set+1] = int32(len(h.rackOf))
	}
	return h
}

// key is the member's load or, with base, its count above base[m] and, on
// a tie, the number of subscriber sets it belongs to: a member with fewer
// choices takes an idle partition first, leaving those with more for the
// topics only they can take.
func (h *memberTrees) key(m int32) int64 {
	if h.base != nil {
		ss := h.sets
		return int64(h.pl.count[m]-h.base[m])<<32 | int64(ss.MemberFrom[m+1]-ss.MemberFrom[m])
	}
	return h.pl.load[m]
}

// top returns the winner of tree i with its key up to date, or -1 when
// no member of the tree has room.
func (h *memberTrees) top(i int) int32 {
	t := &h.trees[i]
	for {
		top := t.root()
		if top.key == retired {
			return -1
		}
		m := t.members[top.leaf]
		switch {
		case h.pl.count[m] >= h.maxCount[m]:
			t.set(top.leaf, retired)
		case top.key != h.key(m):
			t.set(top.leaf, h.key(m))
		default:
			return m
		}
	}
}

// rackTrees returns the range of set s's rack trees: tree
// len(sets)+j for j in [from, to), of rack h.rackOf[j].
func (h *memberTrees) rackTrees(s int32) (from, to int32) {
	if len(h.rackFrom) <= int(s)+1 {
		return 0, 0
	}
	return h.rackFrom[s], h.rackFrom[s+1]
}
