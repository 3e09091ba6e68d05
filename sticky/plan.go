package sticky

import "github.com/kgroup/assignor"

// plan builds the [assignor.Plan] from pr.assign and the sizes deal counted,
// with a fixed number of allocations whatever the size: the plan entries,
// one array of partition IDs shared by all members, one array of topic
// entries shared by all members, and per-member scratch (each
// member's slices have their capacity clipped, so appending to one never
// writes into another). Assigned lists come out sorted by topic, then
// partition, because flat order is that order. O(P + M).
func (pr *problem) plan() assignor.Plan {
	ix := pr.ix
	M := pr.members
	idFrom, runFrom := pr.idFrom, pr.runFrom
	lastTopic := make([]int32, M)
	for m := range M {
		idFrom[m+1] += idFrom[m]
		runFrom[m+1] += runFrom[m]
	}
	ids := make([]int32, idFrom[M])
	runs := make([]assignor.TopicPartitions, runFrom[M])
	// Per member: the next free slot in ids, its current run (in runs) and
	// where that run started in ids.
	idFill := idFrom[:M:M]
	cur := make([]int32, M)
	start := make([]int32, M)
	for m := range M {
		cur[m] = runFrom[m] - 1
		lastTopic[m] = -1
	}
	for t := range ix.Topics {
		lo, hi := ix.TopicStart[t], ix.TopicStart[t+1]
		parts := ix.Topics[t].Partitions[:hi-lo]
		name := ix.Topics[t].Name
		for i, m := range pr.assign[lo:hi] {
			if m < 0 {
				continue
			}
			at := idFill[m]
			if lastTopic[m] != int32(t) {
				if r := cur[m]; r >= runFrom[m] {
					runs[r].Partitions = ids[start[m]:at:at]
				}
				lastTopic[m] = int32(t)
				cur[m]++
				runs[cur[m]].Topic = name
				start[m] = at
			}
			ids[at] = parts[i]
			idFill[m] = at + 1
		}
	}
	for m := range M {
		if r := cur[m]; r >= runFrom[m] {
			end := idFill[m]
			runs[r].Partitions = ids[start[m]:end:end]
		}
	}
	plan := assignor.Plan{Members: make([]assignor.MemberPlan, M)}
	for m, mem := range ix.Members {
		plan.Members[m].Member = mem.ID
		if lo, hi := runFrom[m], runFrom[m+1]; lo < hi {
			plan.Members[m].Assigned = runs[lo:hi:hi]
		}
	}
	return plan
}
