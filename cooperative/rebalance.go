package cooperative

import (
	"slices"

	"github.com/kgroup/assignor"
)

// rebalance is one cooperative rebalance worked out on the index's flat
// partition numbers. Every per-partition array is indexed by flat partition
// number; every per-claim array by position in ix.Outside().
type rebalance struct {
	ix  *assignor.Index
	cfg Config
	// target[p] is the member the inner assignor gave partition p, or -1.
	target []int32
	// final[p] is the member that holds p after this round, or -1. Without
	// sets to build, it is target's own array, overwritten by decide.
	final []int32
	// innerBack[i]: the inner assignor itself assigned the outside claim
	// ix.Outside()[i] to its claimer (allowed when the claimer is its valid
	// owner and subscribes to the topic); nil when it assigned none.
	innerBack []bool
	// back[i]: ix.Outside()[i] is in its claimer's plan this round.
	back []bool
	// innerLists[m] is member m's Assigned in the inner plan (nil for an
	// inner assignor that answered in flat form); reuse[m] reports that it
	// is canonical and that this round neither withholds from it nor gives
	// back to it, so the plan can return it as it is.
	innerLists [][]assignor.TopicPartitions
	reuse      []bool
	userData   [][]byte // the inner assignor's, by member number
	withheld   int
}

func newRebalance(ix *assignor.Index, cfg Config) *rebalance {
	return &rebalance{
		ix:       ix,
		cfg:      cfg,
		back:     make([]bool, len(ix.Outside())),
		userData: make([][]byte, ix.NumMembers()),
	}
}

// split runs one rebalance of g; the sets are computed only when withSets
// is set.
func (w *wrapper) split(g assignor.Group, withSets bool) (Sets, assignor.Plan, error) {
	if w.inner == nil {
		return Sets{}, assignor.Plan{}, ErrNoInner
	}
	index, err := assignor.NewIndex(g)
	if err != nil {
		return Sets{}, assignor.Plan{}, err
	}
	return w.splitIndex(index, withSets)
}

// splitIndex runs one rebalance of the group ix describes.
func (w *wrapper) splitIndex(ix *assignor.Index, withSets bool) (Sets, assignor.Plan, error) {
	r, err := w.decide(ix, withSets)
	if err != nil {
		return Sets{}, assignor.Plan{}, err
	}
	plan := r.plan()
	var sets Sets
	if withSets {
		sets = r.sets()
	}
	return sets, plan, nil
}

// decide runs one rebalance of the group ix describes up to the decided and
// verified round; with keepTargets, r.target stays the inner answer.
func (w *wrapper) decide(ix *assignor.Index, keepTargets bool) (*rebalance, error) {
	if w.inner == nil {
		return nil, ErrNoInner
	}
	r := newRebalance(ix, w.cfg)
	if err := r.readAnswer(w.inner); err != nil {
		return nil, &Error{Assignor: w.name, Err: err}
	}
	if keepTargets {
		r.final = make([]int32, ix.NumPartitions())
	}
	r.decide()
	if err := r.verify(); err != nil {
		return nil, &Error{Assignor: w.name, Err: err}
	}
	return r, nil
}

// decide applies the safety rule and the give-back rule to every partition,
// filling r.final, r.back and r.withheld. For partition p with target X
// (the inner assignor's choice) and valid owner O:
//
//	claimed by nobody, X chosen:  ready-to-migrate, X gets it now
//	O == X:                       maybe-revoking, kept by O
//	claimed, X chosen, O != X:    maybe-revoking, withheld: nobody gets it,
//	                              every claimant revokes it (O may be
//	                              Contested: then nobody is its owner)
//	claimed, no X:                unknown-but-owned, given back to O if O
//	                              still subscribes (and the config allows),
//	                              else revoked
//
// Example, M0 valid owner of t0p0 and t0p1, stale M1 claims t0p1, the inner
// plan is M0: t0p0, M1: t0p1, M2: t0p2 (unclaimed): M0 keeps t0p0, t0p1 is
// withheld from M1 because M0 still holds it (both revoke it), M2 gets t0p2
// now.
//
// r.final may be r.target's own array (each partition's target is read
// before its decision is written), unless the caller set it beforehand.
func (r *rebalance) decide() {
	ix := r.ix
	if r.final == nil {
		r.final = r.target
	}
	for t := range int32(ix.NumTopics()) {
		first, end := ix.TopicRange(t)
		for p := first; p < end; p++ {
			to, owner := r.target[p], ix.Owner(p)
			m := int32(-1)
			switch {
			case to >= 0 && (owner == assignor.Unclaimed || owner == to):
				m = to
			case to >= 0:
				r.withheld++
				r.keepOwn(to, false)
			case owner >= 0 && !r.cfg.RevokeUnknown && ix.Subscribes(owner, t):
				m = owner
				r.keepOwn(owner, false)
			}
			r.final[p] = m
		}
	}
	r.decideOutside()
}

// decideOutside gives back each valid outside claim whose partition could
// exist to its claimer, if it still subscribes and the config allows; the
// inner assignor's own give-backs stand.
func (r *rebalance) decideOutside() {
	lastMember, lastTopic, lastSubscribes := int32(-1), "", false
	for i, oc := range r.ix.Outside() {
		if r.innerBack != nil && r.innerBack[i] {
			r.back[i] = true
			continue
		}
		if r.cfg.RevokeUnknown || !oc.Valid || !r.ix.CouldExist(oc) {
			continue
		}
		if oc.Member != lastMember || oc.Topic != lastTopic {
			lastMember, lastTopic, lastSubscribes = oc.Member, oc.Topic, r.subscribes(oc.Member, oc.Topic)
		}
		r.back[i] = lastSubscribes
		if lastSubscribes {
			r.keepOwn(oc.Member, false)
		}
	}
}

// keepOwn records whether member m's inner list can stand as its plan.
func (r *rebalance) keepOwn(m int32, ok bool) {
	if r.reuse != nil {
		r.reuse[m] = r.reuse[m] && ok
	}
}

// subscribes reports whether member m subscribes to the topic named topic,
// whether or not the metadata has it.
func (r *rebalance) subscribes(m int32, topic string) bool {
	if t, ok := r.ix.TopicNumber(topic); ok {
		return r.ix.Subscribes(m, t)
	}
	return slices.Contains(r.ix.Member(m).Topics, topic)
}

// verify checks the decided round (r.final and r.back, from which the plan
// is built) against the rules of [assignor.CheckPlan] for the cooperative
// protocol — the same code ([assignor.Index.CheckFlat]): a claimed
// partition is held only by its valid owner, only by a subscriber, an
// outside claim only by its valid claimer still subscribed, and every
// unclaimed partition of a subscribed topic is held. The other rules (one
// entry per member, sorted lists, no partition held twice) hold by
// construction of r.final, an array with one holder per partition.
func (r *rebalance) verify() error {
	return r.ix.CheckFlat(r.flat(), assignor.Cooperative)
}

// flat is the decided round in flat form.
func (r *rebalance) flat() assignor.FlatPlan {
	return assignor.FlatPlan{Holder: r.final, GivenBack: r.back, UserData: r.userData, FollowUp: r.withheld > 0}
}
