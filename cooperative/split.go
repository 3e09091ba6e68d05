package cooperative

import (
	"cmp"
	"errors"
	"slices"

	"github.com/kgroup/assignor"
)

// rebalance is one cooperative rebalance worked out on the Index's flat
// partition numbers. Every per-partition array is indexed by flat partition
// number; every per-claim array by position in ix.Outside.
type rebalance struct {
	ix  *assignor.Index
	cfg Config
	// target[p] is the member the inner assignor gave partition p, or -1.
	target []int32
	// final[p] is the member that holds p after this round, or -1.
	final []int32
	// innerBack[i]: the inner assignor itself assigned the outside claim
	// ix.Outside[i] to its claimer (allowed when the claimer is its valid
	// owner and subscribes to the topic).
	innerBack []bool
	// back[i]: ix.Outside[i] is in its claimer's plan this round.
	back []bool
	// outsideFrom[m] is the first position of member m's claims in
	// ix.Outside (sorted by member); outsideFrom[len(Members)] is the end.
	outsideFrom []int32
	userData    [][]byte
	withheld    int
	errs        []error
}

func newRebalance(ix *assignor.Index, cfg Config) *rebalance {
	r := &rebalance{
		ix:          ix,
		cfg:         cfg,
		target:      make([]int32, ix.NumPartitions()),
		innerBack:   make([]bool, len(ix.Outside)),
		back:        make([]bool, len(ix.Outside)),
		outsideFrom: make([]int32, len(ix.Members)+1),
		userData:    make([][]byte, len(ix.Members)),
	}
	for p := range r.target {
		r.target[p] = -1
	}
	for _, oc := range ix.Outside {
		r.outsideFrom[oc.Member+1]++
	}
	for m := range ix.Members {
		r.outsideFrom[m+1] += r.outsideFrom[m]
	}
	return r
}

// split runs one rebalance; the sets are computed only when withSets is set.
func (w *wrapper) split(g assignor.Group, withSets bool) (Sets, assignor.Plan, error) {
	if w.inner == nil {
		return Sets{}, assignor.Plan{}, ErrNoInner
	}
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return Sets{}, assignor.Plan{}, err
	}
	innerPlan, err := w.inner.Assign(g)
	if err != nil {
		return Sets{}, assignor.Plan{}, &Error{Assignor: w.name, Err: err}
	}
	r := newRebalance(ix, w.cfg)
	r.readInner(innerPlan)
	if len(r.errs) > 0 {
		return Sets{}, assignor.Plan{}, r.err(w.name)
	}
	r.decide()
	plan := r.plan()
	if err := check(ix, plan); err != nil {
		return Sets{}, assignor.Plan{}, &Error{Assignor: w.name, Err: err}
	}
	var sets Sets
	if withSets {
		sets = r.sets()
	}
	return sets, plan, nil
}

func (r *rebalance) err(name string) error {
	return &Error{Assignor: name, Err: errors.Join(r.errs...)}
}

func (r *rebalance) fail(m int32, topic string, id int32, err error) {
	r.errs = append(r.errs, &assignor.PartitionError{Member: r.ix.Members[m].ID, Topic: topic, Partition: id, Generation: r.ix.Generation[m], Err: err})
}

// readInner records the inner assignor's plan in r.target and r.innerBack,
// and every way it breaks the Assignor contract in r.errs: a member entry
// unknown, repeated or missing; a partition assigned to two members, to a
// member that does not subscribe to its topic, or outside the metadata
// (unless it is the member's own valid claim on a topic it subscribes to,
// which [assignor.CheckPlan] accepts as given back). A member listing a
// partition twice is tolerated: the plan is rebuilt anyway.
func (r *rebalance) readInner(plan assignor.Plan) {
	ix := r.ix
	seen := make([]bool, len(ix.Members))
	for _, mp := range plan.Members {
		m, ok := ix.Member(mp.Member)
		if !ok {
			r.errs = append(r.errs, &assignor.MemberError{Member: mp.Member, Err: assignor.ErrUnknownMember})
			continue
		}
		if seen[m] {
			r.errs = append(r.errs, &assignor.MemberError{Member: mp.Member, Err: assignor.ErrDuplicateMember})
			continue
		}
		seen[m] = true
		r.userData[m] = mp.UserData
		for _, tp := range mp.Assigned {
			t, known := ix.Topic(tp.Topic)
			subscribed := known && ix.Subscribes(m, t)
			for _, id := range tp.Partitions {
				var p int32
				inside := known && id >= 0
				if inside {
					p, inside = ix.Flat(t, id)
				}
				switch {
				case !inside:
					if i, ok := r.outside(m, tp.Topic, id); ok && ix.Outside[i].Valid && r.subscribes(m, tp.Topic) {
						r.innerBack[i] = true
					} else {
						r.fail(m, tp.Topic, id, assignor.ErrOutsideMetadata)
					}
				case !subscribed:
					r.fail(m, tp.Topic, id, assignor.ErrNotSubscribed)
				case r.target[p] < 0 || r.target[p] == m:
					r.target[p] = m
				default:
					r.fail(m, tp.Topic, id, assignor.ErrAssignedTwice)
				}
			}
		}
	}
	for m, ok := range seen {
		if !ok {
			r.errs = append(r.errs, &assignor.MemberError{Member: ix.Members[m].ID, Err: assignor.ErrMissingMember})
		}
	}
}

