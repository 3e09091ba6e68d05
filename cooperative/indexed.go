package cooperative

import (
	"errors"
	"fmt"

	"github.com/kgroup/assignor"
)

// IndexAssignor is an optional interface for an inner assignor that can
// assign from the [assignor.Index] the wrapper has already built, sparing a
// second index of the group and the conversion of its plan to partition
// lists and back (at a million partitions, about half of the wrapper's own
// cost). The wrapper finds it by type assertion and then calls AssignIndex
// instead of Assign. An assignor implements it without importing this
// package.
//
// AssignIndex must return, for the group ix was built from, exactly the
// assignment Assign returns, as holder[p]: the member number (see
// [assignor.Index]) given flat partition p, or -1, with len(holder) ==
// ix.NumPartitions(); userData is nil, or has one entry (the assignment user
// data, possibly nil) per member. It must not mutate ix or keep it. The
// wrapper takes holder over and overwrites it. The answer is checked like a
// plan: a partition given to a non-subscriber is an error
// ([assignor.ErrNotSubscribed]), and so ([ErrIndexAnswer]) are a wrong
// length and a member number out of range.
type IndexAssignor interface {
	assignor.Assignor
	AssignIndex(ix *assignor.Index) (holder []int32, userData [][]byte, err error)
}

// ErrIndexAnswer is returned, wrapped in an [*Error], when an
// [IndexAssignor]'s answer does not fit the index: a wrong length, or a
// member number out of range.
var ErrIndexAnswer = errors.New("cooperative: AssignIndex answer does not fit the index")

// readIndexed takes an IndexAssignor's answer as r.target and r.userData,
// and records every way it breaks the contract in r.errs. No inner list is
// reused: the plan is built from r.final.
func (r *rebalance) readIndexed(holder []int32, userData [][]byte) {
	ix := r.ix
	numMembers := int32(len(ix.Members))
	if len(holder) != ix.NumPartitions() || (userData != nil && len(userData) != int(numMembers)) {
		r.errs = append(r.errs, fmt.Errorf("%w: %d holders for %d partitions, %d user data entries for %d members",
			ErrIndexAnswer, len(holder), ix.NumPartitions(), len(userData), numMembers))
		return
	}
	if userData != nil {
		copy(r.userData, userData)
	}
	// subscribedTo[m] == t+1 while topic t is read and m subscribes to it.
	subscribedTo := make([]int32, numMembers)
	for t := range ix.Topics {
		for _, m := range ix.Subscribers[t] {
			subscribedTo[m] = int32(t) + 1
		}
		for p := ix.TopicStart[t]; p < ix.TopicStart[t+1]; p++ {
			switch m := holder[p]; {
			case m < 0:
				holder[p] = -1
			case m >= numMembers:
				topic, id := ix.Partition(p)
				r.errs = append(r.errs, fmt.Errorf("%w: %s/%d given to member number %d of %d", ErrIndexAnswer, topic, id, m, numMembers))
			case subscribedTo[m] != int32(t)+1:
				topic, id := ix.Partition(p)
				r.fail(m, topic, id, assignor.ErrNotSubscribed)
			}
		}
	}
	r.target = holder
}
