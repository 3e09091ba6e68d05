package balance

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestCountBands(t *testing.T) {
	for _, row := range []struct {
		name    string
		members int
		groups  [][]int32
		size    []int32
		base    []int32
		lo, hi  []int32
	}{
		{"the doc example: a chain A → B → C evens the counts", 3, [][]int32{{0, 1}, {1, 2}}, []int32{4, 2}, nil, []int32{2, 2, 2}, []int32{2, 2, 2}},
		{"an odd group: either member may hold the extra one", 2, [][]int32{{0, 1}}, []int32{3}, nil, []int32{1, 1}, []int32{2, 2}},
		{"a member alone in its group takes it all", 2, [][]int32{{0}, {0, 1}}, []int32{5, 1}, nil, []int32{5, 1}, []int32{5, 1}},
		{"a member in no group holds nothing", 3, [][]int32{{0, 2}}, []int32{4}, nil, []int32{2, 0, 2}, []int32{2, 0, 2}},
		{"a base count: the group goes to the others first", 3, [][]int32{{0, 1, 2}}, []int32{4}, []int32{3, 0, 0}, []int32{3, 2, 2}, []int32{3, 2, 2}},
		{"a base count outside every group stands", 2, [][]int32{{0}}, []int32{1}, []int32{0, 4}, []int32{1, 4}, []int32{1, 4}},
	} {
		t.Run(row.name, func(t *testing.T) {
			g := NewGraph(row.members, row.groups, nil)
			lo, hi := CountBands(&g, row.size, row.base)
			if !slices.Equal(lo, row.lo) || !slices.Equal(hi, row.hi) {
				t.Errorf("band %v..%v, want %v..%v", lo, hi, row.lo, row.hi)
			}
		})
	}
}

// TestCountBandsEnumerated checks the bands against every assignment of
// small random groups, with and without base counts: they are the least and
// most each member holds over the assignments whose sum of squared counts
// is least.
func TestCountBandsEnumerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 22))
	for i := range 2000 {
		members := 1 + rng.IntN(4)
		var groups [][]int32
		var size []int32
		for range 1 + rng.IntN(3) {
			var set []int32
			for m := range int32(members) {
				if rng.IntN(2) == 0 {
					set = append(set, m)
				}
			}
			if len(set) == 0 {
				set = []int32{int32(rng.IntN(members))}
			}
			groups = append(groups, set)
			size = append(size, int32(rng.IntN(4)))
		}
		var base []int32
		if rng.IntN(2) == 0 {
			base = make([]int32, members)
			for m := range base {
				base[m] = int32(rng.IntN(3))
			}
		}
		g := NewGraph(members, groups, nil)
		lo, hi := CountBands(&g, size, base)
		wantLo, wantHi := enumerate(members, groups, size, base)
		if !slices.Equal(lo, wantLo) || !slices.Equal(hi, wantHi) {
			t.Fatalf("instance %d (groups %v sizes %v base %v): band %v..%v, want %v..%v", i, groups, size, base, lo, hi, wantLo, wantHi)
		}
	}
}

// enumerate returns each member's band over the assignments of the
// groups' partitions to their members (on top of base) whose sum of squared
// counts is least.
func enumerate(members int, groups [][]int32, size, base []int32) (lo, hi []int32) {
	var parts []int32 // each partition's group
	for j, n := range size {
		for range n {
			parts = append(parts, int32(j))
		}
	}
	count := make([]int32, members)
	if base != nil {
		copy(count, base)
	}
	best := int32(1 << 30)
	var walk func(i int)
	walk = func(i int) {
		if i == len(parts) {
			var sq int32
			for _, c := range count {
				sq += c * c
			}
			switch {
			case sq < best:
				best, lo, hi = sq, slices.Clone(count), slices.Clone(count)
			case sq == best:
				for m, c := range count {
					lo[m], hi[m] = min(lo[m], c), max(hi[m], c)
				}
			}
			return
		}
		for _, m := range groups[parts[i]] {
			count[m]++
			walk(i + 1)
			count[m]--
		}
	}
	walk(0)
	return lo, hi
}
