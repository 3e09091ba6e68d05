package dense

import (
	"cmp"
	"slices"
)

// NoGeneration is the generation of a claim sent without one; it ranks
// below every explicit generation. Any negative generation reads as it.
const NoGeneration int32 = -1

// Owner values of a partition in [Index.Owner] other than a member number.
const (
	// Unclaimed: no member claims the partition.
	Unclaimed int32 = -1
	// Contested: two or more members claim the partition at the same,
	// highest generation, so it has no valid owner.
	Contested int32 = -2
)

// Index is one group in flat form, built by a [Builder]; see the package
// documentation for its numbering. It is read-only once built: callers must
// not modify its slices, which may alias what the builder was given.
type Index struct {
	// Members are the group's members in member ID order.
	Members []Member
	// Topics are the metadata's topics in name order, each with its
	// partitions sorted and deduplicated (and its replica racks permuted to
	// match).
	Topics []Topic
	// TopicStart[t] is the flat number of topic t's first partition;
	// TopicStart[len(Topics)] is the number of partitions.
	TopicStart []int32
	// Subscriptions[m] are member m's subscribed topics that are in the
	// metadata: topic numbers, ascending, distinct. Members with identical
	// subscriptions may share one slice.
	Subscriptions [][]int32
	// Subscribers[t] are the members subscribed to topic t, ascending.
	Subscribers [][]int32
	// Claims[m] are member m's claims inside the metadata: flat partition
	// numbers, ascending, distinct.
	Claims [][]int32
	// Generation[m] is member m's claim generation (>= NoGeneration).
	Generation []int32
	// Owner[p] is the member number of partition p's valid owner, or
	// [Unclaimed] or [Contested].
	Owner []int32
	// Stale are the claims below their partition's highest generation, by
	// member, then partition.
	Stale []Claim
	// Outside are the claims that point outside the metadata, sorted by
	// member, topic, partition.
	Outside []OutsideClaim

	topicByName map[string]int32
	contiguous  []bool // contiguous[t]: topic t's partitions are 0..n-1
}

// Member is one member as the index keeps it: what assignors read besides
// its subscriptions and claims.
type Member struct {
	ID         string
	InstanceID string
	Rack       string
	// Topics are the topics the member subscribes to, as it sent them (any
	// order, duplicates, topics the metadata lacks).
	Topics   []string
	UserData []byte
	// Input is the member's position in the builder's input.
	Input int32
}

// Topic is one topic of the metadata. It has the same fields as
// assignor.Topic, so that each converts to the other.
type Topic struct {
	Name         string
	Partitions   []int32
	ReplicaRacks [][]string
	Weights      []int64
}

// Claim is one member's claim on one flat partition.
type Claim struct {
	Member     int32
	Partition  int32 // flat partition number
	Generation int32
}

// OutsideReason says why a claim is outside the metadata. Its values are
// those of assignor.OutsideReason.
type OutsideReason uint8

const (
	// UnknownTopic: the metadata lacks the topic.
	UnknownTopic OutsideReason = iota + 1
	// UnknownPartition: the topic is known but the partition ID, though not
	// negative, is not among its partitions.
	UnknownPartition
	// NegativePartition: a partition ID below zero.
	NegativePartition
)

// OutsideClaim is a claim on a partition outside the metadata.
type OutsideClaim struct {
	Member     int32
	Topic      string
	Partition  int32
	Generation int32
	Reason     OutsideReason
	// Valid reports whether Member is the unique highest-generation
	// claimant of this topic and partition among the outside claims (never
	// for a negative partition).
	Valid bool
}

// CouldExist reports whether the partition of an outside claim may exist
// all the same: its topic is unknown to the leader (new, or deleted), or its
// number is at or beyond the topic's known partition count (an expansion the
// leader has not seen). A negative partition, or a gap in a known topic's
// partition list, cannot.
func (ix *Index) CouldExist(oc OutsideClaim) bool {
	switch oc.Reason {
	case UnknownTopic:
		return true
	case UnknownPartition:
		t, _ := ix.TopicNumber(oc.Topic)
		return int(oc.Partition) >= len(ix.Topics[t].Partitions)
	}
	return false
}

// NumPartitions is the number of partitions in the metadata.
func (ix *Index) NumPartitions() int { return int(ix.TopicStart[len(ix.Topics)]) }

