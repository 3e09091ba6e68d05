package cooperative

import (
	"slices"

	"github.com/kgroup/assignor"
)

// plan builds the plan from r.final and r.back: one entry per member in ID
// order, Assigned and Revoked sorted by topic then partition, the inner
// assignor's user data. A member's Assigned is the inner plan's own list
// when nothing changed it (r.reuse); the lists built here share a few
// backing arrays, each sub-slice capped at its length, so appending to one
// never writes into another.
func (r *rebalance) plan() assignor.Plan {
	ix := r.ix
	revoked := r.revoked()
	fp := r.flat()
	fp.Holder = r.withoutReused()
	plan := ix.PlanOf(fp)
	for m, reused := range r.reuse {
		if reused {
			plan.Members[m].Assigned = r.innerLists[m]
		}
	}
	outside := ix.Outside() // sorted by member: walked alongside
	at := 0
	for m := range plan.Members {
		mp := &plan.Members[m]
		mp.Revoked = revoked[m]
		from := at
		for at < len(outside) && outside[at].Member == int32(m) {
			at++
		}
		if gone := r.outsideRuns(from, at, false); gone != nil {
			mp.Revoked = assignor.MergeTopicPartitions(mp.Revoked, gone)
		}
		mp.UserData = slices.Clone(mp.UserData)
	}
	return plan
}

// withoutReused returns r.final, or when some member's inner list stands
// as its plan a copy in which that member holds nothing, so that its lists
// are not built twice.
func (r *rebalance) withoutReused() []int32 {
	if !slices.Contains(r.reuse, true) {
		return r.final
	}
	holder := slices.Clone(r.final)
	for p, m := range holder {
		if m >= 0 && r.reuse[m] {
			holder[p] = -1
		}
	}
	return holder
}

// revoked returns each member's claims inside the metadata that it does not
// hold after this round, as topic lists.
func (r *rebalance) revoked() [][]assignor.TopicPartitions {
	ix := r.ix
	numMembers := ix.NumMembers()
	var flat []int32
	from := make([]int, numMembers+1)
	for m := range int32(numMembers) {
		for _, p := range ix.Claims(m) {
			if r.final[p] != m {
				flat = append(flat, p)
			}
		}
		from[m+1] = len(flat)
	}
	out := make([][]assignor.TopicPartitions, numMembers)
	for m := range numMembers {
		if lost := flat[from[m]:from[m+1]]; len(lost) > 0 {
			out[m] = ix.TopicPartitions(lost)
		}
	}
	return out
}

// outsideRuns returns the claims ix.Outside()[from:to] (one member's,
// sorted by topic, partition) whose r.back is given, grouped by topic, or
// nil if there are none.
func (r *rebalance) outsideRuns(from, to int, given bool) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for i, oc := range r.ix.Outside()[from:to] {
		if r.back[from+i] != given {
			continue
		}
		if n := len(out); n == 0 || out[n-1].Topic != oc.Topic {
			out = append(out, assignor.TopicPartitions{Topic: oc.Topic})
		}
		last := &out[len(out)-1]
		last.Partitions = append(last.Partitions, oc.Partition)
	}
	return out
}
