package wire

import (
	"errors"
	"strconv"
	"strings"
)

// Sentinel errors. The decoders return them wrapped in a [*DecodeError], and
// the Validate methods wrap them in an [*EncodeError]; test for them with
// [errors.Is].
var (
	// ErrTruncated: the input ends inside a field, or before a field that is
	// not optional. Returned by every decoder.
	ErrTruncated = errors.New("assignor: input truncated")
	// ErrNegativeLength: a length or count below -1 (-1 itself means null).
	// Returned by every decoder.
	ErrNegativeLength = errors.New("assignor: negative length")
	// ErrUnsupportedVersion: a negative message version. Returned by
	// [DecodeSubscription] and [DecodeAssignment] (versions above 3 decode as
	// their version-3 prefix), and by Validate for a negative Version.
	ErrUnsupportedVersion = errors.New("assignor: unsupported version")
	// ErrTrailingBytes: cooperative-sticky user data longer than its 4 bytes.
	// Returned by [DecodeCooperativeUserData] only.
	ErrTrailingBytes = errors.New("assignor: unexpected trailing bytes")
	// ErrTooLong: a string over 32767 bytes or a list of more than
	// 2147483647 elements, which Kafka's primitives cannot carry. Returned by
	// the Validate methods only.
	ErrTooLong = errors.New("assignor: too long to encode")
)

// DecodeError is a decoding failure: which message, which field, and the
// byte offset in the input where that field (its length prefix, for strings,
// bytes and arrays) starts.
//
// Its text reads, for example,
//
//	assignor: subscription: owned_partitions[0].partitions (byte 42): input truncated
type DecodeError struct {
	// Message is "subscription", "assignment", "sticky user data" or
	// "cooperative user data".
	Message string
	// Field is the field's path with Kafka's (snake_case) field names and
	// array indices, such as "version", "topics[3]", "user_data",
	// "owned_partitions[0].topic", "owned_partitions[0].partitions",
	// "generation_id", "rack_id", "assigned_partitions[2].partitions",
	// "previous_assignment[1].topic" or "generation".
	Field string
	// Offset is the byte offset of the field in the decoded input.
	Offset int
	// Err is the cause: [ErrTruncated], [ErrNegativeLength],
	// [ErrUnsupportedVersion] or [ErrTrailingBytes].
	Err error
}

func (e *DecodeError) Error() string {
	return "assignor: " + e.Message + ": " + e.Field + " (byte " + strconv.Itoa(e.Offset) + "): " + causeText(e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// EncodeError is a value that the Kafka primitives cannot carry faithfully,
// reported by the Validate methods.
type EncodeError struct {
	// Message is "subscription", "assignment" or "sticky user data".
	Message string
	// Field is the field's path, named as in [DecodeError].
	Field string
	// Err is [ErrTooLong] or [ErrUnsupportedVersion].
	Err error
}

func (e *EncodeError) Error() string {
	return "assignor: " + e.Message + ": " + e.Field + ": " + causeText(e.Err)
}

func (e *EncodeError) Unwrap() error { return e.Err }

func causeText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return strings.TrimPrefix(err.Error(), "assignor: ")
}

// elemField renders "name[i]" or "name[i].sub".
func elemField(name string, i int, sub string) string {
	s := name + "[" + strconv.Itoa(i) + "]"
	if sub != "" {
		s += "." + sub
	}
	return s
}
