package assignor

import (
	"errors"
	"slices"
)

// The plan rules live here, once: a plan's lists are read into flat form
// (one holder per partition, and which outside claims the lists give back
// to their claimers) by a planReader, recording what the lists themselves
// break; the flat form is then checked by Index.check. CheckPlan, the
// cooperative wrapper's reading of an inner plan (Index.ReadPlan) and its
// check of its own answer (Index.CheckFlat) differ only in what they pass.

// CheckPlan checks plan against group g as an assignor of protocol proto
// would have to produce it, and returns every violation found, joined with
// [errors.Join] (nil if there is none). Each violation is a
// [*PartitionError] or [*MemberError] wrapping one of the ErrXxx sentinels
// of this package, so errors.Is and errors.As see through the join:
//   - a plan entry for a member not in the group ([ErrUnknownMember]), a
//     second entry for a member ([ErrDuplicateMember]), a member of the
//     group without an entry ([ErrMissingMember]), entries or partitions out
//     of order ([ErrUnsorted]);
//   - a partition assigned to more than one member ([ErrAssignedTwice],
//     naming both), to a member that does not subscribe to its topic
//     ([ErrNotSubscribed]), or outside the metadata ([ErrOutsideMetadata]) —
//     except, for [Cooperative], a partition given back to its valid owner,
//     which may lie outside the leader's metadata as long as it is not
//     negative and the owner still subscribes to its topic;
//   - for [Cooperative]: a claimed partition in the plan of a member that is
//     not its valid owner ([ErrNotOwner]), the KIP-429 safety rule;
//   - a subscribed partition left unassigned ([ErrUnassigned]); for
//     [Cooperative], only if no member claims it (claimed partitions may be
//     withheld for a follow-up rebalance).
//
// A partition listed by two members is checked against the other rules for
// the first of them only. If g itself cannot be indexed, CheckPlan returns
// [NewIndex]'s error.
//
// These are the same rules, in the same code, as [Index.ReadPlan] and
// [Index.CheckFlat] apply.
func CheckPlan(g Group, plan Plan, proto Protocol) error {
	ix, err := NewIndex(g)
	if err != nil {
		return err
	}
	r := ix.readPlan(true)
	r.read(plan)
	holder, back, vs := r.finish()
	vs = append(vs, ix.check(holder, back, rulesOf(proto))...)
	return ix.errs(vs)
}

// ReadPlan reads plan, a plan of the group ix describes, into flat form:
// Holder[p] is the member whose lists hold flat partition p, or -1,
// GivenBack[i] reports that the lists give the outside claim
// [Index.Outside]()[i] back to its claimer, and UserData and FollowUp are
// the plan's. It is how a caller that works in flat form (the cooperative
// wrapper, an adapter) takes the plan of an assignor that has no flat answer
// ([FlatAssignor]).
//
// It returns, joined as [CheckPlan] returns them, every way plan breaks the
// rules every plan keeps, whatever the protocol: an entry for a member not
// in the group or a second entry for one, a member without an entry, a
// partition listed by two members (the first listing stays), a partition
// given to a member that does not subscribe to its topic, or outside the
// metadata unless it is the member's own valid claim on a topic it still
// subscribes to. Lists out of order, partitions listed twice by one member,
// and partitions left unassigned are not errors here. O(P + L + M) for P
// partitions, L listed partitions and M members; reading lists is bound by
// memory access, about twice the cost of building them.
func (ix *Index) ReadPlan(plan Plan) (FlatPlan, error) {
	r := ix.readPlan(false)
	r.read(plan)
	holder, back, vs := r.finish()
	vs = append(vs, ix.check(holder, back, rules{giveBack: true})...)
	fp := FlatPlan{Holder: holder, FollowUp: plan.FollowUp}
	if slices.Contains(back, true) {
		fp.GivenBack = back
	}
	for _, mp := range plan.Members {
		if mp.UserData == nil {
			continue
		}
		if m, ok := ix.MemberNumber(mp.Member); ok {
			if fp.UserData == nil {
				fp.UserData = make([][]byte, len(ix.members))
			}
			fp.UserData[m] = mp.UserData
		}
	}
	return fp, ix.errs(vs)
}

// CheckFlat checks a plan in flat form against the rules of [CheckPlan] for
// protocol proto. A partition held twice cannot be expressed in flat form,
// nor can entries out of order. It returns the violations joined, in flat
// partition order, then outside claim order, or nil; a FlatPlan that does
// not fit ix is [ErrFlatPlan]. O(P + S + C) for P partitions, S
// subscription entries and C outside claims; no maps.
func (ix *Index) CheckFlat(fp FlatPlan, proto Protocol) error {
	if err := ix.Fits(fp); err != nil {
		return err
	}
	return ix.errs(ix.check(fp.Holder, fp.GivenBack, rulesOf(proto)))
}

