package dense

// Assigner is the fast path between the cooperative wrapper and an inner
// assignor of this module that can assign from the wrapper's Index: it
// spares a second index of the group and the conversion of the inner plan
// to lists and back. The wrapper finds it by type assertion and then calls
// AssignDense instead of Assign.
//
// AssignDense must return, for the group ix was built from, exactly the
// assignment Assign returns, as holder[p]: the member number given flat
// partition p, or -1, with len(holder) == ix.NumPartitions(); userData is
// nil, or has one entry (the assignment user data, possibly nil) per
// member. It must not mutate ix or keep it. The caller takes holder over.
type Assigner interface {
	AssignDense(ix *Index) (holder []int32, userData [][]byte, err error)
}
