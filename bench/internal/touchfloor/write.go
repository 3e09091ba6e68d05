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
	from := make([]int32, n+1) // from[r+1]: member r's partitions, then prefix sums
	last := make([]int32, n)   // 1 + the last topic (by name) member r got
	runs := 0
	at := 0
	for k, t := range order {
		for range g.Topics[t].Partitions {
			if o := f.owner[at]; o >= 0 {
				r := rank[o]
				from[r+1]++
				if last[r] != int32(k)+1 {
					last[r] = int32(k) + 1
					runs++
				}
			}
			at++
		}
	}
	for r := range n {
		from[r+1] += from[r]
	}
	// Scatter the flat positions by member (a counting sort: 4 bytes a
	// partition), so that each member's entries are then written in one
	// sequential pass, the entries array filled front to back.
	ids := make([]int32, from[n])
	next := last // reused: where member r's next partition goes
	copy(next, from[:n])
	for at, o := range f.owner {
		if o >= 0 {
			r := rank[o]
			ids[next[r]] = int32(at)
			next[r]++
		}
	}
	// begin[k]: the flat position of the k-th topic by name.
	begin := make([]int32, len(order)+1)
	for k, t := range order {
		begin[k+1] = begin[k] + int32(len(g.Topics[t].Partitions))
	}
	tps := make([]assignor.TopicPartitions, 0, runs)
	for r := range n {
		seg := ids[from[r]:from[r+1]]
		first := len(tps)
		k, open := -1, 0 // the current topic (by name); where its run began in seg
		for i, flat := range seg {
			if k < 0 || flat >= begin[k+1] {
				if k >= 0 {
					tps[len(tps)-1].Partitions = seg[open:i:i]
				}
				for k++; flat >= begin[k+1]; k++ {
				}
				tps = append(tps, assignor.TopicPartitions{Topic: g.Topics[order[k]].Name})
				open = i
			}
			seg[i] = g.Topics[order[k]].Partitions[flat-begin[k]]
		}
		if k >= 0 {
			tps[len(tps)-1].Partitions = seg[open:len(seg):len(seg)]
			plan.Members[r].Assigned = tps[first:len(tps):len(tps)]
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
