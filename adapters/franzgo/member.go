package franzgo

import (
	"fmt"
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// JoinGroupMetadata returns the member's subscription for JoinGroup: a
// ConsumerProtocolSubscription v3 with the topics, the partitions the member
// owns and the generation in which it got them (kgo passes its last
// assignment and generation; -1 before the first), the assignor's
// subscription user data, and a null rack. kgo calls it before every
// JoinGroup, on every member.
//
// The user data comes from the assignor's
// [assignor.SubscriptionUserDataAssignor] hook, given the member's topics,
// owned partitions and generation ([assignor.MemberState]); the balancer
// itself remembers nothing between calls. Without a hook, or when the hook
// fails (logged), the user data is null.
//
// The rack is left null so that kgo adds the client's own (kgo.Rack): it
// decodes this subscription with kmsg, sets the rack and encodes it again,
// which keeps every other field. Topics and owned partitions are sorted
// (KAFKA-12898), so the same state always gives the same bytes: the broker
// compares them to decide whether a static member's rejoin changes anything.
func (b *Balancer) JoinGroupMetadata(topics []string, current map[string][]int32, generation int32) []byte {
	topics = slices.Compact(slices.Sorted(slices.Values(topics)))
	owned := assignor.TopicPartitionsFromMap(current)
	generation = max(generation, assignor.NoGeneration)
	var userData []byte
	if b.sub != nil {
		state := assignor.MemberState{Topics: slices.Clone(topics), Owned: assignor.CloneTopicPartitions(owned), Generation: generation}
		var err error
		if userData, err = b.sub.SubscriptionUserData(state); err != nil {
			b.logf("franzgo: %s: subscription user data (generation %d): %v; sending none", b.name, generation, err)
			userData = nil
		}
	}
	sub := wire.Subscription{Version: 3, Topics: topics, UserData: userData, Owned: owned, Generation: generation}
	return sub.AppendTo(nil)
}

// ParseSyncAssignment decodes the member's assignment from SyncGroup and
// returns its topic → partitions map (sorted partitions, duplicates and
// empty topics dropped). kgo calls it on every member after a successful
// SyncGroup, before it revokes what the member lost (OnPartitionsRevoked) or
// starts what it gained (OnPartitionsAssigned).
//
// Empty bytes are an empty assignment, not an error: that is what the
// broker sends a member the leader's plan leaves out. Bytes that do not
// decode are an error naming the field ([wire.DecodeError]); kgo logs it and
// the member rejoins. Bytes after the user data are ignored, so assignments
// from Java, sarama and kgo's own balancers all parse.
//
// If the assignor observes assignments ([assignor.AssignmentObserver]), it
// is told the partitions, its own assignment user data (without the fast
// re-join envelope, [wire.RejoinEnvelope]), and the generation from the
// bound client (see [Balancer]). A marked assignment then makes the bound
// client rejoin at once (see the package doc, # Fast re-join).
func (b *Balancer) ParseSyncAssignment(assignment []byte) (map[string][]int32, error) {
	if len(assignment) == 0 {
		b.observe(nil, nil)
		b.rejoinIfMarked(false)
		return map[string][]int32{}, nil
	}
	a, err := wire.DecodeAssignment(assignment)
	if err != nil {
		return nil, fmt.Errorf("franzgo: %s: %w", b.name, err)
	}
	e, err := wire.DecodeRejoinEnvelope(a.UserData)
	if err != nil {
		b.logf("franzgo: %s: assignment user data: %v; handed to the assignor as it is", b.name, err)
	}
	b.observe(assignor.NormalizeTopicPartitions(a.Partitions), e.UserData)
	b.rejoinIfMarked(e.Rejoin)
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
