package wire

import (
	"strings"

	"github.com/kgroup/assignor"
)

// Assignment is a member's ConsumerProtocolAssignment: what the leader gives
// it in SyncGroup. Versions 0 to 3 share one layout: the assigned
// topic-partitions, then nullable user data.
//
// Callers sort before encoding (by topic, then partition, as Java does); a
// [assignor.Plan]'s Assigned lists already are. AppendTo writes what it is
// given, in the given order.
type Assignment struct {
	// Version is the message version, written as given; use 0 to 3.
	// Decoding reports what the bytes said.
	Version int16
	// Partitions are the assigned partitions.
	Partitions []assignor.TopicPartitions
	// UserData is the assignor's opaque user data; nil is null.
	UserData []byte
}

// AppendTo appends a's encoding to dst and returns the extended buffer. It
// grows dst at most once, to the exact size, and never fails: a topic name
// over 32767 bytes is cut to 32767 bytes (call [Assignment.Validate] first if
// that can happen).
func (a Assignment) AppendTo(dst []byte) []byte {
	w := grow(dst, 2+topicPartitionsSize(a.Partitions)+4+len(a.UserData))
	w.int16(a.Version)
	w.topicPartitions(a.Partitions)
	w.bytes(a.UserData)
	return w.b
}

// Validate reports what AppendTo cannot encode faithfully, as
// [Subscription.Validate] does.
func (a Assignment) Validate() error {
	v := validator{msg: "assignment"}
	if a.Version < 0 {
		v.fail("version", ErrUnsupportedVersion)
	}
	v.topicPartitions("assigned_partitions", a.Partitions)
	v.count("user_data", len(a.UserData))
	return v.err()
}

// DecodeAssignment decodes a ConsumerProtocolAssignment of any version.
// Every version shares the layout of version 0, whose fields are all
// required: an input that ends before or inside one is [ErrTruncated]. Bytes
// after the user data are ignored (a newer version's fields); a negative
// version is [ErrUnsupportedVersion]. Errors are [*DecodeError]s naming the
// field.
//
// It never allocates more than the input describes, and the result never
// aliases b. Topic strings share one allocation, and so do the partition
// slices (each with its capacity clipped to its length). An empty list
// decodes as nil; a null UserData as nil, an empty one as non-nil.
func DecodeAssignment(b []byte) (Assignment, error) {
	r := reader{b: b, msg: "assignment"}
	v, err := r.int16()
	if err != nil {
		return Assignment{}, r.fail("version", 0, err)
	}
	if v < 0 {
		return Assignment{}, r.fail("version", 0, ErrUnsupportedVersion)
	}
	assigned, err := r.scanTopicPartitions("assigned_partitions")
	if err != nil {
		return Assignment{}, err
	}
	userDataAt := r.off
	if _, err := r.skipBytes(); err != nil {
		return Assignment{}, r.fail("user_data", userDataAt, err)
	}

	var names strings.Builder
	names.Grow(assigned.names)
	return Assignment{
		Version:    v,
		Partitions: readTopicPartitions(b, assigned, &names),
		UserData:   readBytes(b, userDataAt),
	}, nil
}
