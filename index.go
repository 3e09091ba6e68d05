package assignor

import (
	"cmp"
	"slices"
	"sync"
)

// Owner values of a partition (see [Index.Owner]) other than a member
// number.
const (
	// Unclaimed: no member claims the partition.
	Unclaimed int32 = -1
	// Contested: two or more members claim the partition at the same,
	// highest generation, so it has no valid owner.
	Contested int32 = -2
)

// Index is the canonical, dense, read-only view of a [Group] that assignors
// work on, with every member's claims classified. It is the one place in
// this module that decides who owns what; every assignor here reads
// ownership from it and nowhere else, through the same methods a custom
// assignor uses.
//
// # Numbering
//
// Members are numbered 0..NumMembers()-1 in member ID order and topics
// 0..NumTopics()-1 in name order; each topic's partitions (sorted,
// deduplicated, negatives dropped) get a contiguous range of flat partition
// numbers ([Index.TopicRange]), so flat order is topic name order, then
// partition ID order. An assignor that decides per flat partition answers
// with a [FlatPlan] (see [FlatAssignor]); [Index.PlanOf] turns one into a
// Plan, sorted.
//
// # Claims
//
// Every member's Owned partitions, read at the member's generation
// (negative generations read as [NoGeneration]), are claims. For each
// partition in the metadata:
//   - its valid owner ([Index.Owner]) is its unique highest-generation
//     claimant (KIP-792);
//   - it is [Contested] when several members claim it at that highest
//     generation (ties at NoGeneration included): nobody owns it;
//   - every claim below the highest generation is stale.
//
// A claim outside the metadata (a topic the metadata lacks, a partition not
// in the topic's list, a negative partition) is not in [Index.Claims]:
// [Index.Outside] lists those, classified alike. Claims are never an
// error: they are facts about the members. A member that lists a partition
// twice claims it once.
//
// # Contract
//
// An Index may alias the Group it was built from: the Group must not change
// while the Index is in use. Slices its methods return must not be
// modified. Member and topic numbers out of range panic, as slice indices
// do. Building an Index costs O(P + C log C + M log M + S) for P
// partitions, C claims, M members and S subscription entries; every method
// is O(1) unless its doc says otherwise. An Index is safe for concurrent
// reads.
type Index struct {
	// members[m] is member m, pointing into the Group or the builder's
	// copies; input[m] is its position in the builder's input.
	members []*Member
	input   []int32
	// topics are the metadata's topics in name order, each with its
	// partitions sorted and deduplicated (and its replica racks and weights
	// permuted to match).
	topics []Topic
	// topicStart[t] is the flat number of topic t's first partition;
	// topicStart[len(topics)] is the number of partitions.
	topicStart []int32
	// subscriptions[m] are member m's subscribed topics that are in the
	// metadata, ascending, distinct (members with identical subscriptions
	// may share one slice); subscribers[t] are topic t's subscribers,
	// ascending.
	subscriptions [][]int32
	subscribers   [][]int32
	// claims[m] are member m's claims inside the metadata, flat, ascending,
	// distinct; generation[m] is their generation (>= NoGeneration).
	claims     [][]int32
	generation []int32
	// owner[p] is partition p's valid owner, or Unclaimed or Contested.
	owner []int32
	// outside are the claims outside the metadata, sorted by member, topic,
	// partition.
	outside []OutsideClaim

	topicByName map[string]int32
	contiguous  []bool // contiguous[t]: topic t's partitions are 0..n-1

	// The group the index was built from: given to NewIndex, or rebuilt from
	// the index on the first call of Group when an IndexBuilder built it.
	groupOnce sync.Once
	group     Group
	rebuild   bool
}

// NewIndex builds the Index of g. It fails only for a group that cannot be
// assigned at all: an empty or duplicate member ID ([*MemberError] with
// [ErrEmptyMemberID] or [ErrDuplicateMember]), an empty or duplicate topic
// name, or replica racks or weights that do not match the partitions
// ([*TopicError] with [ErrEmptyTopicName], [ErrDuplicateTopic],
// [ErrReplicaRacks] or [ErrWeights]).
func NewIndex(g Group) (*Index, error) {
	b := IndexBuilder{members: g.Members, owned: make([]ownedSource, len(g.Members))}
	b.Grow(len(g.Topics), 0, 0)
	b.ix.members = make([]*Member, 0, len(g.Members))
	b.generations = make([]int32, 0, len(g.Members))
	for _, t := range g.Topics {
		b.AddTopic(t)
	}
	for i := range g.Members {
		b.addMember(&g.Members[i])
	}
	ix, err := b.Build()
	if err != nil {
		return nil, err
	}
	ix.group, ix.rebuild = g, false
	return ix, nil
}

// NumMembers is the number of members.
func (ix *Index) NumMembers() int { return len(ix.members) }

