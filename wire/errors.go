package wire

import (
	"errors"
	"strconv"
)

// Sentinel errors. The decoders return them wrapped in a [*DecodeError], and
// the Validate methods wrap them in an [*EncodeError]; test for them with
// [errors.Is].
var (
	// ErrTruncated: the input ends inside a field, or before a field that is
	// not optional. Returned by every decoder.
	ErrTruncated = errors.New("wire: input truncated")
	// ErrNegativeLength: a length or count below -1 (-1 itself means null).
	// Returned by every decoder.
	ErrNegativeLength = errors.New("wire: negative length")
	// ErrUnsupportedVersion: a negative message version. Returned by
	// [DecodeSubscription] and [DecodeAssignment] (versions above 3 decode as
	// their version-3 prefix), package rebalance's fast re-join envelope
	// (versions above 0 decode as their version-0 prefix), and by Validate
	// for a negative Version.
	ErrUnsupportedVersion = errors.New("wire: unsupported version")
	// ErrTrailingBytes: cooperative-sticky user data longer than its 4 bytes.
	// Returned by [DecodeCooperativeUserData] only.
	ErrTrailingBytes = errors.New("wire: unexpected trailing bytes")
	// ErrTooLong: a string over 32767 bytes or a list of more than
	// 2147483647 elements, which Kafka's primitives cannot carry. Returned by
	// the Validate methods only.
	ErrTooLong = errors.New("wire: too long to encode")
)

// DecodeError is a decoding failure: which message, which field, and the
// byte offset in the input where that field (its length prefix, for strings,
// bytes and arrays) starts.
//
// Its text is the sentinel's, then the message, field and offset:
//
//	wire: input truncated: subscription owned_partitions[0].partitions at byte 42
type DecodeError struct {
	// Message is "subscription", "assignment", "sticky user data",
	// "cooperative user data" or "rejoin envelope".
	Message string
	// Field is the field's path with Kafka's (snake_case) field names and
	// array indices, such as "version", "topics[3]", "user_data",
	// "owned_partitions[0].topic", "owned_partitions[0].partitions",
	// "generation_id", "rack_id", "assigned_partitions[2].partitions",
	// "previous_assignment[1].topic", "generation" or "flags".
	Field string
	// Offset is the byte offset of the field in the decoded input.
	Offset int
	// Err is the cause: [ErrTruncated], [ErrNegativeLength],
	// [ErrUnsupportedVersion] or [ErrTrailingBytes].
	Err error
}

func (e *DecodeError) Error() string {
	return withContext(e.Err, e.Message+" "+e.Field+" at byte "+strconv.Itoa(e.Offset))
}

func (e *DecodeError) Unwrap() error { return e.Err }

// EncodeError is a value that the Kafka primitives cannot carry faithfully,
// reported by the Validate methods. Its text is the sentinel's, then the
// message and field:
//
//	wire: too long to encode: subscription topics[3]
type EncodeError struct {
	// Message is "subscription", "assignment", "sticky user data" or
	// "rejoin envelope".
	Message string
	// Field is the field's path, named as in [DecodeError].
	Field string
	// Err is [ErrTooLong] or [ErrUnsupportedVersion].
	Err error
}

func (e *EncodeError) Error() string {
	return withContext(e.Err, e.Message+" "+e.Field)
}

func (e *EncodeError) Unwrap() error { return e.Err }

// withContext renders an error of this package about context: a sentinel of
// this package first, as it already names the package; any other cause after
// the context, untouched.
func withContext(cause error, context string) string {
	switch cause {
	case ErrTruncated, ErrNegativeLength, ErrUnsupportedVersion, ErrTrailingBytes, ErrTooLong:
		return cause.Error() + ": " + context
	case nil:
		return "wire: " + context
	}
	return "wire: " + context + ": " + cause.Error()
}

// elemField renders "name[i]" or "name[i].sub".
func elemField(name string, i int, sub string) string {
	s := name + "[" + strconv.Itoa(i) + "]"
	if sub != "" {
		s += "." + sub
	}
	return s
}
