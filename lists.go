package assignor

import (
	"fmt"
	"slices"
)

// FlatPlan is a plan in flat form on an [Index]: the answer of a
// [FlatAssignor], and what the cooperative wrapper and the adapters work on.
type FlatPlan struct {
	// Holder[p] is the member number given flat partition p, or -1 for
	// nobody; len(Holder) == NumPartitions().
	Holder []int32
	// GivenBack is nil, or reports for each outside claim
	// [Index.Outside]()[i] whether it is in its claimer's plan (a
	// cooperative plan gives a valid claim outside the metadata back to its
	// owner); len(GivenBack) == len(Outside()).
	GivenBack []bool
	// UserData is nil, or holds each member's assignment user data, by
	// member number; len(UserData) == NumMembers().
	UserData [][]byte
	// FollowUp reports that the plan withholds partitions for a follow-up
	// rebalance ([Plan.FollowUp]).
	FollowUp bool
}

// PlanOf builds the plan fp stands for: one entry per member, in member ID
// order, holding the flat partitions fp.Holder gives it and the outside
// claims fp.GivenBack gives back to it, with topics and partitions sorted,
// its user data and fp.FollowUp. Revoked is left empty. It does not alias
// fp's slices (the user data aside) or the group. The lists built share a
// few backing arrays, each slice's capacity clipped, so appending to one
// never writes into another. O(P + M + C) in a fixed number of
// allocations when nothing is given back. fp must fit ix (see
// [FlatAssignor]); member numbers out of range panic, as slice indices do.
func (ix *Index) PlanOf(fp FlatPlan) Plan {
	plan := ix.plan(ix.lists(fp.Holder))
	plan.FollowUp = fp.FollowUp
	if fp.UserData != nil {
		for m := range plan.Members {
			plan.Members[m].UserData = fp.UserData[m]
		}
	}
	// Outside claims are sorted by member, topic, partition: each member's
	// given-back claims form runs merged into its lists at once.
	for i := 0; i < len(fp.GivenBack); {
		m := ix.outside[i].Member
		var given []TopicPartitions
		for ; i < len(fp.GivenBack) && ix.outside[i].Member == m; i++ {
			if !fp.GivenBack[i] {
				continue
			}
			oc := ix.outside[i]
			if n := len(given); n == 0 || given[n-1].Topic != oc.Topic {
				given = append(given, TopicPartitions{Topic: oc.Topic})
			}
			last := &given[len(given)-1]
			last.Partitions = append(last.Partitions, oc.Partition)
		}
		if given != nil {
			mp := &plan.Members[m]
			mp.Assigned = MergeTopicPartitions(mp.Assigned, given)
		}
	}
	return plan
}

// Fits returns nil when fp fits ix, else an error wrapping [ErrFlatPlan]
// naming what does not fit: arrays of the wrong length, or a holder that is
// neither a member number nor -1 (a holder below -1 reads as -1, and is
// rewritten so in fp.Holder). O(P).
func (ix *Index) Fits(fp FlatPlan) error {
	if len(fp.Holder) != ix.NumPartitions() || fp.GivenBack != nil && len(fp.GivenBack) != len(ix.outside) ||
		fp.UserData != nil && len(fp.UserData) != len(ix.members) {
		return fmt.Errorf("%w: %d holders for %d partitions, %d given-back flags for %d outside claims, %d user data entries for %d members",
			ErrFlatPlan, len(fp.Holder), ix.NumPartitions(), len(fp.GivenBack), len(ix.outside), len(fp.UserData), len(ix.members))
	}
	for p, m := range fp.Holder {
		switch {
		case int(m) >= len(ix.members):
			topic, id := ix.Partition(int32(p))
			return fmt.Errorf("%w: %s/%d given to member number %d of %d", ErrFlatPlan, topic, id, m, len(ix.members))
		case m < -1:
			fp.Holder[p] = -1
		}
	}
	return nil
}

// TopicPartitions converts flat partitions into topic-grouped partitions,
// sorted by topic then partition. It sorts ps in place; the result does not
// alias ps or the group.
func (ix *Index) TopicPartitions(ps []int32) []TopicPartitions {
	slices.Sort(ps)
	return ix.listsOf(slices.Clone(ps), []int32{0, int32(len(ps))})[0]
}

// plan builds the plan whose member m is assigned lists[m].
func (ix *Index) plan(lists [][]TopicPartitions) Plan {
	plan := Plan{Members: make([]MemberPlan, len(ix.members))}
	for m, mem := range ix.members {
		plan.Members[m] = MemberPlan{Member: mem.ID, Assigned: lists[m]}
	}
	return plan
}