// Member returns member m as the group has it; its slices alias the
// group. For a member an [IndexBuilder] was given with an iterator of owned
// partitions, Owned is nil, whatever the Member passed to AddMember held:
// read claims with [Index.Claims] and [Index.Outside], or the whole group
// with [Index.Group].
func (ix *Index) Member(m int32) Member { return *ix.members[m] }

// MemberNumber returns the number of the member with the given ID.
// O(log M).
func (ix *Index) MemberNumber(id string) (int32, bool) {
	i, ok := slices.BinarySearchFunc(ix.members, id, func(m *Member, id string) int { return cmp.Compare(m.ID, id) })
	return int32(i), ok
}

// NumTopics is the number of topics in the metadata.
func (ix *Index) NumTopics() int { return len(ix.topics) }

// Topic returns topic t with its partitions sorted and deduplicated (and
// its replica racks and weights permuted to match).
func (ix *Index) Topic(t int32) Topic { return ix.topics[t] }

// TopicNumber returns the number of the topic named name.
func (ix *Index) TopicNumber(name string) (int32, bool) {
	t, ok := ix.topicByName[name]
	return t, ok
}

// NumPartitions is the number of partitions in the metadata.
func (ix *Index) NumPartitions() int { return int(ix.topicStart[len(ix.topics)]) }

// TopicRange returns the flat numbers of topic t's partitions: first to
// end, end excluded; partition i of Topic(t).Partitions is first+i.
func (ix *Index) TopicRange(t int32) (first, end int32) {
	return ix.topicStart[t], ix.topicStart[t+1]
}

// TopicOf returns the topic number of flat partition p. O(log T).
func (ix *Index) TopicOf(p int32) int32 {
	t, found := slices.BinarySearch(ix.topicStart, p)
	if found {
		// Empty topics share a start: the last topic starting at p owns it.
		for t+1 < len(ix.topicStart)-1 && ix.topicStart[t+1] == p {
			t++
		}
		return int32(t)
	}
	return int32(t - 1)
}

// topicAfter returns the topic of flat partition p for a caller walking
// partitions in ascending order: it tries the few topics after t (the last
// answer, or -1) before searching.
func (ix *Index) topicAfter(t, p int32) int32 {
	for n := t + 1; n <= t+lookahead && int(n) < len(ix.topics); n++ {
		if p >= ix.topicStart[n] && p < ix.topicStart[n+1] {
			return n
		}
	}
	return ix.TopicOf(p)
}

// Partition returns the topic name and partition ID of flat partition p.
// O(log T).
func (ix *Index) Partition(p int32) (topic string, id int32) {
	t := ix.TopicOf(p)
	return ix.topics[t].Name, ix.topics[t].Partitions[p-ix.topicStart[t]]
}

// Flat returns the flat number of partition id of topic t, and whether the
// metadata has it. O(1) for a topic whose partitions are 0..n-1, else
// O(log n).
func (ix *Index) Flat(t, id int32) (int32, bool) {
	if ix.contiguous[t] {
		if id >= 0 && int(id) < len(ix.topics[t].Partitions) {
			return ix.topicStart[t] + id, true
		}
		return 0, false
	}
	i, ok := slices.BinarySearch(ix.topics[t].Partitions, id)
	return ix.topicStart[t] + int32(i), ok
}

// Subscriptions returns the topics member m subscribes to that are in the
// metadata: topic numbers, ascending, distinct. Members with identical
// subscriptions may share one slice.
func (ix *Index) Subscriptions(m int32) []int32 { return ix.subscriptions[m] }

// Subscribers returns the members subscribed to topic t, ascending.
func (ix *Index) Subscribers(t int32) []int32 { return ix.subscribers[t] }

// Subscribes reports whether member m subscribes to topic t. O(log S) for
// S subscriptions of m.
func (ix *Index) Subscribes(m, t int32) bool {
	_, ok := slices.BinarySearch(ix.subscriptions[m], t)
	return ok
}

// subscribesByName reports whether member m subscribes to the topic named
// topic, whether or not the metadata knows it.
func (ix *Index) subscribesByName(m int32, topic string) bool {
	if t, ok := ix.TopicNumber(topic); ok {
		return ix.Subscribes(m, t)
	}
	return slices.Contains(ix.members[m].Topics, topic)
}

// Claims returns member m's claims inside the metadata: flat partition
// numbers, ascending, distinct.
func (ix *Index) Claims(m int32) []int32 { return ix.claims[m] }

// Generation returns the generation of member m's claims (>=
// [NoGeneration]).
func (ix *Index) Generation(m int32) int32 { return ix.generation[m] }

// Owner returns the member number of flat partition p's valid owner, or
// [Unclaimed] or [Contested].
func (ix *Index) Owner(p int32) int32 { return ix.owner[p] }
