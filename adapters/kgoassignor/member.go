package kgoassignor

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/rebalance"
)

// JoinGroupMetadata returns the member's subscription for JoinGroup: a
// ConsumerProtocolSubscription v3 with the topics, the partitions the member
// owns and the generation in which it got them (kgo passes its last
// assignment and generation; -1 before the first), the assignor's
// subscription user data, and a null rack ([rebalance.SubscriptionMetadata]).
// kgo calls it before every JoinGroup, on every member.
//
// The user data comes from the assignor's
// [assignor.SubscriptionUserDataAssignor] hook, given the member's topics,
// owned partitions and generation ([assignor.MemberState]); the balancer
// itself remembers nothing between calls. Without a hook, or when the hook
// fails (a warning), the user data is null.
//
// The rack is left null so that kgo adds the client's own (kgo.Rack): it
// decodes this subscription with kmsg, sets the rack and encodes it again,
// which keeps every other field. Topics and owned partitions are sorted
// (KAFKA-12898), so the same state always gives the same bytes: the broker
// compares them to decide whether a static member's rejoin changes anything.
func (b *Balancer) JoinGroupMetadata(topics []string, current map[string][]int32, generation int32) []byte {
	st := assignor.MemberState{Topics: topics, Owned: assignor.TopicPartitionsFromMap(current), Generation: generation}
	meta, err := rebalance.SubscriptionMetadata(b.a, st, "")
	if err != nil {
		b.log.Warn("subscription user data failed; sending none", "generation", generation, "error", err)
	}
	return meta
}

// ParseSyncAssignment decodes the member's assignment from SyncGroup and
// returns its topic → partitions map (sorted partitions, duplicates and
// empty topics dropped). kgo calls it on every member after a successful
// SyncGroup, before it revokes what the member lost (OnPartitionsRevoked) or
// starts what it gained (OnPartitionsAssigned).
//
// Empty bytes are an empty assignment, not an error: that is what the
// broker sends a member the leader's plan leaves out. Bytes that do not
// decode are an error naming the field; kgo logs it and the member
// rejoins. Bytes after the user data are ignored, so assignments from Java,
// sarama and kgo's own balancers all parse ([rebalance.ParseAssignment]).
//
// If the assignor observes assignments ([assignor.AssignmentObserver]), it
// is told the partitions, its own assignment user data (without the fast
// re-join mark), and the generation from the bound client (see
// [Balancer]). A marked assignment then makes the bound client rejoin at
// once (see the package doc, # Fast re-join).
func (b *Balancer) ParseSyncAssignment(assignment []byte) (map[string][]int32, error) {
	a, err := rebalance.ParseAssignment(assignment)
	switch {
	case errors.Is(err, rebalance.ErrEnvelope):
		b.log.Warn("assignment user data unreadable; handed to the assignor as it is", "error", err)
	case err != nil:
		return nil, fmt.Errorf("kgoassignor: %s: %w", b.name, err)
	}
	b.observe(a.Partitions, a.UserData)
	b.synced(a.Rejoin)
	if m := assignor.TopicPartitionsMap(a.Partitions); m != nil {
		return m, nil
	}
	return map[string][]int32{}, nil // as kgo's own balancers: never nil
}

// observe forwards an assignment to the assignor's AssignmentObserver hook,
// if it has one, with copies it may keep.
func (b *Balancer) observe(assigned []assignor.TopicPartitions, userData []byte) {
	if b.obs == nil {
		return
	}
	b.obs.OnAssignment(assignor.CloneTopicPartitions(assigned), slices.Clone(userData), b.generation())
}
