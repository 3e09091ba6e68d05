package assignor

import "slices"

// NoGeneration is the generation of a claim sent without one: a subscription
// v0 or v1 whose user data carries no generation (as kafka-go sends). It ranks
// below every explicit generation; any negative generation is read as
// NoGeneration.
const NoGeneration int32 = -1

// Group is everything the leader knows when it assigns: the members' joins and
// the topic metadata. A Group is read-only to an [Assignor]: Assign never
// mutates it and never returns slices that alias it.
//
// Members and Topics may come in any order; an assignor's plan must not depend
// on that order.
type Group struct {
	// Members are the members that joined this generation, each with a
	// distinct, non-empty ID.
	Members []Member
	// Topics is the leader's metadata for the topics the members subscribe to.
	// A topic a member subscribes to that is missing here is ignored (Java
	// skips topics without metadata); it is never an error.
	Topics []Topic
}

// Member is one member's JoinGroup subscription.
type Member struct {
	// ID is the member ID the coordinator gave the member. Required, unique.
	ID string
	// InstanceID is the static instance ID (KIP-345), or "" for a dynamic
	// member.
	InstanceID string
	// Rack is the member's rack (KIP-881, subscription v3), or "".
	Rack string
	// Topics are the topics the member subscribes to. Order and duplicates do
	// not matter.
	Topics []string
	// Owned are the partitions the member claims to own now (subscription
	// v1+). Ownership comes from here only, never from UserData. Order and
	// duplicates do not matter; odd claims (unknown topics, partitions out of
	// range) are facts to classify, never errors. See [Index].
	Owned []TopicPartitions
	// Generation is the generation in which the member was given Owned
	// (subscription v2+, or the cooperative user data), or [NoGeneration].
	Generation int32
	// UserData is the opaque user data of the member's subscription. An eager
	// assignor may read history from it as a hint, never as ownership.
	UserData []byte
}

// Topic is the leader's metadata for one topic.
type Topic struct {
	// Name is the topic name; names are unique within a Group.
	Name string
	// Partitions are the topic's partition IDs: usually 0..n-1 (see
	// [Partitions]), but any order is accepted. Negative IDs are dropped; an
	// ID listed more than once counts once, whatever the order of its
	// listings, with the largest of their Weights and the union of their
	// ReplicaRacks (sorted).
	Partitions []int32
	// ReplicaRacks optionally gives, for Partitions[i], the racks of its
	// replicas (KIP-881). Nil when racks are unknown; when set, it has one
	// entry per partition.
	ReplicaRacks [][]string
	// Weights optionally gives, for Partitions[i], how much work the
	// partition is (in the application's unit: records/s, bytes/s, lag…;
	// 0 for an idle partition), or [UnknownWeight]. Nil when no weight is
	// known; when set, it has one entry per partition. Only load-aware
	// assignors (package weighted) read it; the others ignore it.
	Weights []int64
}

// UnknownWeight is the weight of a partition whose load is not known; a
// load-aware assignor gives it a default (package weighted documents its
// own). Any other negative weight is an error ([ErrWeights]).
const UnknownWeight int64 = -1

// TopicPartitions names some partitions of one topic.
type TopicPartitions struct {
	Topic      string
	Partitions []int32
}

// Partitions returns the partition IDs 0..n-1, the usual partition list of a
// topic with n partitions. It returns nil for n <= 0.
func Partitions(n int32) []int32 {
	if n <= 0 {
		return nil
	}
	ps := make([]int32, n)
	for i := range ps {
		ps[i] = int32(i)
	}
	return ps
}

// CloneTopicPartitions returns a deep copy of tps.
func CloneTopicPartitions(tps []TopicPartitions) []TopicPartitions {
	if tps == nil {
		return nil
	}
	out := make([]TopicPartitions, len(tps))
	for i, tp := range tps {
		setRun(&out[i], tp.Topic, slices.Clone(tp.Partitions)) // field stores: see setRun
	}
	return out
}

// Clone returns a deep copy of g: nothing in the copy aliases g.
func (g Group) Clone() Group {
	// slices.Clone keeps nil as nil, so the copy is reflect.DeepEqual to g.
	out := Group{Members: slices.Clone(g.Members), Topics: slices.Clone(g.Topics)}
	for i, m := range g.Members {
		m.Topics = slices.Clone(m.Topics)
		m.Owned = CloneTopicPartitions(m.Owned)
		m.UserData = slices.Clone(m.UserData)
		out.Members[i] = m
	}
	for i, t := range g.Topics {
		t.Partitions = slices.Clone(t.Partitions)
		if t.ReplicaRacks != nil {
			racks := make([][]string, len(t.ReplicaRacks))
			for j, r := range t.ReplicaRacks {
				racks[j] = slices.Clone(r)
			}
			t.ReplicaRacks = racks
		}
		t.Weights = slices.Clone(t.Weights)
		out.Topics[i] = t
	}
	return out
}
