package weighted

import "slices"

// memberHeaps are the min-heaps placement picks members from: one per
// subscriber set and, when racks are in play, one per (set, member rack).
// A member is in every heap of its sets while it has room (count below its
// maximum). The key is the member's load, or, for placing idle partitions,
// its count minus its count-balanced low; ties go to the lower member
// number.
//
// Keys only grow while the heaps are in use, so they are refreshed lazily:
// an entry whose key is out of date is re-keyed when it reaches the top,
// and one whose member is full is dropped there. Each member has at most
// one entry per heap, so a heap of k members costs O(log k) per pick,
// however often its members changed through other heaps.
type memberHeaps struct {
	pl       *plan
	maxCount []int32
	base     []int32 // non-nil: the key is count − base[m]; nil: load
	heaps    [][]heapEntry

	// Per set s, its rack heaps: rackOf[rackFrom[s]:rackFrom[s+1]] are the
	// member racks of its members, ascending, and heap len(sets)+j belongs
	// to entry j.
	rackFrom []int32
	rackOf   []int32
}

type heapEntry struct {
	key    int64
	member int32
}

func (e heapEntry) less(f heapEntry) bool {
	return e.key < f.key || (e.key == f.key && e.member < f.member)
}

// newHeaps builds the heaps over the members with room in pl.
func (s *solver) newHeaps(pl *plan, base []int32) *memberHeaps {
	ss := s.sets
	h := &memberHeaps{pl: pl, maxCount: s.maxCount, base: base}
	h.heaps = make([][]heapEntry, len(ss.members))
	h.rackFrom = make([]int32, len(ss.members)+1)
	var racks []int32
	for set, members := range ss.members {
		entries := make([]heapEntry, 0, len(members))
		for _, m := range members {
			if pl.count[m] < s.maxCount[m] {
				entries = append(entries, heapEntry{h.key(m), m})
			}
		}
		h.heaps[set] = heapify(entries)
		if s.racks == nil {
			h.rackFrom[set+1] = int32(len(h.rackOf))
			continue
		}
		racks = racks[:0]
		for _, e := range entries {
			if r := s.racks.memberRack[e.member]; r >= 0 {
				racks = append(racks, r)
			}
		}
		slices.Sort(racks)
		racks = slices.Compact(racks)
		for _, r := range racks {
			var sub []heapEntry
			for _, e := range entries {
				if s.racks.memberRack[e.member] == r {
					sub = append(sub, e)
				}
			}
			h.rackOf = append(h.rackOf, r)
			h.heaps = append(h.heaps, heapify(sub))
		}
		h.rackFrom[set+1] = int32(len(h.rackOf))
	}
	return h
}

func (h *memberHeaps) key(m int32) int64 {
	if h.base != nil {
		return int64(h.pl.count[m] - h.base[m])
	}
	return h.pl.load[m]
}

// top returns the member at the top of heap i with its entry up to date,
// or -1 when the heap has no member with room.
func (h *memberHeaps) top(i int) int32 {
	heap := h.heaps[i]
	for len(heap) > 0 {
		m := heap[0].member
		switch {
		case h.pl.count[m] >= h.maxCount[m]:
			last := len(heap) - 1
			heap[0] = heap[last]
			heap = heap[:last]
			siftDown(heap, 0)
		case heap[0].key != h.key(m):
			heap[0].key = h.key(m)
			siftDown(heap, 0)
		default:
			h.heaps[i] = heap
			return m
		}
	}
	h.heaps[i] = heap
	return -1
}

// rackHeaps returns the range of set s's rack heaps: heap
// len(h.rackFrom)-1+j for j in [from, to), of rack h.rackOf[j].
func (h *memberHeaps) rackHeaps(s int32) (from, to int32) {
	return h.rackFrom[s], h.rackFrom[s+1]
}

func heapify(entries []heapEntry) []heapEntry {
	for i := len(entries)/2 - 1; i >= 0; i-- {
		siftDown(entries, i)
	}
	return entries
}

func siftDown(heap []heapEntry, i int) {
	n := len(heap)
	for {
		small := i
		if l := 2*i + 1; l < n && heap[l].less(heap[small]) {
			small = l
		}
		if r := 2*i + 2; r < n && heap[r].less(heap[small]) {
			small = r
		}
		if small == i {
			return
		}
		heap[i], heap[small] = heap[small], heap[i]
		i = small
	}
}
