package wire

import (
	"strings"

	"github.com/kgroup/assignor"
)

// CooperativeUserData returns the subscription user data of Java's
// cooperative-sticky assignor (sarama's is the same): the member's generation
// as a bare big-endian int32, 4 bytes.
func CooperativeUserData(generation int32) []byte {
	return be.AppendUint32(make([]byte, 0, 4), uint32(generation))
}

// DecodeCooperativeUserData reads the generation from cooperative-sticky user
// data. Empty or nil user data (none sent) is [assignor.NoGeneration] with no
// error. Any length but 0 or 4 returns [assignor.NoGeneration] and a
// [*DecodeError]: [ErrTruncated] for 1 to 3 bytes, [ErrTrailingBytes] for
// more than 4.
//
// Java reads the first 4 bytes of longer user data as the generation; this
// decoder refuses, because the longer user data seen in practice is
// franz-go's, which sends its eager sticky layout (see [StickyUserData]) for
// cooperative-sticky too, and its first 4 bytes are a topic count. Read as a
// generation, that count could outrank real claims (KIP-792). Like Java, a
// caller should prefer the subscription's own generation (v2+) and use the
// user data only below v2.
func DecodeCooperativeUserData(b []byte) (generation int32, err error) {
	switch {
	case len(b) == 0:
		return assignor.NoGeneration, nil
	case len(b) < 4:
		err = ErrTruncated
	case len(b) > 4:
		err = ErrTrailingBytes
	default:
		return int32(be.Uint32(b)), nil
	}
	return assignor.NoGeneration, &DecodeError{Message: "cooperative user data", Field: "generation", Err: err}
}

// StickyUserData is the subscription user data of the eager `sticky`
// assignor, in the version-1 layout that Java's StickyAssignor, sarama
// (StickyAssignorUserDataV1) and franz-go (kmsg.StickyMemberMetadata) share:
// the member's current assignment, then its generation. Version 0 has no
// generation.
//
// Callers sort Owned by topic, each topic's partitions ascending, as Java
// and franz-go do; AppendTo writes what it is given, in the given order.
type StickyUserData struct {
	// Owned is the member's current assignment.
	Owned []assignor.TopicPartitions
	// Generation is the generation of that assignment, or
	// [assignor.NoGeneration] (version 0 has none).
	Generation int32
}

// AppendTo appends u's encoding to dst and returns the extended buffer. It
// always writes version 1, with the generation even when it is
// [assignor.NoGeneration], as Java does. It grows dst at most once, to the
// exact size, and never fails: a topic name over 32767 bytes is cut to 32767
// bytes (call [StickyUserData.Validate] first if that can happen).
func (u StickyUserData) AppendTo(dst []byte) []byte {
	w := grow(dst, topicPartitionsSize(u.Owned)+4)
	w.topicPartitions(u.Owned)
	w.int32(u.Generation)
	return w.b
}

// Validate reports what AppendTo cannot encode faithfully, as
// [Subscription.Validate] does.
func (u StickyUserData) Validate() error {
	v := validator{msg: "sticky user data"}
	v.topicPartitions("previous_assignment", u.Owned)
	return v.err()
}

// DecodeStickyUserData decodes eager sticky user data of version 0 or 1. An
// input that ends right after the assignment is version 0 and has
// [assignor.NoGeneration]; 1 to 3 bytes after it are [ErrTruncated], as in
// sarama and franz-go; bytes after the generation are ignored, as in Java and
// franz-go. Errors are [*DecodeError]s naming the field.
//
// It never allocates more than the input describes, and the result never
// aliases b. Topic strings share one allocation, and so do the partition
// slices (each with its capacity clipped to its length). An empty list
// decodes as nil.
func DecodeStickyUserData(b []byte) (StickyUserData, error) {
	r := reader{b: b, msg: "sticky user data"}
	owned, err := r.scanTopicPartitions("previous_assignment")
	if err != nil {
		return StickyUserData{}, err
	}
	generation := assignor.NoGeneration
	if r.left() > 0 {
		at := r.off
		if generation, err = r.int32(); err != nil {
			return StickyUserData{}, r.fail("generation", at, err)
		}
	}
	var names strings.Builder
	names.Grow(owned.names)
	return StickyUserData{Owned: readTopicPartitions(b, owned, &names), Generation: generation}, nil
}