// outside returns the position in ix.Outside of member m's claim on
// (topic, id). O(log C).
func (r *rebalance) outside(m int32, topic string, id int32) (int, bool) {
	claims := r.ix.Outside[r.outsideFrom[m]:r.outsideFrom[m+1]]
	i, ok := slices.BinarySearchFunc(claims, id, func(oc assignor.OutsideClaim, id int32) int {
		return cmp.Or(cmp.Compare(oc.Topic, topic), cmp.Compare(oc.Partition, id))
	})
	return int(r.outsideFrom[m]) + i, ok
}

// subscribes reports whether member m subscribes to the topic named topic,
// whether or not the metadata knows it.
func (r *rebalance) subscribes(m int32, topic string) bool {
	if t, ok := r.ix.Topic(topic); ok {
		return r.ix.Subscribes(m, t)
	}
	return slices.Contains(r.ix.Members[m].Topics, topic)
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
func (r *rebalance) decide() {
	ix := r.ix
	r.final = make([]int32, len(r.target))
	for t := range ix.Topics {
		for p := ix.TopicStart[t]; p < ix.TopicStart[t+1]; p++ {
			to, owner := r.target[p], ix.Owner[p]
			switch {
			case to >= 0 && (owner == assignor.Unclaimed || owner == to):
				r.final[p] = to
			case to >= 0:
				r.final[p] = -1
				r.withheld++
			case owner >= 0 && !r.cfg.RevokeUnknown && ix.Subscribes(owner, int32(t)):
				r.final[p] = owner
			default:
				r.final[p] = -1
			}
		}
	}
	lastMember, lastTopic, lastSubscribes := int32(-1), "", false
	for i, oc := range ix.Outside {
		if r.innerBack[i] {
			r.back[i] = true
			continue
		}
		if r.cfg.RevokeUnknown || !oc.Valid || !r.couldExist(oc) {
			continue
		}
		if oc.Member != lastMember || oc.Topic != lastTopic {
			lastMember, lastTopic, lastSubscribes = oc.Member, oc.Topic, r.subscribes(oc.Member, oc.Topic)
		}
		r.back[i] = lastSubscribes
	}
}

// couldExist reports whether a partition outside the leader's metadata may
// exist all the same: its topic is unknown to the leader (new, or deleted),
// or its number is at or beyond the topic's known partition count (an
// expansion the leader has not seen). A negative partition, or a gap in a
// known topic's partition list, cannot.
func (r *rebalance) couldExist(oc assignor.OutsideClaim) bool {
	switch oc.Reason {
	case assignor.UnknownTopic:
		return true
	case assignor.UnknownPartition:
		t, _ := r.ix.Topic(oc.Topic)
		return int(oc.Partition) >= len(r.ix.Topics[t].Partitions)
	}
	return false
}

// plan builds the plan from r.final and r.back: one entry per member in ID
// order, Assigned and Revoked sorted by topic then partition. The members'
// Assigned lists share two backing arrays, each sub-slice capped at its
// length, so appending to one never writes into another.
func (r *rebalance) plan() assignor.Plan {
	ix := r.ix
	numMembers := len(ix.Members)
	numIDs := make([]int32, numMembers)
	numRuns := make([]int32, numMembers)
	last := make([]int32, numMembers)
	for m := range last {
		last[m] = -1
	}
	for t := range ix.Topics {
		for p := ix.TopicStart[t]; p < ix.TopicStart[t+1]; p++ {
			if m := r.final[p]; m >= 0 {
				numIDs[m]++
				if last[m] != int32(t) {
					last[m] = int32(t)
					numRuns[m]++
				}
			}
		}
	}
	// idPos[m] and runPos[m] start at member m's first slot and end one past
	// its last.
	idPos := make([]int32, numMembers)
	runPos := make([]int32, numMembers)
	var totalIDs, totalRuns int32
	for m := range numMembers {
		idPos[m], runPos[m] = totalIDs, totalRuns
		totalIDs += numIDs[m]
		totalRuns += numRuns[m]
		last[m] = -1
	}
	ids := make([]int32, totalIDs)
	runs := make([]assignor.TopicPartitions, totalRuns)
	runStart := make([]int32, totalRuns)
	for t := range ix.Topics {
		name, parts, base := ix.Topics[t].Name, ix.Topics[t].Partitions, ix.TopicStart[t]
		for p := base; p < ix.TopicStart[t+1]; p++ {
			m := r.final[p]
			if m < 0 {
				continue
			}
			if last[m] != int32(t) {
				last[m] = int32(t)
				runs[runPos[m]].Topic = name
				runStart[runPos[m]] = idPos[m]
				runPos[m]++
			}
			ids[idPos[m]] = parts[p-base]
			idPos[m]++
		}
	}

	plan := assignor.Plan{Members: make([]assignor.MemberPlan, numMembers), FollowUp: r.withheld > 0}
	for m := range numMembers {
		mp := &plan.Members[m]
		mp.Member = ix.Members[m].ID
		end := runPos[m]
		begin := end - numRuns[m]
		for k := begin; k < end; k++ {
			stop := idPos[m]
			if k+1 < end {
				stop = runStart[k+1]
			}
			runs[k].Partitions = ids[runStart[k]:stop:stop]
		}
		if begin < end {
			mp.Assigned = runs[begin:end:end]
		}
		if given := r.outsideRuns(int32(m), true); given != nil {
			mp.Assigned = mergeTopicPartitions(mp.Assigned, given)
		}
		mp.Revoked = r.revoked(int32(m))
		mp.UserData = slices.Clone(r.userData[m])
	}
	return plan
}

// revoked is member m's claims, as sent, minus what it holds after this
// round, sorted by topic then partition; nil when it keeps every claim.
func (r *rebalance) revoked(m int32) []assignor.TopicPartitions {
	var lost []int32
	for _, p := range r.ix.Claims[m] {
		if r.final[p] != m {
			lost = append(lost, p)
		}
	}
	out := r.ix.TopicPartitions(lost)
	if gone := r.outsideRuns(m, false); gone != nil {
		out = mergeTopicPartitions(out, gone)
	}
	return out
}

// outsideRuns returns member m's claims outside the metadata whose r.back is
// given, grouped by topic (ix.Outside is sorted by member, topic,
// partition), or nil if there are none.
func (r *rebalance) outsideRuns(m int32, given bool) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for i := r.outsideFrom[m]; i < r.outsideFrom[m+1]; i++ {
		if r.back[i] != given {
			continue
		}
		oc := r.ix.Outside[i]
		if n := len(out); n == 0 || out[n-1].Topic != oc.Topic {
			out = append(out, assignor.TopicPartitions{Topic: oc.Topic})
		}
		last := &out[len(out)-1]
		last.Partitions = append(last.Partitions, oc.Partition)
	}
	return out
}

// mergeTopicPartitions merges two lists sorted by topic, each topic's
// partitions sorted and distinct, into a new list of the same form. The
// result shares no partition slice with a or b.
func mergeTopicPartitions(a, b []assignor.TopicPartitions) []assignor.TopicPartitions {
	out := make([]assignor.TopicPartitions, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || (len(a) > 0 && a[0].Topic < b[0].Topic):
			out = append(out, assignor.TopicPartitions{Topic: a[0].Topic, Partitions: slices.Clone(a[0].Partitions)})
			a = a[1:]
		case len(a) == 0 || b[0].Topic < a[0].Topic:
			out = append(out, assignor.TopicPartitions{Topic: b[0].Topic, Partitions: slices.Clone(b[0].Partitions)})
			b = b[1:]
		default:
			ps := slices.Concat(a[0].Partitions, b[0].Partitions)
			slices.Sort(ps)
			out = append(out, assignor.TopicPartitions{Topic: a[0].Topic, Partitions: slices.Compact(ps)})
			a, b = a[1:], b[1:]
		}
	}
	return out
}
