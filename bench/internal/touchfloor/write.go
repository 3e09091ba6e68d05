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
	lists := Lists(g.Topics, order, f.owner, rank, n)
	for r := range plan.Members {
		plan.Members[r].Assigned = lists[r]
	}
	return plan
}

// Lists writes a plan's lists the fastest known way, for the floors: owner
// holds, per partition in flat order (the partitions of topics[order[0]],
// then of topics[order[1]], …; order nil for topics as given), the member
// it goes to, or a negative number for none; member o is list rank[o]
// (rank nil: list o) of the n lists returned. Each list
// is sorted as the flat order is, grouped by topic. A counting sort of the
// flat positions by member (4 bytes a partition), then one sequential pass
// per member writing its runs; every list shares one array of partition IDs
// and one of runs. Three allocations besides the counts.
func Lists(topics []assignor.Topic, order, owner, rank []int32, n int) [][]assignor.TopicPartitions {
	topicAt := func(k int) *assignor.Topic {
		if order == nil {
			return &topics[k]
		}
		return &topics[order[k]]
	}
	numTopics := len(topics)
	if order != nil {
		numTopics = len(order)
	}
	listOf := func(o int32) int32 {
		if rank == nil {
			return o
		}
		return rank[o]
	}
	// Count each member's partitions and topic runs.
	from := make([]int32, n+1) // from[r+1]: list r's partitions, then prefix sums
	last := make([]int32, n)   // 1 + the last topic (in flat order) list r got
	runs := 0
	at := 0
	for k := range numTopics {
		for range topicAt(k).Partitions {
			if o := owner[at]; o >= 0 {
				r := listOf(o)
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
	ids := make([]int32, from[n])
	next := last // reused: where list r's next partition goes
	copy(next, from[:n])
	for at, o := range owner {
		if o >= 0 {
			r := listOf(o)
			ids[next[r]] = int32(at)
			next[r]++
		}
	}
	// begin[k]: the flat position of the k-th topic.
	begin := make([]int32, numTopics+1)
	for k := range numTopics {
		begin[k+1] = begin[k] + int32(len(topicAt(k).Partitions))
	}
	tps := make([]assignor.TopicPartitions, 0, runs)
	lists := make([][]assignor.TopicPartitions, n)
	for r := range n {
		seg := ids[from[r]:from[r+1]]
		first := len(tps)
		k, open := -1, 0 // the current topic; where its run began in seg
		var topic *assignor.Topic
		for i, flat := range seg {
			if k < 0 || flat >= begin[k+1] {
				if k >= 0 {
					tps[len(tps)-1].Partitions = seg[open:i:i]
				}
				for k++; flat >= begin[k+1]; k++ {
				}
				topic = topicAt(k)
				tps = append(tps, assignor.TopicPartitions{Topic: topic.Name})
				open = i
			}
			seg[i] = topic.Partitions[flat-begin[k]]
		}
		if k >= 0 {
			tps[len(tps)-1].Partitions = seg[open:len(seg):len(seg)]
			lists[r] = tps[first:len(tps):len(tps)]
		}
	}
	return lists
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
