package weighted

import "slices"

// subscriberSets groups the topics by subscriber list: topics with the same
// subscribers share one set, and partitions of one set can go to the same
// members. A slot is a (set, member of the set) pair; slots are numbered
// set by set, so the slot of members[s][i] is slotFrom[s]+i.
type subscriberSets struct {
	members  [][]int32 // per set: its members, ascending, distinct
	size     []int32   // per set: the partitions of its topics
	topicSet []int32   // per topic: its set, or -1 when nobody subscribes
	slotFrom []int32   // per set, and one past the last

	// Per member m, the sets it belongs to and the matching slots:
	// memberSet[memberFrom[m]:memberFrom[m+1]], ascending, and memberSlot
	// alongside.
	memberFrom []int32
	memberSet  []int32
	memberSlot []int32
}

// newSubscriberSets interns the topics' subscriber lists, which must hold
// member numbers in [0, members) (checked by the caller); they may be in any
// order and repeat a member. topic[p] is partition p's topic. The lists are
// not kept or mutated.
func newSubscriberSets(members int, subscribers [][]int32, topic []int32) *subscriberSets {
	ss := &subscriberSets{topicSet: make([]int32, len(subscribers))}
	byHash := map[uint64][]int32{}
	var scratch []int32
	for t, subs := range subscribers {
		scratch = append(scratch[:0], subs...)
		slices.Sort(scratch)
		scratch = slices.Compact(scratch)
		if len(scratch) == 0 {
			ss.topicSet[t] = -1
			continue
		}
		h := hashMembers(scratch)
		found := int32(-1)
		for _, s := range byHash[h] {
			if slices.Equal(ss.members[s], scratch) {
				found = s
				break
			}
		}
		if found < 0 {
			found = int32(len(ss.members))
			ss.members = append(ss.members, slices.Clone(scratch))
			byHash[h] = append(byHash[h], found)
		}
		ss.topicSet[t] = found
	}
	ss.size = make([]int32, len(ss.members))
	for _, t := range topic {
		if s := ss.topicSet[t]; s >= 0 {
			ss.size[s]++
		}
	}
	ss.index(members)
	return ss
}

func hashMembers(xs []int32) uint64 {
	h := uint64(14695981039346656037)
	for _, x := range xs {
		h ^= uint64(uint32(x))
		h *= 1099511628211
	}
	return h
}

// index numbers the slots and builds the member-to-set lists.
func (ss *subscriberSets) index(members int) {
	ss.slotFrom = make([]int32, len(ss.members)+1)
	ss.memberFrom = make([]int32, members+1)
	for s, set := range ss.members {
		ss.slotFrom[s+1] = ss.slotFrom[s] + int32(len(set))
		for _, m := range set {
			ss.memberFrom[m+1]++
		}
	}
	for m := range members {
		ss.memberFrom[m+1] += ss.memberFrom[m]
	}
	n := ss.memberFrom[members]
	ss.memberSet = make([]int32, n)
	ss.memberSlot = make([]int32, n)
	fill := slices.Clone(ss.memberFrom[:members])
	for s, set := range ss.members {
		for i, m := range set {
			ss.memberSet[fill[m]] = int32(s)
			ss.memberSlot[fill[m]] = ss.slotFrom[s] + int32(i)
			fill[m]++
		}
	}
}

// setsOf returns the sets member m belongs to, ascending.
func (ss *subscriberSets) setsOf(m int32) []int32 {
	return ss.memberSet[ss.memberFrom[m]:ss.memberFrom[m+1]]
}

// subscribed reports whether member m belongs to set s.
func (ss *subscriberSets) subscribed(m, s int32) bool {
	_, ok := slices.BinarySearch(ss.members[s], m)
	return ok
}
