package rebalance

import (
	"cmp"
	"iter"
	"slices"

	"github.com/kgroup/assignor"
)

// A cooperative leader remembers its last round, for two uses in the next:
//
//   - members whose claims it cannot read (metadata that does not decode,
//     a subscription cut short before its owned partitions) get the claims
//     its last plan implies: what it assigned them, and what it withheld
//     from them (once: a member that missed that SyncGroup still holds it).
//     Without a memory it can vouch for, the round withholds every partition
//     no readable member claims (see [Round.Assign]);
//   - the fast re-join mark is left off a plan that withholds exactly what
//     the last one withheld, from the same members at the same generations:
//     those members have not taken their last assignment yet (a member slow
//     to sync or revoke), so rejoining at once could only repeat the round.
//
// The memory is used only in the round right after it (the generation
// after it, when the client says which) and only once the plan is known to
// have been delivered: the leader's own member received its assignment
// ([Leader.Delivered]) or a readable member claims what it was given in it.

// memory is a leader's last cooperative round.
type memory struct {
	// generation is the generation the round balanced into: from
	// [Round.Assign], or [Leader.Delivered] when the client did not say.
	generation int32
	delivered  bool
	// marked: the round's assignments carried the fast re-join mark, so
	// members rejoined at once and one slow to sync may have missed it.
	marked bool
	// assignments are the round's, sorted by member ID.
	assignments []Assignment
	// withheld are the partitions the round withheld from a member that
	// claimed them, sorted by topic, then partition.
	withheld []withheldClaim
}

// withheldClaim is a partition a round withheld from the member that
// claimed it.
type withheldClaim struct {
	topic      string
	partition  int32
	member     string
	generation int32 // of the member's claim
	// carried: the claim was not the member's own but carried over from
	// the round before, or a blind round's guess: it is not carried to the
	// next round.
	carried bool
}

func compareWithheld(a, b withheldClaim) int {
	return cmp.Or(cmp.Compare(a.topic, b.topic), cmp.Compare(a.partition, b.partition))
}

// Delivered tells the leader that its own member received its assignment of
// generation: adapters call it from the member side after every successful
// SyncGroup. When the leader's last round balanced into that generation, its
// plan was delivered (the broker took the leader's SyncGroup): the next
// round may then trust it for members whose claims it cannot read, even
// when no readable member vouches for it. Any call also bounds the claims a
// round that is not told its generation accepts (see [Round.Assign]).
func (l *Leader) Delivered(generation int32) {
	if generation <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.synced = max(l.synced, generation)
	if l.last != nil && l.last.generation == generation {
		l.last.delivered = true
	}
}

// Balanced tells the leader the generation its last round balanced into, for
// a client that says it only after the plan (sarama passes it to
// AssignmentData, not to Plan). It is ignored when the round was told its
// generation.
func (l *Leader) Balanced(generation int32) {
	if generation <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last != nil && l.last.generation == 0 {
		l.last.generation = generation
	}
}

// generationLag is how far past the newest generation its own member synced
// a claim may be, in a round not told its generation, before it counts as
// impossible: a member that missed that many SyncGroups in a row while the
// rest of the group went on is not expected.
const generationLag = 16

// claimBound returns the generation at or above which a claim cannot be
// true in a round not told its generation, or 0 when the leader's member
// has not synced yet.
func (l *Leader) claimBound() int32 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.synced <= 0 {
		return 0
	}
	return l.synced + generationLag + 1
}

// remember keeps the round as the leader's last.
func (l *Leader) remember(m *memory) {
	l.mu.Lock()
	l.last = m
	l.mu.Unlock()
}

// lastRound returns the leader's memory of its last round, or nil.
func (l *Leader) lastRound() *memory {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last
}

// assigned returns what the round assigned member id.
func (m *memory) assigned(id string) []assignor.TopicPartitions {
	i, ok := slices.BinarySearchFunc(m.assignments, id, func(a Assignment, id string) int { return cmp.Compare(a.Member, id) })
	if !ok {
		return nil
	}
	return m.assignments[i].Partitions
}

// withheldFrom returns what the round withheld from member id out of the
// member's own claims, not carried ones, when the round was marked for fast
// re-join: then the others rejoined at once and the member may have missed
// the round's SyncGroup, still holding them. (An unmarked round's SyncGroup
// reaches every member that joined it before anyone rejoins but the
// members that revoke, as in any cooperative group.)
func (m *memory) withheldFrom(id string) []assignor.TopicPartitions {
	if !m.marked {
		return nil
	}
	return m.withheldAll(id)
}

// withheldAll returns what the round withheld from member id out of the
// member's own claims.
func (m *memory) withheldAll(id string) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for _, w := range m.withheld {
		if w.member != id || w.carried {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Topic == w.topic {
			out[n-1].Partitions = append(out[n-1].Partitions, w.partition)
		} else {
			out = append(out, assignor.TopicPartitions{Topic: w.topic, Partitions: []int32{w.partition}})
		}
	}
	return out
}

// follows reports whether this round comes right after last: last's
// generation is known, the round balances into the next one (when the
// client says), no readable member claims a newer generation, and the plan
// was delivered (the leader's member got it, or a readable member claims at
// its generation). It returns the members claiming at last's generation.
func (r *Round) follows(last *memory, gen int32) (witnesses []int, ok bool) {
	if last == nil || last.generation <= 0 || gen > 0 && gen != last.generation+1 {
		return nil, false
	}
	for i, mem := range r.members {
		if mem.status != readable || mem.unknown {
			continue
		}
		switch {
		case mem.m.Generation > last.generation:
			return nil, false
		case mem.m.Generation == last.generation:
			witnesses = append(witnesses, i)
		}
	}
	return witnesses, last.delivered || len(witnesses) > 0
}

