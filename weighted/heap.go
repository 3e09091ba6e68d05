package weighted

// heapEntry is an entry of the small binary heaps the repair and the
// shortfall keep: least tier first, then least key, then least member.
//
// The heap is written out rather than taken from container/heap because
// its hot loop (take the top, raise its key, sift it down; pop it once it
// has what it needs) runs about twice as fast without container/heap's
// interface calls: BenchmarkHeap, 1,000 members and about 4,500 takes,
// 113 µs against 222 µs (medians of 6 runs, benchstat, on the shared
// 2-core machine of this change); TestHeapAgrees checks that both take the
// members in the same order.
type heapEntry struct {
	key    int64
	member int32
	tier   int32
}

func (e heapEntry) less(f heapEntry) bool {
	if e.tier != f.tier {
		return e.tier < f.tier
	}
	return e.key < f.key || (e.key == f.key && e.member < f.member)
}

func heapify(entries []heapEntry) []heapEntry {
	for i := len(entries)/2 - 1; i >= 0; i-- {
		siftDown(entries, i)
	}
	return entries
}

// siftDown restores the heap below i after heap[i]'s key grew.
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

// popTop removes the top of heap.
func popTop(heap []heapEntry) []heapEntry {
	last := len(heap) - 1
	heap[0] = heap[last]
	heap = heap[:last]
	siftDown(heap, 0)
	return heap
}
