package cooperative

import (
	"fmt"

	"github.com/kgroup/assignor"
)

// readAnswer asks inner for its assignment of the group ix describes — in
// flat form when inner can give it ([assignor.HolderAssignor]), else
// through AssignIndex or Assign — and records it in r.target, r.innerBack
// and r.userData. It returns the inner assignor's own error, or every way
// its answer breaks the [assignor.Assignor] contract: for a plan, the rules
// of every plan ([assignor.Index.Holders]); for a flat answer, a shape that
// does not fit the index (what else it breaks, verify finds in the round
// decided from it). Inner may hand claimed partitions to anyone (that is
// what the wrapper withholds) and leave claimed partitions out (the
// wrapper gives them back); what it leaves unclaimed and unassigned verify
// catches.
func (r *rebalance) readAnswer(inner assignor.Assignor) error {
	ix := r.ix
	var holder []int32
	switch a := inner.(type) {
	case assignor.HolderAssignor:
		var userData [][]byte
		var err error
		if holder, userData, err = a.AssignHolders(ix); err != nil {
			return err
		}
		if err := fits(ix, holder, userData); err != nil {
			return err
		}
		copy(r.userData, userData)
	default:
		var plan assignor.Plan
		var err error
		if ia, ok := inner.(assignor.IndexAssignor); ok {
			plan, err = ia.AssignIndex(ix)
		} else {
			plan, err = inner.Assign(ix.Group())
		}
		if err != nil {
			return err
		}
		if holder, r.innerBack, err = ix.Holders(plan); err != nil {
			return err
		}
		r.innerLists = make([][]assignor.TopicPartitions, ix.NumMembers())
		r.reuse = make([]bool, ix.NumMembers())
		for _, mp := range plan.Members {
			if m, ok := ix.MemberNumber(mp.Member); ok {
				r.userData[m], r.innerLists[m] = mp.UserData, mp.Assigned
				r.reuse[m] = len(mp.Assigned) > 0 && assignor.IsCanonicalTopicPartitions(mp.Assigned)
			}
		}
		for i, given := range r.innerBack {
			if given { // a list holding a partition outside the metadata
				r.reuse[ix.Outside()[i].Member] = false
			}
		}
	}
	r.target = holder
	return nil
}

// fits checks the shape of a flat answer: one holder per partition, each a
// member number or -1 (below -1 reads as -1), and no user data or one entry
// per member.
func fits(ix *assignor.Index, holder []int32, userData [][]byte) error {
	numMembers := int32(ix.NumMembers())
	if len(holder) != ix.NumPartitions() || userData != nil && len(userData) != int(numMembers) {
		return fmt.Errorf("%w: %d holders for %d partitions, %d user data entries for %d members",
			errInnerAnswer, len(holder), ix.NumPartitions(), len(userData), numMembers)
	}
	for p, m := range holder {
		switch {
		case m >= numMembers:
			topic, id := ix.Partition(int32(p))
			return fmt.Errorf("%w: %s/%d given to member number %d of %d", errInnerAnswer, topic, id, m, numMembers)
		case m < -1:
			holder[p] = -1
		}
	}
	return nil
}