// recall gives every member whose claims are unknown the claims the
// leader's last plan implies, if it can vouch for that plan: what the plan
// assigned the member, at the plan's generation (ordinary claims, which
// every assignor treats alike), and what it withheld from the member (kept
// from everyone else once more, in case the member missed the plan's
// SyncGroup). It reports false when some member's claims are unknown and
// the last plan cannot be vouched for: it was not the round before this one,
// was not delivered, or a readable member claims something the plan did not
// give it.
func (r *Round) recall(gen int32, stats *Stats) (ok bool) {
	for _, mem := range r.members {
		if mem.unknown {
			stats.ClaimsUnknown++
		}
	}
	if stats.ClaimsUnknown == 0 {
		return true
	}
	last := r.l.lastRound()
	witnesses, ok := r.follows(last, gen)
	for _, i := range witnesses {
		// A witness claims what the plan gave it, or, if its SyncGroup
		// failed (kgo then reports the generation it joined with its old
		// partitions), also what the plan withheld from it.
		mem := &r.members[i]
		given := assignor.MergeTopicPartitions(last.assigned(mem.m.ID), last.withheldAll(mem.m.ID))
		if ok && !within(mem.allClaims(), given) {
			r.l.log.Warn("member claims partitions the leader's last plan did not give it; that plan is not vouched for", "member", mem.m.ID, "generation", mem.m.Generation)
			ok = false
		}
	}
	if !ok {
		r.l.log.Warn("claims of some members unknown and no delivered plan of the round before to read them from: every partition no other member claims is withheld this round",
			"members", stats.ClaimsUnknown)
		return false
	}
	for i := range r.members {
		mem := &r.members[i]
		if !mem.unknown {
			continue
		}
		held := last.assigned(mem.m.ID)
		mem.owned, mem.count, mem.m.Generation = yieldAll(held), 0, last.generation
		mem.shadow = last.withheldFrom(mem.m.ID)
		r.l.log.Info("claims unknown; read from the leader's last plan", "member", mem.m.ID, "generation", last.generation,
			"partitions", assignor.CountPartitions(held), "withheld", assignor.CountPartitions(mem.shadow))
	}
	return true
}

// within reports whether every claim is in given (canonical).
func within(claims iter.Seq2[string, []int32], given []assignor.TopicPartitions) bool {
	for topic, ids := range claims {
		i, ok := slices.BinarySearchFunc(given, topic, func(tp assignor.TopicPartitions, t string) int { return cmp.Compare(tp.Topic, t) })
		if !ok {
			if len(ids) > 0 {
				return false
			}
			continue
		}
		for _, id := range ids {
			if _, ok := slices.BinarySearch(given[i].Partitions, id); !ok {
				return false
			}
		}
	}
	return true
}

// yieldAll yields tps, a topic at a time; nil for none.
func yieldAll(tps []assignor.TopicPartitions) iter.Seq2[string, []int32] {
	if len(tps) == 0 {
		return nil
	}
	return func(yield func(string, []int32) bool) {
		for _, tp := range tps {
			if !yield(tp.Topic, tp.Partitions) {
				return
			}
		}
	}
}

// progress reports whether a plan that withholds the partitions withheld
// lets the next round move on if the members rejoin at once. It does not
// when last was the round before and the plan either keeps partitions from
// everyone but a member whose claims are unknown for one more round, in
// case it missed the last plan, or withholds exactly what the last one did,
// from the same members at the same generations (they have not taken their
// last assignment: slow to sync or to revoke). Members rejoining at once
// could only repeat the round then, and keep a slow member from syncing
// again; the members that revoke still rejoin once they have.
func (r *Round) progress(last *memory, gen int32, withheld []withheldClaim) bool {
	if len(withheld) == 0 {
		return true
	}
	if _, ok := r.follows(last, gen); !ok {
		return true
	}
	changed := false
	for _, w := range withheld {
		if w.carried {
			return false
		}
		i, found := slices.BinarySearchFunc(last.withheld, w, compareWithheld)
		if !found || last.withheld[i].member != w.member || last.withheld[i].generation != w.generation {
			changed = true
		}
	}
	return changed
}

// withheldClaims lists the partitions the plan withholds from a member that
// claims them, sorted: those taken for members the round could not assign
// (from withhold), and those the assignor itself withheld (a subscribed
// topic's partition with a valid owner and no holder).
func withheldClaims(ix *assignor.Index, fp assignor.FlatPlan, taken []bool, takenFrom []withheldClaim) []withheldClaim {
	out := takenFrom
	if !fp.FollowUp {
		return sortWithheld(out)
	}
	for t := range int32(ix.NumTopics()) {
		if len(ix.Subscribers(t)) == 0 {
			continue
		}
		first, end := ix.TopicRange(t)
		for p := first; p < end; p++ {
			o := ix.Owner(p)
			if fp.Holder[p] >= 0 || o < 0 || taken != nil && taken[p] {
				continue
			}
			topic, id := ix.Partition(p)
			out = append(out, withheldClaim{topic: topic, partition: id, member: ix.Member(o).ID, generation: ix.Generation(o)})
		}
	}
	return sortWithheld(out)
}

func sortWithheld(ws []withheldClaim) []withheldClaim {
	slices.SortFunc(ws, compareWithheld)
	return ws
}
