package assignor

import (
	"iter"
	"slices"
	"sync"

	"github.com/kgroup/assignor/internal/dense"
)

// Owner values of a partition (see [Index.Owner]) other than a member
// number.
const (
	// Unclaimed: no member claims the partition.
	Unclaimed int32 = dense.Unclaimed
	// Contested: two or more members claim the partition at the same,
	// highest generation, so it has no valid owner.
	Contested int32 = dense.Contested
)

// Index is the canonical, dense, read-only view of a [Group] that assignors
// work on, with every member's claims classified. It is the one place in
// this module that decides who owns what; every assignor here reads
// ownership from it and nowhere else.
//
// # Numbering
//
// Members are numbered 0..NumMembers()-1 in member ID order and topics
// 0..NumTopics()-1 in name order; each topic's partitions (sorted,
// deduplicated, negatives dropped) get a contiguous range of flat partition
// numbers ([Index.TopicRange]), so flat order is topic name order, then
// partition ID order. An assignor that decides per flat partition builds its
// plan with [Index.PlanFromHolders], which comes out sorted and copies what
// it needs.
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
// in the topic's list, a negative partition) is not in [Index.Claims];
// package cooperative classifies those too. Claims are never an error: they
// are facts about the members. A member that lists a partition twice claims
// it once.
//
// # Contract
//
// An Index may alias the Group it was built from: the Group must not change
// while the Index is in use. Slices its methods return must not be
// modified. Member and topic numbers out of range panic, as slice indices
// do. Building an Index costs O(P + C log C + M log M + S) for P
// partitions, C claims, M members and S subscription entries; every method
// is O(1) unless its doc says otherwise.
type Index struct {
	d       *dense.Index
	members []*Member // by member number, pointing into the Group or the builder's copies

	// The group the index was built from: given to NewIndex, or rebuilt from
	// the index on the first call of Group when an IndexBuilder built it.
	groupOnce sync.Once
	group     Group
	rebuild   bool
}

