package sticky

import "github.com/kgroup/assignor"

// plan builds the [assignor.Plan] from pr.assign with three allocations
// whatever the size: the plan entries, one array of partition IDs shared by
// all members, and one array of topic entries shared by all members (each
// member's slices have their capacity clipped, so appending to one never
// writes into another). Assigned lists come out sorted by topic, then
// partition, because flat order is that order. O(P + M).
func (pr *problem) plan() assignor.Plan {
	ix := pr.ix
	M := pr.members
	idFrom := make([]int32, M+1)
	runFrom := make([]int32, M+1)
	lastTopic := make([]int32, M)
	for i := range lastTopic {
		lastTopic[i] = -1
	}
	for t := range ix.Topics {
		lo, hi := ix.TopicStart[t], ix.TopicStart[t+1]
		for _, m := range pr.assign[lo:hi] {
			if m < 0 {
				continue
			}
			idFrom[m+1]++
			if lastTopic[m] != int32(t) {
				lastTopic[m] = int32(t)
				runFrom[m+1]++
			}
		}
	}
	for m := range M {
		idFrom[m+1] += idFrom[m]
		runFrom[m+1] += runFrom[m]
	}
	ids := make([]int32, idFrom[M])
	runs := make([]assignor.TopicPartitions, runFrom[M])
	runStart := make([]int32, runFrom[M]) // start of each run in ids
	idFill := make([]int32, M)
	runFill := make([]int32, M)
	for i := range lastTopic {
		lastTopic[i] = -1
	}
	for t := range ix.Topics {
		lo, hi := ix.TopicStart[t], ix.TopicStart[t+1]
		parts := ix.Topics[t].Partitions
		for p := lo; p < hi; p++ {
			m := pr.assign[p]
			if m < 0 {
				continue
			}
			at := idFrom[m] + idFill[m]
			if lastTopic[m] != int32(t) {
				lastTopic[m] = int32(t)
				r := runFrom[m] + runFill[m]
				runs[r].Topic = ix.Topics[t].Name
				runStart[r] = at
				runFill[m]++
			}
			ids[at] = parts[p-lo]
			idFill[m]++
		}
	}
	plan := assignor.Plan{Members: make([]assignor.MemberPlan, M)}
	for m, mem := range ix.Members {
		plan.Members[m].Member = mem.ID
		lo, hi := runFrom[m], runFrom[m+1]
		if lo == hi {
			continue
		}
		for r := lo; r < hi; r++ {
			end := idFrom[m+1]
			if r+1 < hi {
				end = runStart[r+1]
			}
			runs[r].Partitions = ids[runStart[r]:end:end]
		}
		plan.Members[m].Assigned = runs[lo:hi:hi]
	}
	return plan
}
