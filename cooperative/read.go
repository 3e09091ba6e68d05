package cooperative

import (
	"errors"
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/dense"
)

// innerRules are the rules the inner assignor's answer must keep: only the
// rules of every plan (subscribers only, no partition twice, one entry per
// member) and give-backs of valid claims. The inner assignor is eager: it
// may hand claimed partitions to anyone (the wrapper withholds them), and
// what it leaves unassigned the final check catches.
var innerRules = dense.Rules{GiveBack: true}

// errDenseAnswer is returned, wrapped in an [*Error], when an inner
// assignor of this module answering on the wrapper's index gives an answer
// that does not fit it: a wrong length, or a member number out of range.
// Only a bug in this module can cause it.
var errDenseAnswer = errors.New("cooperative: inner assignor's answer does not fit the index")

// readAnswer asks inner for its assignment of the group ix describes — on
// the index itself when inner can, else through AssignIndex or Assign —
// and records it in r.target and r.innerBack, and every way it breaks the
// [assignor.Assignor] contract in r.violations. It returns the inner
// assignor's own error, or an answer that does not fit at all.
func (r *rebalance) readAnswer(inner assignor.Assignor, ix *assignor.Index) error {
	var plan assignor.Plan
	var err error
	switch a := inner.(type) {
	case dense.Assigner:
		holder, userData, err := a.AssignDense(r.ix)
		if err != nil {
			return err
		}
		return r.readDense(holder, userData)
	case assignor.IndexAssignor:
		plan, err = a.AssignIndex(ix)
	default:
		plan, err = inner.Assign(ix.Group())
	}
	if err != nil {
		return err
	}
	r.readPlan(plan)
	return nil
}

// readPlan reads the inner plan's lists. A member listing a partition
// twice, or a list out of order, is tolerated: the member's list is then
// rebuilt.
func (r *rebalance) readPlan(plan assignor.Plan) {
	reader := r.ix.ReadPlan(false)
	for _, mp := range plan.Members {
		m, ok := reader.Entry(mp.Member)
		if !ok {
			continue
		}
		r.userData[m], r.innerLists[m] = mp.UserData, mp.Assigned
		for _, tp := range mp.Assigned {
			reader.List(m, tp.Topic, tp.Partitions)
		}
		r.reuse[m] = reader.Canonical(m)
	}
	holder, back, vs := reader.Finish()
	r.target, r.innerBack = holder, back
	r.violations = append(vs, r.ix.Check(holder, back, innerRules)...)
}

// readDense takes the answer of an inner assignor that assigned on the
// index: no inner list is reused, the plan is built from r.final.
func (r *rebalance) readDense(holder []int32, userData [][]byte) error {
	ix := r.ix
	numMembers := int32(len(ix.Members))
	if len(holder) != ix.NumPartitions() || (userData != nil && len(userData) != int(numMembers)) {
		return fmt.Errorf("%w: %d holders for %d partitions, %d user data entries for %d members",
			errDenseAnswer, len(holder), ix.NumPartitions(), len(userData), numMembers)
	}
	for p, m := range holder {
		switch {
		case m >= numMembers:
			topic, id := ix.Partition(int32(p))
			return fmt.Errorf("%w: %s/%d given to member number %d of %d", errDenseAnswer, topic, id, m, numMembers)
		case m < -1:
			holder[p] = -1
		}
	}
	copy(r.userData, userData)
	r.target, r.innerBack = holder, make([]bool, len(ix.Outside))
	r.violations = ix.Check(holder, nil, innerRules)
	return nil
}