// NewIndex builds the Index of g. It fails only for a group that cannot be
// assigned at all: an empty or duplicate member ID ([*MemberError] with
// [ErrEmptyMemberID] or [ErrDuplicateMember]), an empty or duplicate topic
// name, or replica racks that do not match the partitions ([*TopicError]
// with [ErrEmptyTopicName], [ErrDuplicateTopic], [ErrReplicaRacks] or
// [ErrWeights]).
func NewIndex(g Group) (*Index, error) {
	b := IndexBuilder{members: g.Members, owned: make([]iter.Seq2[string, []int32], len(g.Members))}
	b.b.Grow(len(g.Topics), len(g.Members), 0)
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

func init() {
	dense.Of = func(ix any) *dense.Index { return ix.(*Index).d }
	dense.Errors = violationErrors
}

// NumMembers is the number of members.
func (ix *Index) NumMembers() int { return len(ix.members) }

// Member returns member m as the group has it; its slices alias the
// group. For an Index an [IndexBuilder] built from an iterator of owned
// partitions, Owned is nil: read claims with [Index.Claims], or the whole
// group with [Index.Group].
func (ix *Index) Member(m int32) Member { return *ix.members[m] }

// MemberNumber returns the number of the member with the given ID.
// O(log M).
func (ix *Index) MemberNumber(id string) (int32, bool) { return ix.d.MemberNumber(id) }

// NumTopics is the number of topics in the metadata.
func (ix *Index) NumTopics() int { return len(ix.d.Topics) }

// Topic returns topic t with its partitions sorted and deduplicated (and
// its replica racks and weights permuted to match).
func (ix *Index) Topic(t int32) Topic { return Topic(ix.d.Topics[t]) }

// TopicNumber returns the number of the topic named name.
func (ix *Index) TopicNumber(name string) (int32, bool) { return ix.d.TopicNumber(name) }

// NumPartitions is the number of partitions in the metadata.
func (ix *Index) NumPartitions() int { return ix.d.NumPartitions() }

// TopicRange returns the flat numbers of topic t's partitions: first to
// end, end excluded; partition i of Topic(t).Partitions is first+i.
func (ix *Index) TopicRange(t int32) (first, end int32) {
	return ix.d.TopicStart[t], ix.d.TopicStart[t+1]
}

// TopicOf returns the topic number of flat partition p. O(log T).
func (ix *Index) TopicOf(p int32) int32 { return ix.d.TopicOf(p) }

// Partition returns the topic name and partition ID of flat partition p.
// O(log T).
func (ix *Index) Partition(p int32) (topic string, id int32) { return ix.d.Partition(p) }

// Flat returns the flat number of partition id of topic t, and whether the
// metadata has it. O(1) for a topic whose partitions are 0..n-1, else
// O(log n).
func (ix *Index) Flat(t, id int32) (int32, bool) { return ix.d.Flat(t, id) }

// Subscriptions returns the topics member m subscribes to that are in the
// metadata: topic numbers, ascending, distinct.
func (ix *Index) Subscriptions(m int32) []int32 { return ix.d.Subscriptions[m] }

// Subscribers returns the members subscribed to topic t, ascending.
func (ix *Index) Subscribers(t int32) []int32 { return ix.d.Subscribers[t] }

// Subscribes reports whether member m subscribes to topic t. O(log S) for
// S subscriptions of m.
func (ix *Index) Subscribes(m, t int32) bool { return ix.d.Subscribes(m, t) }

// Claims returns member m's claims inside the metadata: flat partition
// numbers, ascending, distinct.
func (ix *Index) Claims(m int32) []int32 { return ix.d.Claims[m] }

// Generation returns the generation of member m's claims (>=
// [NoGeneration]).
func (ix *Index) Generation(m int32) int32 { return ix.d.Generation[m] }

// Owner returns the member number of flat partition p's valid owner, or
// [Unclaimed] or [Contested].
func (ix *Index) Owner(p int32) int32 { return ix.d.Owner[p] }

// PlanFromHolders builds the plan in which holder[p] (a member number, or
// -1 for nobody) holds flat partition p; len(holder) must be
// NumPartitions(). The plan has one entry per member, in member ID order,
// with topics and partitions sorted; it does not alias holder or the group.
// O(P + M) in a fixed number of allocations.
func (ix *Index) PlanFromHolders(holder []int32) Plan {
	lists := dense.Lists[TopicPartitions](ix.d, holder, ix.d.CountSizes(holder), nil)
	return ix.plan(lists)
}

// Plan builds the plan in which member m holds the flat partitions
// assigned[m] (assigned may be shorter than the members; a member past its
// end holds nothing). It sorts each assigned[m] in place; the plan has one
// entry per member, in member ID order, and does not alias assigned or the
// group.
func (ix *Index) Plan(assigned [][]int32) Plan {
	from := make([]int32, len(ix.members)+1)
	for m := range ix.members {
		from[m+1] = from[m]
		if m < len(assigned) {
			from[m+1] += int32(len(assigned[m]))
		}
	}
	flat := make([]int32, 0, from[len(ix.members)])
	for m := range min(len(assigned), len(ix.members)) {
		slices.Sort(assigned[m])
		flat = append(flat, assigned[m]...)
	}
	return ix.plan(dense.ListsOf[TopicPartitions](ix.d, flat, from))
}

// TopicPartitions converts flat partitions into topic-grouped partitions,
// sorted by topic then partition. It sorts ps in place; the result does not
// alias ps or the group.
func (ix *Index) TopicPartitions(ps []int32) []TopicPartitions {
	slices.Sort(ps)
	return dense.ListsOf[TopicPartitions](ix.d, slices.Clone(ps), []int32{0, int32(len(ps))})[0]
}

// plan builds the plan whose member m is assigned lists[m].
func (ix *Index) plan(lists [][]TopicPartitions) Plan {
	plan := Plan{Members: make([]MemberPlan, len(ix.members))}
	for m, mem := range ix.members {
		plan.Members[m] = MemberPlan{Member: mem.ID, Assigned: lists[m]}
	}
	return plan
}

// OutsideReason says why a claim is outside the leader's metadata (see
// package cooperative, which classifies such claims).
type OutsideReason uint8

const (
	// UnknownTopic: the metadata lacks the topic (new to this leader, or
	// deleted).
	UnknownTopic = OutsideReason(dense.UnknownTopic)
	// UnknownPartition: the topic is known but the partition ID, though not
	// negative, is not among its partitions (a partition expansion the leader
	// has not seen yet, or a bad claim).
	UnknownPartition = OutsideReason(dense.UnknownPartition)
	// NegativePartition: a partition ID below zero, which cannot exist.
	NegativePartition = OutsideReason(dense.NegativePartition)
)

func (r OutsideReason) String() string {
	switch r {
	case UnknownTopic:
		return "unknown topic"
	case UnknownPartition:
		return "unknown partition"
	case NegativePartition:
		return "negative partition"
	}
	return "outside(" + itoa(int64(r)) + ")"
}