// rules says which plan rules check applies beyond the one every plan keeps
// (a partition is held only by a subscriber of its topic).
type rules struct {
	// owners: a claimed partition is held only by its valid owner
	// (ErrNotOwner), KIP-429's safety rule.
	owners bool
	// complete: every partition of a topic someone subscribes to is held
	// (ErrUnassigned) — unless withhold and someone claims it.
	complete bool
	// withhold: a claimed partition may be held by nobody, withheld for a
	// follow-up rebalance.
	withhold bool
	// giveBack: an outside claim may be given back to its claimer when it is
	// the valid claim of a topic the claimer still subscribes to; any other
	// given back is ErrOutsideMetadata.
	giveBack bool
}

// rulesOf returns the rules of a plan of protocol proto.
func rulesOf(proto Protocol) rules {
	if proto == Cooperative {
		return rules{owners: true, complete: true, withhold: true, giveBack: true}
	}
	return rules{complete: true}
}

// violation is one broken rule, with the culprit: member numbers (-1 for
// none), the member ID where the member is not in the index, the topic and
// partition ID (-1 for none), and the generation of the member's claim. err
// is the rule's sentinel.
type violation struct {
	err        error
	member     int32
	memberID   string // when member is -1: a member the index does not know
	other      int32  // ErrAssignedTwice: the other holder
	topic      string
	partition  int32
	generation int32
}

// partitionViolation is the violation of rule err by member m (or -1) on
// flat partition p.
func (ix *Index) partitionViolation(err error, m, p int32) violation {
	topic, id := ix.Partition(p)
	v := violation{err: err, member: m, other: -1, topic: topic, partition: id, generation: NoGeneration}
	if m >= 0 {
		v.generation = ix.generation[m]
	}
	return v
}

// errs converts violations into the public error types, joined; nil for
// none.
func (ix *Index) errs(vs []violation) error {
	if len(vs) == 0 {
		return nil
	}
	errs := make([]error, len(vs))
	for i, v := range vs {
		errs[i] = v.toError(ix)
	}
	return errors.Join(errs...)
}

// toError converts v into its public error type; ix may be nil for a violation
// that names no member number (a group that could not be indexed).
func (v violation) toError(ix *Index) error {
	member := v.memberID
	if v.member >= 0 {
		member = ix.members[v.member].ID
	}
	switch v.err {
	case ErrEmptyTopicName, ErrDuplicateTopic, ErrReplicaRacks, ErrWeights:
		return &TopicError{Topic: v.topic, Err: v.err}
	case ErrEmptyMemberID, ErrDuplicateMember, ErrUnknownMember, ErrMissingMember:
		return &MemberError{Member: member, Err: v.err}
	case ErrUnsorted:
		if v.topic == "" && v.partition < 0 {
			return &MemberError{Member: member, Err: v.err}
		}
	}
	e := &PartitionError{Member: member, Topic: v.topic, Partition: v.partition, Generation: v.generation, Err: v.err}
	if v.err == ErrAssignedTwice && v.other >= 0 {
		e.Other = ix.members[v.other].ID
	}
	return e
}

// check applies r to an assignment in flat form and returns every
// violation, in flat partition order, then outside claim order; see
// [Index.CheckFlat].
func (ix *Index) check(holder []int32, back []bool, r rules) []violation {
	var vs []violation
	// subscribedTo[m] == t+1 while topic t is checked and m subscribes to it.
	subscribedTo := make([]int32, len(ix.members))
	for t := range ix.topics {
		run := int32(t) + 1
		for _, m := range ix.subscribers[t] {
			subscribedTo[m] = run
		}
		subscribed := len(ix.subscribers[t]) > 0
		first := ix.topicStart[t]
		for i, m := range holder[first:ix.topicStart[t+1]] {
			p := first + int32(i)
			switch {
			case m < 0:
				if r.complete && subscribed && (!r.withhold || ix.owner[p] == Unclaimed) {
					vs = append(vs, ix.partitionViolation(ErrUnassigned, -1, p))
				}
				continue
			case subscribedTo[m] != run:
				vs = append(vs, ix.partitionViolation(ErrNotSubscribed, m, p))
			}
			if r.owners {
				if o := ix.owner[p]; o != Unclaimed && o != m {
					vs = append(vs, ix.partitionViolation(ErrNotOwner, m, p))
				}
			}
		}
	}
	for i, given := range back {
		if oc := ix.outside[i]; given && !(r.giveBack && oc.Valid && ix.subscribesByName(oc.Member, oc.Topic)) {
			vs = append(vs, violation{err: ErrOutsideMetadata, member: oc.Member, other: -1, topic: oc.Topic, partition: oc.Partition, generation: oc.Generation})
		}
	}
	return vs
}
