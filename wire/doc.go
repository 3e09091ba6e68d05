// Package wire is the one place in this module that knows the bytes of
// Kafka's consumer protocol: the ConsumerProtocolSubscription a member sends
// in JoinGroup, the ConsumerProtocolAssignment the leader sends back in
// SyncGroup, and the user-data layouts of the cooperative-sticky and eager
// sticky assignors. It imports only the standard library and the root
// package.
//
// # Walk-through
//
// A leader decodes each member's JoinGroup metadata and turns it into the
// root package's view of the member:
//
//	sub, err := wire.DecodeSubscription(metadata)
//	if err != nil { ... }            // a *wire.DecodeError naming the field
//	m := sub.Member(memberID, instanceID)
//
// A leader that hands the owned partitions straight to an
// [assignor.IndexBuilder] can leave them in the metadata instead:
// [SubscriptionDecoder] (or a [SubscriptionDecoder], which also shares
// one Topics slice between members that subscribe alike) checks the bytes
// as strictly, with the same errors, and its OwnedPartitions iterates the
// owned partitions on demand; the view aliases the metadata.
//
// After assigning, it encodes each member's plan:
//
//	b := wire.Assignment{Partitions: mp.Assigned, UserData: mp.UserData}.AppendTo(nil)
//
// AppendTo may also append to a reused buffer (buf[:0]) when the bytes are
// sent before the buffer is reused; then encoding allocates nothing.
//
// A member builds its subscription the other way round: sort Topics and
// Owned (Java does, KAFKA-12898; the encoders write what they are given),
// then AppendTo.
//
// # Byte layouts
//
// Big-endian Kafka primitives, non-flexible (no tagged fields, no compact
// lengths): string is an int16 length then bytes, bytes an int32 length then
// bytes, [T] an int32 count then the Ts; a length of -1 is null.
//
// ConsumerProtocolSubscription, versions 0 to 3:
//
//	int16 version
//	[string] topics
//	nullable bytes user_data                      (int32 len or -1)
//	[owned_partitions: string topic, [int32]]     (v1+)
//	int32 generation_id                           (v2+; -1 when unknown)
//	nullable string rack_id                       (v3+; int16 len or -1)
//
// ConsumerProtocolAssignment, versions 0 to 3 (one layout):
//
//	int16 version
//	[assigned_partitions: string topic, [int32]]
//	nullable bytes user_data
//
// cooperative-sticky user data (Java, sarama):
//
//	int32 generation
//
// Eager sticky user data, version 1 (Java, sarama StickyAssignorUserDataV1,
// franz-go kmsg.StickyMemberMetadata; no version field):
//
//	[previous_assignment: string topic, [int32]]
//	int32 generation                              (absent in v0)
//
// Below subscription v2 a cooperative member carries its generation in one
// of these two layouts; [UserDataGeneration] reads either.
//
// Each AppendTo measures its output first and grows dst once, so encoding
// into a reused buffer allocates nothing.
//
// # Examples
//
// The package Example sends a subscription as bytes and reads it back as an
// assignor.Member; [DecodeAssignment]'s shows a decoding error naming the
// field and its offset; [StickyUserData]'s encodes and decodes eager sticky
// user data. (The fast re-join mark this module's leaders put in assignment
// user data is package rebalance's.)
//
// # KIPs
//
// KIP-54 and KIP-341 (sticky user data and its generation), KIP-429
// (owned partitions, subscription v1; the design's NEEDS_REJOIN, carried
// by the rejoin envelope), KIP-792 (generation_id, subscription
// v2), KIP-881 (rack_id, subscription v3). KAFKA-12898: sort topics and owned
// partitions before encoding.
package wire
