package touchfloor

import "github.com/kgroup/assignor"

// write groups f.owner by member (in ID order: members[r] is the index
// into g.Members of the r-th member by ID) and by topic (in name order:
// order[k] is the k-th topic by name) into a plan laid out as f.layout
// says.
func (f *Floor) write(g assignor.Group, order, members []int32) assignor.Plan {
	n := len(members)
	rank := make([]int32, n) // rank[i]: the position of g.Members[i] by ID
	for r, i := range members {
		rank[i] = int32(r)
	}
	plan := assignor.Plan{Members: make([]assignor.MemberPlan, n)}
	for r, i := range members {
		plan.Members[r].Member = g.Members[i].ID
	}
	if f.layout == PerList {
		f.appendEach(g, order, rank, plan.Members)
		return plan
	}
	// Count each member's partitions and topic runs (entries).
	parts := make([]int32, n+1)   // parts[r+1]: member r's partitions, then prefix sums
	entries := make([]int32, n+1) // likewise for entries
	last := make([]int32, n)      // 1 + the last topic (by name) member r got
	at := 0
	for k, t := range order {
		for range g.Topics[t].Partitions {
			if o := f.owner[at]; o >= 0 {
				r := rank[o]
				parts[r+1]++
				if last[r] != int32(k)+1 {
					last[r] = int32(k) + 1
					entries[r+1]++
				}
			}
			at++
		}
	}
	for r := range n {
		parts[r+1] += parts[r]
		entries[r+1] += entries[r]
	}
	// One pass in flat order writes every partition ID and opens every
	// entry; start[e] is where entry e's partitions begin.
	ids := make([]int32, parts[n])
	tps := make([]assignor.TopicPartitions, entries[n])
	start := make([]int32, entries[n]+1)
	nextPart, nextEntry := parts[:n], entries[:n] // reused as cursors: each ends at the next member's start
	clear(last)
	at = 0
	for k, t := range order {
		topic := &g.Topics[t]
		for _, p := range topic.Partitions {
			if o := f.owner[at]; o >= 0 {
				r := rank[o]
				if last[r] != int32(k)+1 {
					last[r] = int32(k) + 1
					e := nextEntry[r]
					tps[e].Topic = topic.Name
					start[e] = nextPart[r]
					nextEntry[r]++
				}
				ids[nextPart[r]] = p
				nextPart[r]++
			}
			at++
		}
	}
	// The cursors now hold each member's end: entry e of member r ends where
	// e+1 starts, or at the member's end.
	e := int32(0)
	for r := range n {
		for ; e < nextEntry[r]; e++ {
			end := nextPart[r]
			if e+1 < nextEntry[r] {
				end = start[e+1]
			}
			tps[e].Partitions = ids[start[e]:end:end]
		}
	}
	from := int32(0)
	for r := range n {
		if to := nextEntry[r]; to > from {
			plan.Members[r].Assigned = tps[from:to:to]
			from = to
		}
	}
	return plan
}

// appendEach writes the plan by appending: each member's Assigned and each
// entry's Partitions a slice of its own, grown as partitions arrive.
func (f *Floor) appendEach(g assignor.Group, order, rank []int32, plans []assignor.MemberPlan) {
	last := make([]int32, len(rank))
	at := 0
	for k, t := range order {
		topic := &g.Topics[t]
		for _, p := range topic.Partitions {
			if o := f.owner[at]; o >= 0 {
				mp := &plans[rank[o]]
				if last[rank[o]] != int32(k)+1 {
					last[rank[o]] = int32(k) + 1
					mp.Assigned = append(mp.Assigned, assignor.TopicPartitions{Topic: topic.Name})
				}
				e := &mp.Assigned[len(mp.Assigned)-1]
				e.Partitions = append(e.Partitions, p)
			}
			at++
		}
	}
}
