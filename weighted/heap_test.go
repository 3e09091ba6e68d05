package weighted

import (
	"container/heap"
	"math/rand/v2"
	"testing"
)

// entryHeap is heapEntry under container/heap, for BenchmarkHeap.
type entryHeap []heapEntry

func (h entryHeap) Len() int           { return len(h) }
func (h entryHeap) Less(i, j int) bool { return h[i].less(h[j]) }
func (h entryHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *entryHeap) Push(x any)        { *h = append(*h, x.(heapEntry)) }
func (h *entryHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// heapWork is the loop the placement's shortfall and the count repair run:
// a heap of members by load, the top taken, its key raised (it was given a
// partition) and sifted down, and popped once it has what it needs.
func heapWork(members int, seed uint64) ([]heapEntry, []int32) {
	rng := rand.New(rand.NewPCG(seed, 1))
	entries := make([]heapEntry, members)
	for m := range entries {
		entries[m] = heapEntry{key: int64(rng.IntN(1 << 20)), member: int32(m)}
	}
	needs := make([]int32, members)
	for m := range needs {
		needs[m] = int32(1 + rng.IntN(8))
	}
	return entries, needs
}

// TestHeapAgrees: the hand-written heap and container/heap take the
// members in the same order.
func TestHeapAgrees(t *testing.T) {
	entries, needs := heapWork(300, 1)
	var a, b []int32
	own := heapify(append([]heapEntry(nil), entries...))
	left := append([]int32(nil), needs...)
	for len(own) > 0 {
		m := own[0].member
		a = append(a, m)
		if left[m]--; left[m] == 0 {
			own = popTop(own)
			continue
		}
		own[0].key += 1000
		siftDown(own, 0)
	}
	std := entryHeap(append([]heapEntry(nil), entries...))
	heap.Init(&std)
	left = append([]int32(nil), needs...)
	for std.Len() > 0 {
		m := std[0].member
		b = append(b, m)
		if left[m]--; left[m] == 0 {
			heap.Pop(&std)
			continue
		}
		std[0].key += 1000
		heap.Fix(&std, 0)
	}
	if len(a) != len(b) {
		t.Fatalf("%d takes against %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("take %d: member %d against %d", i, a[i], b[i])
		}
	}
}

// BenchmarkHeap times that loop on 1,000 members (about 4,500 takes) with
// the hand-written heap (heap.go) and with container/heap.
func BenchmarkHeap(b *testing.B) {
	entries, needs := heapWork(1000, 2)
	b.Run("own", func(b *testing.B) {
		work := make([]heapEntry, len(entries))
		left := make([]int32, len(needs))
		for b.Loop() {
			copy(work, entries)
			copy(left, needs)
			h := heapify(work)
			for len(h) > 0 {
				m := h[0].member
				if left[m]--; left[m] == 0 {
					h = popTop(h)
					continue
				}
				h[0].key += 1000
				siftDown(h, 0)
			}
		}
	})
	b.Run("container-heap", func(b *testing.B) {
		work := make(entryHeap, len(entries))
		left := make([]int32, len(needs))
		for b.Loop() {
			work = work[:len(entries)]
			copy(work, entries)
			copy(left, needs)
			heap.Init(&work)
			for work.Len() > 0 {
				m := work[0].member
				if left[m]--; left[m] == 0 {
					heap.Pop(&work)
					continue
				}
				work[0].key += 1000
				heap.Fix(&work, 0)
			}
		}
	})
}
