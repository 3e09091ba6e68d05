package wire

import (
	"strings"

	"github.com/kgroup/assignor"
)

// Subscription is a member's ConsumerProtocolSubscription: the protocol
// metadata it sends in JoinGroup for every assignor it supports.
//
// Callers sort before encoding: Java sends Topics sorted, and Owned sorted by
// topic with each topic's partitions ascending (KAFKA-12898); AppendTo writes
// what it is given, in the given order.
type Subscription struct {
	// Version is the message version. AppendTo writes it as given, followed by
	// the fields of version min(Version, 3); use 0 to 3. Decoding reports what
	// the bytes said: a version above 3 decodes as its version-3 prefix.
	Version int16
	// Topics are the subscribed topics.
	Topics []string
	// UserData is the assignor's opaque user data; nil is null, which is
	// distinct from empty.
	UserData []byte
	// Owned are the partitions the member owns now (v1+).
	Owned []assignor.TopicPartitions
	// Generation is the generation in which the member got Owned (v2+), or
	// [assignor.NoGeneration] when absent.
	Generation int32
	// Rack is the member's rack (v3+, KIP-881); "" is null.
	Rack string
}

// AppendTo appends s's encoding at s.Version to dst and returns the extended
// buffer. Fields of versions above s.Version are omitted; a negative Version
// is written with the version-0 fields (and fails to decode); a version above
// 3 is written with the version-3 fields. It grows dst at most once, to the
// exact size, and never fails: a string over 32767 bytes is cut to 32767
// bytes (call [Subscription.Validate] first if that can happen).
func (s Subscription) AppendTo(dst []byte) []byte {
	v := s.Version
	n := 2 + stringsSize(s.Topics) + 4 + len(s.UserData)
	if v >= 1 {
		n += topicPartitionsSize(s.Owned)
	}
	if v >= 2 {
		n += 4
	}
	if v >= 3 {
		n += 2
		if s.Rack != "" {
			n += len(clip(s.Rack))
		}
	}
	w := grow(dst, n)
	w.int16(v)
	w.strings(s.Topics)
	w.bytes(s.UserData)
	if v >= 1 {
		w.topicPartitions(s.Owned)
	}
	if v >= 2 {
		w.int32(s.Generation)
	}
	if v >= 3 {
		w.nullableString(s.Rack)
	}
	return w.b
}

// Validate reports what AppendTo cannot encode faithfully: a negative
// Version ([ErrUnsupportedVersion]), a string over 32767 bytes or a list over
// 2147483647 elements ([ErrTooLong]). Each problem is an [*EncodeError]
// naming the field; several are joined.
func (s Subscription) Validate() error {
	v := validator{msg: "subscription"}
	if s.Version < 0 {
		v.fail("version", ErrUnsupportedVersion)
	}
	v.strings("topics", s.Topics)
	v.count("user_data", len(s.UserData))
	if s.Version >= 1 {
		v.topicPartitions("owned_partitions", s.Owned)
	}
	if s.Version >= 3 {
		v.string("rack_id", s.Rack)
	}
	return v.err()
}

// DecodeSubscription decodes a ConsumerProtocolSubscription of any version.
//
// It is as tolerant as sarama and franz-go: a field of version 1 or later
// that is missing because the input ends just before it decodes as absent (a
// v1 subscription cut short after its user data, as kafka-go sends, has no
// owned partitions: franz-go issue #493; a v2 without its generation has
// [assignor.NoGeneration]; a v3 without its rack has ""); bytes after the
// last field it knows are ignored (a newer version's fields). An input that
// ends inside a field is [ErrTruncated]; a negative version is
// [ErrUnsupportedVersion]. Errors are [*DecodeError]s naming the field.
//
// It never allocates more than the input describes, and the result never
// aliases b. Topic strings share one allocation, and so do the Owned
// partition slices (each with its capacity clipped to its length). Empty
// lists decode as nil; a null UserData as nil, an empty one as non-nil.
func DecodeSubscription(b []byte) (Subscription, error) {
	sh, err := scanSubscription(b)
	if err != nil {
		return Subscription{}, err
	}
	// Fill: every allocation at its exact size.
	var names strings.Builder
	names.Grow(sh.topics.bytes + sh.owned.names + sh.rackLen)
	s := sh.fill(b, &names)
	s.Owned = readTopicPartitions(b, sh.owned, &names)
	return s, nil
}

// subscriptionShape is a checked subscription: its version, generation and
// where its other fields are.
type subscriptionShape struct {
	version         int16
	generation      int32
	topics          stringsShape
	userDataAt      int
	owned           tpShape
	rackAt, rackLen int // rackAt -1: absent
}

// scanSubscription checks every length of a subscription and measures it.
func scanSubscription(b []byte) (subscriptionShape, error) {
	sh := subscriptionShape{generation: assignor.NoGeneration, rackAt: -1}
	r := reader{b: b, msg: "subscription"}
	v, err := r.int16()
	if err != nil {
		return sh, r.fail("version", 0, err)
	}
	if v < 0 {
		return sh, r.fail("version", 0, ErrUnsupportedVersion)
	}
	sh.version = v
	if sh.topics, err = r.scanStrings("topics"); err != nil {
		return sh, err
	}
	sh.userDataAt = r.off
	if _, err := r.skipBytes(); err != nil {
		return sh, r.fail("user_data", sh.userDataAt, err)
	}
	if v >= 1 && r.left() > 0 {
		if sh.owned, err = r.scanTopicPartitions("owned_partitions"); err != nil {
			return sh, err
		}
	}
	if v >= 2 && r.left() > 0 {
		at := r.off
		if sh.generation, err = r.int32(); err != nil {
			return sh, r.fail("generation_id", at, err)
		}
	}
	if v >= 3 && r.left() > 0 {
		sh.rackAt = r.off
		if sh.rackLen, err = r.skipString(); err != nil {
			return sh, r.fail("rack_id", sh.rackAt, err)
		}
	}
	return sh, nil
}

// fill decodes every field of a checked subscription but Owned.
func (sh *subscriptionShape) fill(b []byte, names *strings.Builder) Subscription {
	s := Subscription{
		Version:    sh.version,
		Topics:     readStrings(b, sh.topics, names),
		UserData:   readBytes(b, sh.userDataAt),
		Generation: sh.generation,
	}
	if sh.rackAt >= 0 {
		s.Rack, _ = readString(b, sh.rackAt, names)
	}
	return s
}

// Member returns the [assignor.Member] that s describes for the member with
// the given IDs: ID, InstanceID, Rack, Topics, Owned, Generation and UserData.
// Generation is [assignor.NoGeneration] when s.Version is below 2, whatever
// s.Generation says.
//
// The Member aliases s: its Topics, Owned (entries and partition slices) and
// UserData are s's own slices, not copies, so s is the caller's to give away.
// That is free for a Subscription fresh from [DecodeSubscription], which
// aliases nothing else; a caller that keeps using s, or that will mutate the
// Member's slices while s is in use elsewhere, copies first
// ([assignor.Group.Clone] on the group it builds, or
// [assignor.CloneTopicPartitions] and [slices.Clone] on s's fields).
func (s Subscription) Member(memberID, instanceID string) assignor.Member {
	generation := s.Generation
	if s.Version < 2 {
		generation = assignor.NoGeneration
	}
	return assignor.Member{
		ID:         memberID,
		InstanceID: instanceID,
		Rack:       s.Rack,
		Topics:     s.Topics,
		Owned:      s.Owned,
		Generation: generation,
		UserData:   s.UserData,
	}
}
