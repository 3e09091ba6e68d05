package balance

import (
	"slices"

	"github.com/kgroup/assignor/internal/fnv1a"
)

// Interner numbers distinct lists of int32 in first-seen order: topics'
// subscriber lists, so that topics with the same subscribers share one
// subscriber set, or members' lists of sets, so that members with the same
// sets share one class. A list equal to the last one interned (neighbouring
// topics usually share their subscribers) is recognised by one comparison,
// any other by its hash ([fnv1a.Int32s]). The zero value is empty and ready
// to use.
type Interner struct {
	// Lists are the distinct lists in number order. Interner keeps the
	// slices it is given: neither it nor the caller may modify them after.
	Lists  [][]int32
	byHash map[uint64][]int32
	last   int32
}

// Intern returns the number of list, numbering it Len() when it is new (and
// then keeping it). Lists compare element by element: the caller
// normalises them (sorted, distinct) if order and repeats must not count.
func (in *Interner) Intern(list []int32) int32 {
	if len(in.Lists) > 0 && slices.Equal(in.Lists[in.last], list) {
		return in.last
	}
	if in.byHash == nil && len(in.Lists) > 0 {
		// The first list that differs from the last: index the lists so
		// far (one, in the common case of identical subscriptions, which
		// then never builds the map).
		in.byHash = make(map[uint64][]int32, 2*len(in.Lists))
		for s, l := range in.Lists {
			h := fnv1a.Int32s(l)
			in.byHash[h] = append(in.byHash[h], int32(s))
		}
	}
	h := fnv1a.Int32s(list)
	for _, s := range in.byHash[h] {
		if slices.Equal(in.Lists[s], list) {
			in.last = s
			return s
		}
	}
	s := int32(len(in.Lists))
	in.Lists = append(in.Lists, list)
	if in.byHash != nil {
		in.byHash[h] = append(in.byHash[h], s)
	}
	in.last = s
	return s
}

// Len is the number of distinct lists interned.
func (in *Interner) Len() int { return len(in.Lists) }
