package cooperative

import (
	"errors"
	"fmt"

	"github.com/kgroup/assignor"
)

// IndexAssignor is an optional interface for an inner assignor that can
// assign from the [assignor.Index] the wrapper has already built, sparing a
// second index of the group and the conversion of its plan to partition
// lists and back (at a million partitions, about half the wrapper's own
// cost). The wrapper finds it by type assertion and then calls AssignIndex
// instead of Assign. An assignor implements it without importing this
// package.
//
// AssignIndex must return, for the group ix was built from, exactly the
// assignment Assign returns: assigned[m] are the flat partition numbers
// (see [assignor.Index]) of member m, in any order, with len(assigned) ==
// len(ix.Members); userData is nil, or has one entry (the assignment user
// data, possibly nil) per member. It must not mutate ix or keep it, and the
// wrapper may sort and overwrite the returned slices. Its answer is checked
// like a plan: a partition assigned twice or to a non-subscriber is an
// error, and so ([ErrIndexAnswer]) are a wrong number of lists and a flat
// number out of range.
type IndexAssignor interface {
	assignor.Assignor
	AssignIndex(ix *assignor.Index) (assigned [][]int32, userData [][]byte, err error)
}

// ErrIndexAnswer is returned, wrapped in an [*Error], when an
// [IndexAssignor]'s answer does not fit the index: a wrong number of lists,
// or a flat partition number out of range.
var ErrIndexAnswer = errors.New("cooperative: AssignIndex answer does not fit the index")

// readIndexed records an IndexAssignor's answer in r.target and r.userData,
// and every way it breaks the contract in r.errs. No inner list is reused:
// the plan is built from r.final.
func (r *rebalance) readIndexed(assigned [][]int32, userData [][]byte) {
	ix := r.ix
	numMembers, numPartitions := len(ix.Members), int32(ix.NumPartitions())
	if len(assigned) != numMembers || (userData != nil && len(userData) != numMembers) {
		r.errs = append(r.errs, fmt.Errorf("%w: %d assigned lists and %d user data entries for %d members", ErrIndexAnswer, len(assigned), len(userData), numMembers))
		return
	}
	for m := range numMembers {
		if userData != nil {
			r.userData[m] = userData[m]
		}
		t := int32(-1)
		for _, p := range assigned[m] {
			if p < 0 || p >= numPartitions {
				r.errs = append(r.errs, fmt.Errorf("%w: member %q: flat partition %d, want 0 to %d", ErrIndexAnswer, ix.Members[m].ID, p, numPartitions-1))
				continue
			}
			if t < 0 || p < ix.TopicStart[t] || p >= ix.TopicStart[t+1] {
				t = topicOf(ix, t, p)
			}
			switch {
			case !ix.Subscribes(int32(m), t):
				topic, id := ix.Partition(p)
				r.fail(int32(m), topic, id, assignor.ErrNotSubscribed)
			case r.target[p] < 0 || r.target[p] == int32(m):
				r.target[p] = int32(m)
			default:
				topic, id := ix.Partition(p)
				r.fail(int32(m), topic, id, assignor.ErrAssignedTwice)
			}
		}
	}
}
