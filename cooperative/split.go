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
	// final[p] is the member that holds p after this round, or -1. Without
	// sets to build, it is target's own array, overwritten by decide.
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
	// innerLists[m] is member m's Assigned in the inner plan; reuse[m]
	// reports that it is canonical (topics and partitions strictly
	// increasing, no empty entry, all inside the metadata) and that this
	// round neither withholds from it nor gives back to it, so the plan can
	// return it as it is.
	innerLists [][]assignor.TopicPartitions
	reuse      []bool
	userData   [][]byte
	withheld   int
	errs       []error
	// held[m] and heldRuns[m] are, as decide leaves them, how many
	// partitions r.final gives member m and in how many topic runs; plan
	// sizes its arrays from them (and then reuses them as scratch).
	// lastTopic is decide's scratch: per member, 1 + the topic of its last
	// partition.
	held, heldRuns, lastTopic []int32
}

func newRebalance(ix *assignor.Index, cfg Config) *rebalance {
	r := &rebalance{
		ix:          ix,
		cfg:         cfg,
		innerBack:   make([]bool, len(ix.Outside)),
		back:        make([]bool, len(ix.Outside)),
		outsideFrom: make([]int32, len(ix.Members)+1),
		innerLists:  make([][]assignor.TopicPartitions, len(ix.Members)),
		reuse:       make([]bool, len(ix.Members)),
		userData:    make([][]byte, len(ix.Members)),
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
	r := newRebalance(ix, w.cfg)
	if ia, ok := w.inner.(IndexAssignor); ok {
		assigned, userData, err := ia.AssignIndex(ix)
		if err != nil {
			return Sets{}, assignor.Plan{}, &Error{Assignor: w.name, Err: err}
		}
		r.readIndexed(assigned, userData)
	} else {
		innerPlan, err := w.inner.Assign(g)
		if err != nil {
			return Sets{}, assignor.Plan{}, &Error{Assignor: w.name, Err: err}
		}
		r.readInner(innerPlan)
	}
	if len(r.errs) > 0 {
		return Sets{}, assignor.Plan{}, r.err(w.name)
	}
	if withSets {
		// The sets need the inner plan's targets after the decision.
		r.final = make([]int32, ix.NumPartitions())
	}
	r.decide()
	if err := r.verify(); err != nil {
		return Sets{}, assignor.Plan{}, &Error{Assignor: w.name, Err: err}
	}
	plan := r.plan()
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
// partition twice, or a list out of order, is tolerated: the member's list
// is then rebuilt.
func (r *rebalance) readInner(plan assignor.Plan) {
	ix := r.ix
	r.target = make([]int32, ix.NumPartitions())
	for p := range r.target {
		r.target[p] = -1
	}
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
		r.innerLists[m] = mp.Assigned
		canonical := true
		topics := ix.TopicCursor()
		subs := subscriptionCursor{subs: ix.Subscriptions[m]}
		prev := int32(-1) // the previous entry's topic; topics are numbered in name order
		for j := range mp.Assigned {
			tp := &mp.Assigned[j]
			t, known := topics.Find(tp.Topic)
			subscribed := known && subs.has(t)
			if !known || len(tp.Partitions) == 0 || t <= prev {
				canonical = false
			}
			prev = t
			for k, id := range tp.Partitions {
				if k > 0 && tp.Partitions[k-1] >= id {
					canonical = false
				}
				var p int32
				inside := known && id >= 0
				if inside {
					p, inside = flat(ix, t, id)
				}
				switch {
				case !inside:
					canonical = false
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
		r.reuse[m] = canonical
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
//
// r.final may be r.target's own array (each partition's target is read
// before its decision is written), unless the caller set it beforehand.
func (r *rebalance) decide() {
	ix := r.ix
	if r.final == nil {
		r.final = r.target
	}
	r.count()
	for t := range ix.Topics {
		run := int32(t) + 1
		for p := ix.TopicStart[t]; p < ix.TopicStart[t+1]; p++ {
			to, owner := r.target[p], ix.Owner[p]
			m := int32(-1)
			switch {
			case to >= 0 && (owner == assignor.Unclaimed || owner == to):
				m = to
			case to >= 0:
				r.withheld++
				r.reuse[to] = false
			case owner >= 0 && !r.cfg.RevokeUnknown && ix.Subscribes(owner, int32(t)):
				m = owner
				r.reuse[owner] = false
			}
			r.final[p] = m
			if m >= 0 {
				r.held[m]++
				if r.lastTopic[m] != run {
					r.lastTopic[m] = run
					r.heldRuns[m]++
				}
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
		if lastSubscribes {
			r.reuse[oc.Member] = false
		}
	}
}

// count zeroes r.held and r.heldRuns (allocating them and r.lastTopic on
// first use), for decide, which counts as it decides. One allocation for the
// three.
func (r *rebalance) count() {
	n := len(r.ix.Members)
	if r.held == nil {
		counts := make([]int32, 3*n)
		r.held, r.heldRuns, r.lastTopic = counts[:n:n], counts[n:2*n:2*n], counts[2*n:]
		return
	}
	clear(r.held)
	clear(r.heldRuns)
	clear(r.lastTopic)
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
// order, Assigned and Revoked sorted by topic then partition. A member's
// Assigned is the inner plan's own list when nothing changed it (r.reuse);
// the lists built here share a few backing arrays, each sub-slice capped at
// its length, so appending to one never writes into another. It needs the
// counts decide takes (r.held, r.heldRuns) and uses them up.
func (r *rebalance) plan() assignor.Plan {
	ix := r.ix
	numMembers := len(ix.Members)

	assigned := r.assigned()

	// Revoked: each member's claims inside the metadata that it does not
	// hold, ascending.
	lostFrom := make([]int32, numMembers+1)
	var lost []int32
	for m, claims := range ix.Claims {
		for _, p := range claims {
			if r.final[p] != int32(m) {
				lost = append(lost, p)
			}
		}
		lostFrom[m+1] = int32(len(lost))
	}
	revoked := r.topicPartitions(lost, lostFrom)

	plan := assignor.Plan{Members: make([]assignor.MemberPlan, numMembers), FollowUp: r.withheld > 0}
	for m := range numMembers {
		mp := &plan.Members[m]
		mp.Member = ix.Members[m].ID
		mp.Assigned, mp.Revoked = assigned[m], revoked[m]
		if r.reuse[m] && len(r.innerLists[m]) > 0 {
			mp.Assigned = r.innerLists[m]
		}
		if r.outsideFrom[m] < r.outsideFrom[m+1] {
			if given := r.outsideRuns(int32(m), true); given != nil {
				mp.Assigned = mergeTopicPartitions(mp.Assigned, given)
			}
			if gone := r.outsideRuns(int32(m), false); gone != nil {
				mp.Revoked = mergeTopicPartitions(mp.Revoked, gone)
			}
		}
		mp.UserData = slices.Clone(r.userData[m])
	}
	return plan
}

// assigned builds, for every member whose inner list is not reused, its
// partitions in r.final as topic-grouped lists sorted by topic then
// partition (nil for a member with none), in one sweep of r.final in flat
// order, sized by the counts decide took. All lists share two arrays (one of
// partition IDs, one of entries), each slice capped at its length. O(P + M).
func (r *rebalance) assigned() [][]assignor.TopicPartitions {
	ix := r.ix
	numMembers := len(ix.Members)
	// idFrom[m] and runFrom[m]: where member m's IDs and entries start;
	// start[m]: where its current entry started in ids.
	from := make([]int32, 3*numMembers+2)
	idFrom, runFrom, start := from[:numMembers+1], from[numMembers+1:2*numMembers+2], from[2*numMembers+2:]
	for m := range numMembers {
		idFrom[m+1], runFrom[m+1] = idFrom[m], runFrom[m]
		if !r.reuse[m] {
			idFrom[m+1] += r.held[m]
			runFrom[m+1] += r.heldRuns[m]
		}
	}
	ids := make([]int32, idFrom[numMembers])
	runs := make([]assignor.TopicPartitions, runFrom[numMembers])
	// Per member, reusing decide's counters: the next free slot in ids, its
	// current entry in runs, and 1 + the topic of that entry.
	next, cur, last := r.held, r.heldRuns, r.lastTopic
	for m := range numMembers {
		next[m], cur[m], last[m] = idFrom[m], runFrom[m]-1, 0
	}
	for t := range ix.Topics {
		lo, hi := ix.TopicStart[t], ix.TopicStart[t+1]
		parts := ix.Topics[t].Partitions[:hi-lo]
		name, run := ix.Topics[t].Name, int32(t)+1
		for i, m := range r.final[lo:hi] {
			if m < 0 || r.reuse[m] {
				continue
			}
			at := next[m]
			if last[m] != run {
				c := cur[m]
				if c >= runFrom[m] {
					runs[c].Partitions = ids[start[m]:at:at]
				}
				cur[m], last[m], start[m] = c+1, run, at
				runs[c+1].Topic = name
			}
			ids[at] = parts[i]
			next[m] = at + 1
		}
	}
	out := make([][]assignor.TopicPartitions, numMembers)
	for m := range numMembers {
		lo, hi := runFrom[m], runFrom[m+1]
		if lo == hi {
			continue
		}
		end := next[m]
		runs[hi-1].Partitions = ids[start[m]:end:end]
		out[m] = runs[lo:hi:hi]
	}
	return out
}

// topicPartitions converts, for each member m, the flat partitions
// flat[from[m]:from[m+1]] (ascending) into topic-grouped partitions sorted
// by topic then partition; nil for a member with none. It overwrites flat
// with partition IDs and uses it as the backing array of every partition
// list; all members' lists share one more array for the entries. O(len(flat)
// + R log T) for R topic runs and T topics.
func (r *rebalance) topicPartitions(flat, from []int32) [][]assignor.TopicPartitions {
	ix := r.ix
	numMembers := len(from) - 1
	numRuns := 0
	for m := range numMembers {
		t := int32(-1)
		for _, p := range flat[from[m]:from[m+1]] {
			if t < 0 || p >= ix.TopicStart[t+1] {
				t = topicOf(ix, t, p)
				numRuns++
			}
		}
	}
	runs := make([]assignor.TopicPartitions, numRuns)
	out := make([][]assignor.TopicPartitions, numMembers)
	k := 0
	for m := range numMembers {
		begin := k
		seg := flat[from[m]:from[m+1]]
		t, start := int32(-1), 0
		for i, p := range seg {
			if t < 0 || p >= ix.TopicStart[t+1] {
				if t >= 0 {
					runs[k-1].Partitions = seg[start:i:i]
				}
				t, start = topicOf(ix, t, p), i
				runs[k].Topic = ix.Topics[t].Name
				k++
			}
			seg[i] = ix.Topics[t].Partitions[p-ix.TopicStart[t]]
		}
		if t >= 0 {
			runs[k-1].Partitions = seg[start:len(seg):len(seg)]
			out[m] = runs[begin:k:k]
		}
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
