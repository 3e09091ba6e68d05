package rebalance

import (
	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// GenerationLayout says where the subscription user data of an assignor's
// members carries the generation of their claims, which a leader reads for
// members below subscription v2 (Java before Kafka 3.4, sarama configured
// below Kafka 3.2): see [UserDataGeneration].
type GenerationLayout uint8

const (
	// NoGenerationLayout: the user data carries no generation (or the
	// assignor has no subscription user data hook): no leader can tell a
	// stale claim from its valid owner's.
	NoGenerationLayout GenerationLayout = iota
	// CooperativeLayout: the 4-byte cooperative-sticky user data, the
	// generation itself, which Java's, sarama's, kgo's and this module's
	// leaders read.
	CooperativeLayout
	// StickyLayout: eager sticky's layout with the generation after the
	// assignment (cooperative.Config.InnerUserData, or a
	// cooperative.GenerationCarrier), which only this module's leaders read;
	// a Java leader takes its first 4 bytes as the generation.
	StickyLayout
)

// probeGeneration is the generation UserDataGeneration hands the hook.
const probeGeneration = 7

// UserDataGeneration reports where members running a carry the generation
// of their claims in their subscription user data, and the user data's
// size, by calling a's [assignor.SubscriptionUserDataAssignor] hook once
// with a made-up member state (the assignors of this module keep no state).
// An adapter's configuration check uses it to warn about members below
// subscription v2 whose leader could not read the generation. A hook that
// fails reads as [NoGenerationLayout].
func UserDataGeneration(a assignor.Assignor) (GenerationLayout, int) {
	hook, ok := a.(assignor.SubscriptionUserDataAssignor)
	if !ok {
		return NoGenerationLayout, 0
	}
	data, err := hook.SubscriptionUserData(assignor.MemberState{
		Topics:     []string{"t"},
		Owned:      []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{0}}},
		Generation: probeGeneration,
	})
	switch {
	case err != nil:
		return NoGenerationLayout, 0
	case len(data) == 4:
		if gen, err := wire.DecodeCooperativeUserData(data); err == nil && gen == probeGeneration {
			return CooperativeLayout, len(data)
		}
	default:
		if gen, err := wire.UserDataGeneration(data); err == nil && gen == probeGeneration {
			return StickyLayout, len(data)
		}
	}
	return NoGenerationLayout, len(data)
}