// TopicOf returns the topic number of flat partition p. O(log T).
func (ix *Index) TopicOf(p int32) int32 {
	t, found := slices.BinarySearch(ix.TopicStart, p)
	if found {
		// Empty topics share a start: the last topic starting at p owns it.
		for t+1 < len(ix.TopicStart)-1 && ix.TopicStart[t+1] == p {
			t++
		}
		return int32(t)
	}
	return int32(t - 1)
}

// TopicAfter returns the topic of flat partition p for a caller walking
// partitions in ascending order: it tries the few topics after t (the last
// answer, or -1) before searching.
func (ix *Index) TopicAfter(t, p int32) int32 {
	for n := t + 1; n <= t+lookahead && int(n) < len(ix.Topics); n++ {
		if p >= ix.TopicStart[n] && p < ix.TopicStart[n+1] {
			return n
		}
	}
	return ix.TopicOf(p)
}

// Partition returns the topic name and partition ID of flat partition p.
func (ix *Index) Partition(p int32) (topic string, id int32) {
	t := ix.TopicOf(p)
	return ix.Topics[t].Name, ix.Topics[t].Partitions[p-ix.TopicStart[t]]
}

// TopicNumber returns the number of the topic named name.
func (ix *Index) TopicNumber(name string) (int32, bool) {
	t, ok := ix.topicByName[name]
	return t, ok
}

// Flat returns the flat number of partition id of topic t.
func (ix *Index) Flat(t, id int32) (int32, bool) {
	if ix.contiguous[t] {
		if id >= 0 && int(id) < len(ix.Topics[t].Partitions) {
			return ix.TopicStart[t] + id, true
		}
		return 0, false
	}
	i, ok := slices.BinarySearch(ix.Topics[t].Partitions, id)
	return ix.TopicStart[t] + int32(i), ok
}

// MemberNumber returns the number of the member with the given ID.
// O(log M).
func (ix *Index) MemberNumber(id string) (int32, bool) {
	i, ok := slices.BinarySearchFunc(ix.Members, id, func(m Member, id string) int { return cmp.Compare(m.ID, id) })
	return int32(i), ok
}

// Subscribes reports whether member m subscribes to topic t. O(log S).
func (ix *Index) Subscribes(m, t int32) bool {
	_, ok := slices.BinarySearch(ix.Subscriptions[m], t)
	return ok
}

// SubscribesByName reports whether member m subscribes to the topic named
// topic, whether or not the metadata knows it.
func (ix *Index) SubscribesByName(m int32, topic string) bool {
	if t, ok := ix.TopicNumber(topic); ok {
		return ix.Subscribes(m, t)
	}
	return slices.Contains(ix.Members[m].Topics, topic)
}

// OutsideRange returns where member m's claims start and end in
// ix.Outside. O(log C).
func (ix *Index) OutsideRange(m int32) (from, to int) {
	from, _ = slices.BinarySearchFunc(ix.Outside, m, func(oc OutsideClaim, m int32) int { return cmp.Compare(oc.Member, m) })
	to, _ = slices.BinarySearchFunc(ix.Outside, m+1, func(oc OutsideClaim, m int32) int { return cmp.Compare(oc.Member, m) })
	return from, to
}

// FindOutside returns the position in ix.Outside of member m's claim on
// (topic, id). O(log C).
func (ix *Index) FindOutside(m int32, topic string, id int32) (int, bool) {
	return slices.BinarySearchFunc(ix.Outside, OutsideClaim{Member: m, Topic: topic, Partition: id}, compareOutside)
}

func compareOutside(a, b OutsideClaim) int {
	return cmp.Or(cmp.Compare(a.Member, b.Member), cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
}

// MemberRacks numbers the members' racks in member order: rack[m] is member
// m's rack number, or -1 for a member without a rack, and ids maps each
// rack name to its number. Sticky and the weighted assignor read racks this
// way, so that both number them alike.
func (ix *Index) MemberRacks() (rack []int32, ids map[string]int32) {
	ids = map[string]int32{}
	rack = make([]int32, len(ix.Members))
	for m, mem := range ix.Members {
		rack[m] = -1
		if mem.Rack == "" {
			continue
		}
		id, ok := ids[mem.Rack]
		if !ok {
			id = int32(len(ids))
			ids[mem.Rack] = id
		}
		rack[m] = id
	}
	return rack, ids
}

// HasReplicaRacks reports whether some topic carries replica racks.
func (ix *Index) HasReplicaRacks() bool {
	return slices.ContainsFunc(ix.Topics, func(t Topic) bool { return t.ReplicaRacks != nil })
}
