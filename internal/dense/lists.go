package dense

// Run is the shape of assignor.TopicPartitions, which this package cannot
// name: some partitions of one topic. [Lists] and [ListsOf] build, and
// [ClaimRuns] reads, any type of that shape; package assignor instantiates
// them with its own type, so no conversion or callback costs anything per
// partition.
type Run = struct {
	Topic      string
	Partitions []int32
}

// TopicPartitions is any type whose underlying type is [Run].
type TopicPartitions interface{ ~Run }

// Sizes are per-member counts of an assignment: Partitions[m] partitions
// held by member m, in Runs[m] topic runs.
type Sizes struct {
	Partitions, Runs []int32
}

// SizeCounter counts Sizes as an assignment is decided, in flat order.
type SizeCounter struct {
	Sizes
	last []int32 // 1 + the topic of each member's last partition
}

// NewSizeCounter returns a counter for the members of ix, at zero.
func (ix *Index) NewSizeCounter() SizeCounter {
	n := len(ix.Members)
	counts := make([]int32, 3*n)
	return SizeCounter{Sizes: Sizes{Partitions: counts[:n:n], Runs: counts[n : 2*n : 2*n]}, last: counts[2*n:]}
}

// Add counts one partition of topic t held by member m. Partitions must be
// added in flat order.
func (c *SizeCounter) Add(m, t int32) {
	c.Partitions[m]++
	if c.last[m] != t+1 {
		c.last[m] = t + 1
		c.Runs[m]++
	}
}

// CountSizes counts, for each member, the partitions holder gives it
// (holder[p] is a member number or negative) and their topic runs. O(P + M).
func (ix *Index) CountSizes(holder []int32) Sizes {
	c := ix.NewSizeCounter()
	for t := range ix.Topics {
		for _, m := range holder[ix.TopicStart[t]:ix.TopicStart[t+1]] {
			if m >= 0 {
				c.Add(m, int32(t))
			}
		}
	}
	return c.Sizes
}

// Lists returns, for each member m, the partitions holder gives it as topic
// runs sorted by topic then partition; nil for a member with none, and for
// a member whose skip[m] is set (skip may be nil). sizes must count holder
// as [Index.CountSizes] does (skipped members' counts are ignored).
//
// Every member's lists share two arrays, one of partition IDs and one of
// runs; each ID slice has its capacity clipped, so appending to one never
// writes into another. O(P + M), four allocations.
func Lists[T TopicPartitions](ix *Index, holder []int32, sizes Sizes, skip []bool) [][]T {
	numMembers := len(ix.Members)
	// Per member: where its IDs and runs start in ids and runs, the next
	// free slot in ids, the slot of its open run, where that run started in
	// ids, and 1 + the open run's topic (0: none yet).
	type member struct{ idFrom, runFrom, next, slot, start, open int32 }
	state := make([]member, numMembers+1)
	for m := range numMembers {
		st := &state[m]
		st.next = st.idFrom
		state[m+1].idFrom, state[m+1].runFrom = st.idFrom, st.runFrom
		if skip == nil || !skip[m] {
			state[m+1].idFrom += sizes.Partitions[m]
			state[m+1].runFrom += sizes.Runs[m]
		}
	}
	ids := make([]int32, state[numMembers].idFrom)
	runs := make([]T, state[numMembers].runFrom)
	for t := range ix.Topics {
		lo, hi := ix.TopicStart[t], ix.TopicStart[t+1]
		parts := ix.Topics[t].Partitions[:hi-lo]
		run := int32(t) + 1
		for i, m := range holder[lo:hi] {
			if m < 0 || (skip != nil && skip[m]) {
				continue
			}
			st := &state[m]
			at := st.next
			if st.open != run {
				if st.open > 0 {
					runs[st.runFrom+st.slot] = T{Topic: ix.Topics[st.open-1].Name, Partitions: ids[st.start:at:at]}
					st.slot++
				}
				st.open, st.start = run, at
			}
			ids[at] = parts[i]
			st.next = at + 1
		}
	}
	out := make([][]T, numMembers)
	for m := range numMembers {
		st := &state[m]
		if st.open == 0 {
			continue
		}
		end := st.next
		runs[st.runFrom+st.slot] = T{Topic: ix.Topics[st.open-1].Name, Partitions: ids[st.start:end:end]}
		out[m] = runs[st.runFrom:state[m+1].runFrom:state[m+1].runFrom]
	}
	return out
}

// ListsOf converts, for each member m, the flat partitions
// flat[from[m]:from[m+1]] (ascending) into topic runs, sorted by
// topic then partition; nil for a member with none. len(from) is one more
// than the number of lists. It overwrites flat with partition IDs and uses
// it as the backing array of every ID slice (capacity clipped); all lists
// share one more array for the runs. O(len(flat) + R log T) for R runs and
// T topics.
func ListsOf[T TopicPartitions](ix *Index, flat, from []int32) [][]T {
	numLists := len(from) - 1
	numRuns := 0
	for m := range numLists {
		t := int32(-1)
		for _, p := range flat[from[m]:from[m+1]] {
			if t < 0 || p >= ix.TopicStart[t+1] {
				t = ix.TopicAfter(t, p)
				numRuns++
			}
		}
	}
	runs := make([]T, 0, numRuns)
	out := make([][]T, numLists)
	for m := range numLists {
		begin := len(runs)
		seg := flat[from[m]:from[m+1]]
		t, start := int32(-1), 0
		for i, p := range seg {
			if t < 0 || p >= ix.TopicStart[t+1] {
				if t >= 0 {
					runs = append(runs, T{Topic: ix.Topics[t].Name, Partitions: seg[start:i:i]})
				}
				t, start = ix.TopicAfter(t, p), i
			}
			seg[i] = ix.Topics[t].Partitions[p-ix.TopicStart[t]]
		}
		if t >= 0 {
			runs = append(runs, T{Topic: ix.Topics[t].Name, Partitions: seg[start:len(seg):len(seg)]})
			out[m] = runs[begin:len(runs):len(runs)]
		}
	}
	return out
}
