package cooperative

import "github.com/kgroup/assignor"

// readAnswer asks inner for its assignment of the group ix describes — in
// flat form when inner can give it ([assignor.FlatAssignor]), else through
// AssignIndex or Assign — and records it in r.target, r.innerBack and
// r.userData. It returns the inner assignor's own error, or every way its
// answer breaks the [assignor.Assignor] contract: for a plan, the rules of
// every plan ([assignor.Index.ReadPlan]); for a flat answer, a shape that
// does not fit the index ([assignor.Index.Fits]; what else it breaks, verify
// finds in the round decided from it). Inner may hand claimed partitions to
// anyone (that is what the wrapper withholds) and leave claimed partitions
// out (the wrapper gives them back); what it leaves unclaimed and
// unassigned verify catches.
func (r *rebalance) readAnswer(inner assignor.Assignor) error {
	ix := r.ix
	var fp assignor.FlatPlan
	var err error
	switch a := inner.(type) {
	case assignor.FlatAssignor:
		if fp, err = a.AssignFlat(ix); err != nil {
			return err
		}
		if err := ix.Fits(fp); err != nil {
			return err
		}
	default:
		var plan assignor.Plan
		if ia, ok := inner.(assignor.IndexAssignor); ok {
			plan, err = ia.AssignIndex(ix)
		} else {
			plan, err = inner.Assign(ix.Group())
		}
		if err != nil {
			return err
		}
		if fp, err = ix.ReadPlan(plan); err != nil {
			return err
		}
		r.innerLists = make([][]assignor.TopicPartitions, ix.NumMembers())
		r.reuse = make([]bool, ix.NumMembers())
		for _, mp := range plan.Members {
			if m, ok := ix.MemberNumber(mp.Member); ok {
				r.innerLists[m] = mp.Assigned
				r.reuse[m] = len(mp.Assigned) > 0 && assignor.IsCanonicalTopicPartitions(mp.Assigned)
			}
		}
		for i, given := range fp.GivenBack {
			if given { // a list holding a partition outside the metadata
				r.reuse[ix.Outside()[i].Member] = false
			}
		}
	}
	r.target, r.innerBack = fp.Holder, fp.GivenBack
	copy(r.userData, fp.UserData)
	return nil
}
