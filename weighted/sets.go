package weighted

import (
	"slices"

	"github.com/kgroup/assignor/internal/balance"
)

// subscriberSets groups the topics by subscriber list: topics with the same
// subscribers share one set, and partitions of one set can go to the same
// members. It is the exchange graph whose groups are the sets
// ([balance.Graph]): set s's members are Members[s], ascending, and the
// (set, member) pairs are its slots, the slot of Members[s][i] being
// SlotFrom[s]+i.
type subscriberSets struct {
	balance.Graph
	size     []int32 // per set: the partitions of its topics
	topicSet []int32 // per topic: its set, or -1 when nobody subscribes
}

// newSubscriberSets interns the topics' subscriber lists, which must hold
// member numbers in [0, members) (checked by the caller); they may be in any
// order and repeat a member. topic[p] is partition p's topic. The lists are
// not mutated; those already ascending and distinct (as
// [assignor.Index.Subscribers] gives them) are kept for the solve.
func newSubscriberSets(members int, subscribers [][]int32, topic []int32) *subscriberSets {
	ss := &subscriberSets{topicSet: make([]int32, len(subscribers))}
	var sets balance.Interner
	for t, subs := range subscribers {
		if !ascending(subs) {
			subs = slices.Compact(slices.Sorted(slices.Values(subs)))
		}
		if len(subs) == 0 {
			ss.topicSet[t] = -1
			continue
		}
		ss.topicSet[t] = sets.Intern(subs)
	}
	ss.size = make([]int32, sets.Len())
	for _, t := range topic {
		if s := ss.topicSet[t]; s >= 0 {
			ss.size[s]++
		}
	}
	ss.Graph = balance.NewGraph(members, sets.Lists, nil)
	return ss
}

// ascending reports whether xs is strictly ascending.
func ascending(xs []int32) bool {
	for i := 1; i < len(xs); i++ {
		if xs[i-1] >= xs[i] {
			return false
		}
	}
	return true
}

// numSets is the number of sets.
func (ss *subscriberSets) numSets() int { return len(ss.Members) }

// setsOf returns the sets member m belongs to, ascending.
func (ss *subscriberSets) setsOf(m int32) []int32 { return ss.GroupsOf(m) }

// active reports whether member m belongs to some set.
func (ss *subscriberSets) active(m int32) bool { return ss.MemberFrom[m+1] > ss.MemberFrom[m] }

// subscribed reports whether member m belongs to set s.
func (ss *subscriberSets) subscribed(m, s int32) bool {
	_, ok := ss.Slot(s, m)
	return ok
}

// slot returns the slot of member m in set s (m must belong to s).
func (ss *subscriberSets) slot(s, m int32) int32 {
	k, _ := ss.Slot(s, m)
	return k
}

// countBands returns each member's lowest and highest count over the
// count-balanced plans (0 and 0 for a member in no set): those minimising
// the sum of squared counts, as in package sticky (balance.CountBands over
// the sets' exchange graph). With identical subscriptions every member has
// ⌊N/k⌋ or ⌈N/k⌉; with different subscriptions no chain of subscribers can
// pass a partition from a member to one with two fewer. A member's band
// [lo, hi] has hi <= lo+1.
func countBands(ss *subscriberSets) (lo, hi []int32) {
	return balance.CountBands(&ss.Graph, ss.size, nil)
}
