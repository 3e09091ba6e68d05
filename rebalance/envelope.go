package rebalance

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/kgroup/assignor/wire"
)

// The fast re-join envelope is the assignment user data this package's
// leaders send when a cooperative plan withholds partitions: a mark asking
// the member to rejoin at once around the assignor's own assignment user
// data. The released protocol has no field for it, and Java's, sarama's and
// franz-go's cooperative-sticky members ignore assignment user data, so only
// members that decode the envelope act on it.
//
// Layout, big-endian Kafka primitives:
//
//	magic      4 bytes   FE 46 52 4A ("\xfeFRJ")
//	version    int16     0
//	flags      int16     bit 0: rejoin at once; other bits reserved (written
//	                     0, ignored when read)
//	user_data  nullable bytes: the assignor's own user data
//
// A later version may only append fields after user_data; a reader decodes
// any version as its version-0 prefix and ignores the bytes after, as Kafka's
// consumer protocol does. Bytes that do not begin with the magic are not an
// envelope: they are the assignor's own user data, as is, which is also what
// is written when there is nothing to mark, so a settled group's assignments
// carry exactly the assignor's bytes.
//
// The magic's first byte, 0xFE, makes it a negative int16 and int32, so it
// cannot begin any layout whose first field is a version, a count or a
// length (a version-0+ assignment, sticky user data, Java's 4-byte
// cooperative user data of a real generation, a null marker of -1); the next
// three bytes make an accidental match in an assignor's own bytes a
// 1-in-2^32 event.
var envelopeMagic = [4]byte{0xFE, 'F', 'R', 'J'}

// rejoinFlag is the flags bit that asks the member to rejoin at once.
const rejoinFlag = 1

// envelopeHeader is the size of the envelope before the user data's bytes.
const envelopeHeader = len(envelopeMagic) + 2 + 2 + 4

// envelopeSize is the size of the user data appendEnvelope writes for
// userData, marked or not.
func envelopeSize(rejoin bool, userData []byte) int {
	if !rejoin && !bytes.HasPrefix(userData, envelopeMagic[:]) {
		return len(userData)
	}
	return envelopeHeader + len(userData)
}

// appendEnvelope appends to dst the assignment user data for an assignor's
// own userData, marked for fast re-join or not: the envelope when rejoin is
// set or userData itself begins with the magic (so that it reads back as
// itself), else userData alone, unchanged. The same input always gives the
// same bytes, and [ReadUserData] reads them back. User data over 2^31-1
// bytes cannot be framed and is cut (no assignor sends that much).
func appendEnvelope(dst []byte, rejoin bool, userData []byte) []byte {
	if !rejoin && !bytes.HasPrefix(userData, envelopeMagic[:]) {
		return append(dst, userData...)
	}
	dst = slices.Grow(dst, envelopeHeader+len(userData))
	dst = append(dst, envelopeMagic[:]...)
	var flags uint16
	if rejoin {
		flags |= rejoinFlag
	}
	dst = binary.BigEndian.AppendUint16(dst, 0) // version
	dst = binary.BigEndian.AppendUint16(dst, flags)
	if userData == nil {
		return binary.BigEndian.AppendUint32(dst, 0xFFFFFFFF) // null
	}
	n := min(len(userData), 1<<31-1)
	dst = binary.BigEndian.AppendUint32(dst, uint32(n))
	return append(dst, userData[:n]...)
}

// ErrEnvelope is returned, wrapping a [*wire.DecodeError] that names the
// field (Message "rejoin envelope"), for assignment user data that begins
// with the fast re-join envelope's magic but is not a whole envelope
// (truncated, a negative version or length). It never comes alone: the user
// data is then handed on as it is, unmarked, so that a caller logs the
// error and goes on.
var ErrEnvelope = errors.New("rebalance: fast re-join envelope unreadable")

// ReadUserData reads the user data of an assignment as this package's
// leaders send it: the assignor's own user data, and whether the leader
// marked the assignment for fast re-join. Bytes that do not begin with the
// envelope's magic (every assignor's own user data, and nil) are returned as
// they are, unmarked, with no error. Bytes that begin with it but are not a
// whole envelope are returned as they are too, unmarked, with an error
// wrapping [ErrEnvelope]. Bytes after the assignor's user data are ignored
// (a later version's fields).
//
// It never panics, and own never aliases userData: it is a copy (nil for nil
// or a null field, non-nil when empty).
func ReadUserData(userData []byte) (own []byte, rejoin bool, err error) {
	if !bytes.HasPrefix(userData, envelopeMagic[:]) {
		return slices.Clone(userData), false, nil
	}
	fail := func(field string, at int, cause error) ([]byte, bool, error) {
		return slices.Clone(userData), false, fmt.Errorf("%w: %w", ErrEnvelope, &wire.DecodeError{Message: "rejoin envelope", Field: field, Offset: at, Err: cause})
	}
	b := userData[len(envelopeMagic):]
	at := len(envelopeMagic)
	if len(b) < 2 {
		return fail("version", at, wire.ErrTruncated)
	}
	if int16(binary.BigEndian.Uint16(b)) < 0 {
		return fail("version", at, wire.ErrUnsupportedVersion)
	}
	b, at = b[2:], at+2
	if len(b) < 2 {
		return fail("flags", at, wire.ErrTruncated)
	}
	flags := binary.BigEndian.Uint16(b)
	b, at = b[2:], at+2
	if len(b) < 4 {
		return fail("user_data", at, wire.ErrTruncated)
	}
	n := int32(binary.BigEndian.Uint32(b))
	switch {
	case n == -1:
		return nil, flags&rejoinFlag != 0, nil
	case n < -1:
		return fail("user_data", at, wire.ErrNegativeLength)
	case int(n) > len(b)-4:
		return fail("user_data", at, wire.ErrTruncated)
	}
	return slices.Clone(b[4 : 4+n : 4+n]), flags&rejoinFlag != 0, nil
}
