package dense

// A run is a member's consecutive partitions of one topic in flat order:
// one entry of a plan's topic lists. Lists and ListsOf build those entries
// with a caller's constructor (assignor.TopicPartitions, which this package
// cannot name), once per run, never per partition.

// Sizes are per-member counts of an assignment: Partitions[m] partitions
// held by member m, in Runs[m] topic runs.
type Sizes struct {
	Partitions, Runs []int32
}

// CountSizes counts, for each member, the partitions holder gives it
// (holder[p] is a member number or negative) and their topic runs. O(P + M).
func (ix *Index) CountSizes(holder []int32) Sizes {
	n := len(ix.Members)
	counts := make([]int32, 3*n)
	s := Sizes{Partitions: counts[:n:n], Runs: counts[n : 2*n : 2*n]}
	lastTopic := counts[2*n:] // 1 + the topic of each member's last partition
	for t := range ix.Topics {
		run := int32(t) + 1
		for _, m := range holder[ix.TopicStart[t]:ix.TopicStart[t+1]] {
			if m < 0 {
				continue
			}
			s.Partitions[m]++
			if lastTopic[m] != run {
				lastTopic[m] = run
				s.Runs[m]++
			}
		}
	}
	return s
}

// Lists returns, for each member m, the partitions holder gives it as topic
// runs made by mk (topic, partition IDs), sorted by topic then partition; nil
// for a member with none, and for a member whose skip[m] is set (skip may be
// nil). sizes must count holder as [Index.CountSizes] does (skipped members'
// counts are ignored).
//
// Every member's lists share two arrays, one of partition IDs and one of
// runs; each ID slice handed to mk has its capacity clipped, so appending to
// one never writes into another. O(P + M), three allocations.
func Lists[T any](ix *Index, holder []int32, sizes Sizes, skip []bool, mk func(topic string, ids []int32) T) [][]T {
	numMembers := len(ix.Members)
	// idFrom[m], runFrom[m]: where member m's IDs and runs start.
	from := make([]int32, 2*numMembers+2)
	idFrom, runFrom := from[:numMembers+1], from[numMembers+1:]
	for m := range numMembers {
		idFrom[m+1], runFrom[m+1] = idFrom[m], runFrom[m]
		if skip == nil || !skip[m] {
			idFrom[m+1] += sizes.Partitions[m]
			runFrom[m+1] += sizes.Runs[m]
		}
	}
	ids := make([]int32, idFrom[numMembers])
	runs := make([]T, runFrom[numMembers])
	// Per member: the next free slot in ids, the slot of its open run in
	// runs, and where that run started in ids; the open run's topic is
	// open[m]-1 (0: none yet).
	state := make([]int32, 4*numMembers)
	next, slot, start, open := state[:numMembers], state[numMembers:2*numMembers], state[2*numMembers:3*numMembers], state[3*numMembers:]
	copy(next, idFrom[:numMembers])
	for t := range ix.Topics {
		lo, hi := ix.TopicStart[t], ix.TopicStart[t+1]
		parts := ix.Topics[t].Partitions[:hi-lo]
		for i, m := range holder[lo:hi] {
			if m < 0 || (skip != nil && skip[m]) {
				continue
			}
			at := next[m]
			if open[m] != int32(t)+1 {
				if open[m] > 0 {
					runs[runFrom[m]+slot[m]] = mk(ix.Topics[open[m]-1].Name, ids[start[m]:at:at])
					slot[m]++
				}
				open[m], start[m] = int32(t)+1, at
			}
			ids[at] = parts[i]
			next[m] = at + 1
		}
	}
	out := make([][]T, numMembers)
	for m := range numMembers {
		if open[m] == 0 {
			continue
		}
		end := next[m]
		runs[runFrom[m]+slot[m]] = mk(ix.Topics[open[m]-1].Name, ids[start[m]:end:end])
		out[m] = runs[runFrom[m]:runFrom[m+1]:runFrom[m+1]]
	}
	return out
}

// ListsOf converts, for each member m, the flat partitions
// flat[from[m]:from[m+1]] (ascending) into topic runs made by mk, sorted by
// topic then partition; nil for a member with none. len(from) is one more
// than the number of lists. It overwrites flat with partition IDs and uses
// it as the backing array of every ID slice (capacity clipped); all lists
// share one more array for the runs. O(len(flat) + R log T) for R runs and
// T topics.
func ListsOf[T any](ix *Index, flat, from []int32, mk func(topic string, ids []int32) T) [][]T {
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
					runs = append(runs, mk(ix.Topics[t].Name, seg[start:i:i]))
				}
				t, start = ix.TopicAfter(t, p), i
			}
			seg[i] = ix.Topics[t].Partitions[p-ix.TopicStart[t]]
		}
		if t >= 0 {
			runs = append(runs, mk(ix.Topics[t].Name, seg[start:len(seg):len(seg)]))
			out[m] = runs[begin:len(runs):len(runs)]
		}
	}
	return out
}
