package cooperative

import (
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/dense"
)

// plan builds the plan from r.final and r.back: one entry per member in ID
// order, Assigned and Revoked sorted by topic then partition. A member's
// Assigned is the inner plan's own list when nothing changed it (r.reuse);
// the lists built here share a few backing arrays, each sub-slice capped at
// its length, so appending to one never writes into another.
func (r *rebalance) plan() assignor.Plan {
	ix := r.ix
	assigned := dense.Lists[assignor.TopicPartitions](ix, r.final, r.held, r.reuse)
	revoked := r.revoked()
	plan := assignor.Plan{Members: make([]assignor.MemberPlan, len(ix.Members)), FollowUp: r.withheld > 0}
	for m := range ix.Members {
		mp := &plan.Members[m]
		mp.Member = ix.Members[m].ID
		mp.Assigned, mp.Revoked = assigned[m], revoked[m]
		if r.reuse[m] && len(r.innerLists[m]) > 0 {
			mp.Assigned = r.innerLists[m]
		}
		if from, to := ix.OutsideRange(int32(m)); from < to {
			if given := r.outsideRuns(from, to, true); given != nil {
				mp.Assigned = assignor.MergeTopicPartitions(mp.Assigned, given)
			}
			if gone := r.outsideRuns(from, to, false); gone != nil {
				mp.Revoked = assignor.MergeTopicPartitions(mp.Revoked, gone)
			}
		}
		mp.UserData = slices.Clone(r.userData[m])
	}
	return plan
}

// revoked returns each member's claims inside the metadata that it does not
// hold after this round, as topic lists.
func (r *rebalance) revoked() [][]assignor.TopicPartitions {
	ix := r.ix
	lostFrom := make([]int32, len(ix.Members)+1)
	var lost []int32
	for m, claims := range ix.Claims {
		for _, p := range claims {
			if r.final[p] != int32(m) {
				lost = append(lost, p)
			}
		}
		lostFrom[m+1] = int32(len(lost))
	}
	return dense.ListsOf[assignor.TopicPartitions](ix, lost, lostFrom)
}

// outsideRuns returns the claims ix.Outside[from:to] (one member's, sorted
// by topic, partition) whose r.back is given, grouped by topic, or nil if
// there are none.
func (r *rebalance) outsideRuns(from, to int, given bool) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for i := from; i < to; i++ {
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