// lists returns, for each member m, the partitions holder gives it as topic
// runs sorted by topic then partition; nil for a member with none.
//
// Every member's lists share two arrays, one of partition IDs and one of
// runs; each ID slice has its capacity clipped. O(P + M), six allocations.
// The walk over holder goes topic by topic, so its writes land member by
// member far apart: it writes only four-byte values (each partition's ID,
// each run's topic and start), and the runs, with their pointers, are then
// written in one sequential pass (at 1M partitions over 2,000 members, a
// run per partition, writing each run where it opened took 30 ms).
func (ix *Index) lists(holder []int32) [][]TopicPartitions {
	numMembers := len(ix.members)
	// Per member: where its IDs and runs start in ids and runs, the next
	// free slot in each, and 1 + the open run's topic (0: none yet).
	// Counting first: a member's counts go to the next member's idFrom and
	// runFrom, summed into starts after.
	type member struct{ idFrom, runFrom, nextID, nextRun, open int32 }
	state := make([]member, numMembers+1)
	for t := range ix.topics {
		run := int32(t) + 1
		for _, m := range holder[ix.topicStart[t]:ix.topicStart[t+1]] {
			if m < 0 {
				continue
			}
			st := &state[m+1]
			st.idFrom++
			if st.open != run {
				st.open = run
				st.runFrom++
			}
		}
	}
	for m := range numMembers {
		next := &state[m+1]
		next.idFrom += state[m].idFrom
		next.runFrom += state[m].runFrom
		next.open = 0
		state[m].nextID, state[m].nextRun = state[m].idFrom, state[m].runFrom
	}
	numIDs, numRuns := state[numMembers].idFrom, state[numMembers].runFrom
	ids := make([]int32, numIDs)
	// runStart[k] is where run k's IDs start in ids; run k ends where run
	// k+1 starts, the last at the end (a member with no partitions has no
	// IDs and no runs, so members' runs and IDs follow each other alike).
	runTopic := make([]int32, numRuns)
	runStart := make([]int32, numRuns+1)
	for t := range ix.topics {
		lo, hi := ix.topicStart[t], ix.topicStart[t+1]
		parts := ix.topics[t].Partitions[:hi-lo]
		run := int32(t) + 1
		for i, m := range holder[lo:hi] {
			if m < 0 {
				continue
			}
			st := &state[m]
			if st.open != run {
				st.open = run
				runTopic[st.nextRun], runStart[st.nextRun] = int32(t), st.nextID
				st.nextRun++
			}
			ids[st.nextID] = parts[i]
			st.nextID++
		}
	}
	runStart[numRuns] = numIDs
	runs := make([]TopicPartitions, numRuns)
	for k := range runs {
		from, to := runStart[k], runStart[k+1]
		setRun(&runs[k], ix.topics[runTopic[k]].Name, ids[from:to:to])
	}
	out := make([][]TopicPartitions, numMembers)
	for m := range numMembers {
		if from, to := state[m].runFrom, state[m+1].runFrom; from < to {
			out[m] = runs[from:to:to]
		}
	}
	return out
}

// setRun fills a run field by field. Assigning the whole struct compiles
// to a typed memory move, which while the garbage collector marks goes
// through the runtime's bulk write barrier, one call per run, in code the
// collector cannot preempt: at 100k partitions a collection that started
// during PlanOf stretched it from 2 to about 25 ms and its own mark phase
// to 35 ms. Field stores take the compiler's buffered barriers.
func setRun(r *TopicPartitions, topic string, partitions []int32) {
	r.Topic = topic
	r.Partitions = partitions
}

// listsOf converts, for each member m, the flat partitions
// flat[from[m]:from[m+1]] (ascending) into topic runs, sorted by topic then
// partition; nil for a member with none. len(from) is one more than the
// number of lists. It overwrites flat with partition IDs and uses it as the
// backing array of every ID slice (capacity clipped); all lists share one
// more array for the runs. O(len(flat) + R log T) for R runs and T topics.
func (ix *Index) listsOf(flat, from []int32) [][]TopicPartitions {
	numLists := len(from) - 1
	numRuns := 0
	for m := range numLists {
		t := int32(-1)
		for _, p := range flat[from[m]:from[m+1]] {
			if t < 0 || p >= ix.topicStart[t+1] {
				t = ix.topicAfter(t, p)
				numRuns++
			}
		}
	}
	runs := make([]TopicPartitions, 0, numRuns)
	out := make([][]TopicPartitions, numLists)
	for m := range numLists {
		begin := len(runs)
		seg := flat[from[m]:from[m+1]]
		t, start := int32(-1), 0
		for i, p := range seg {
			if t < 0 || p >= ix.topicStart[t+1] {
				if t >= 0 {
					runs = append(runs, TopicPartitions{Topic: ix.topics[t].Name, Partitions: seg[start:i:i]})
				}
				t, start = ix.topicAfter(t, p), i
			}
			seg[i] = ix.topics[t].Partitions[p-ix.topicStart[t]]
		}
		if t >= 0 {
			runs = append(runs, TopicPartitions{Topic: ix.topics[t].Name, Partitions: seg[start:len(seg):len(seg)]})
			out[m] = runs[begin:len(runs):len(runs)]
		}
	}
	return out
}
