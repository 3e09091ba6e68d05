package wire

import (
	"bytes"
	"slices"
)

// rejoinMagic opens a [RejoinEnvelope]. Its first byte, 0xFE, makes it a
// negative int16 and int32, so it cannot begin any layout this package
// knows whose first field is a version, a count or a length (a version-0+
// assignment, sticky user data, Java's 4-byte cooperative user data of a
// real generation, a null marker of -1), and the next three bytes make an
// accidental match in an assignor's own bytes a 1-in-2^32 event.
var rejoinMagic = [4]byte{0xFE, 'F', 'R', 'J'}

// rejoinFlag is the flags bit that asks the member to rejoin at once.
const rejoinFlag = 1

// RejoinEnvelope is the assignment user data that this module's leaders
// send when a cooperative plan withholds partitions: a mark asking the
// member to rejoin at once (fast re-join, the KIP-429 design's
// NEEDS_REJOIN, step 2.6) around the assignor's own assignment user data.
// The released protocol has no field for it, and Java's, sarama's and
// franz-go's cooperative-sticky members ignore assignment user data, so
// only members that decode the envelope act on it.
//
// Layout, big-endian Kafka primitives:
//
//	magic      4 bytes   FE 46 52 4A ("\xfeFRJ")
//	version    int16     0
//	flags      int16     bit 0: rejoin at once; other bits reserved (written
//	                     0, ignored when read)
//	user_data  nullable bytes: the inner assignor's own user data
//
// A later version may only append fields after user_data; a reader
// decodes any version as its version-0 prefix and ignores the bytes after,
// as Kafka's consumer protocol does. Bytes that do not begin with the magic
// are not an envelope: they are the assignor's own user data, as is, which
// is also what [RejoinEnvelope.AppendTo] writes when there is nothing to
// mark, so a settled group's assignments are exactly the inner assignor's
// bytes.
type RejoinEnvelope struct {
	// Rejoin asks the member to rejoin the group at once, instead of at its
	// next heartbeat.
	Rejoin bool
	// UserData is the inner assignor's own assignment user data; nil is
	// null.
	UserData []byte
}

// rejoinHeader is the size of the envelope before the user data's bytes.
const rejoinHeader = len(rejoinMagic) + 2 + 2 + 4

// AppendTo appends e's encoding to dst and returns the extended buffer: the
// envelope when e.Rejoin is set or e.UserData itself begins with the
// envelope's magic (so that it reads back as itself), else e.UserData
// alone, unchanged. AppendTo(nil) keeps nil and empty user data apart (nil
// and a new empty slice), as Kafka's null and empty bytes differ. The same
// e always gives the same bytes, and [DecodeRejoinEnvelope] reads them back
// as e. It grows dst at most once and never fails: user data over 2^31-1
// bytes cannot be framed (call [RejoinEnvelope.Validate] first if that can
// happen).
func (e RejoinEnvelope) AppendTo(dst []byte) []byte {
	if !e.Rejoin && !bytes.HasPrefix(e.UserData, rejoinMagic[:]) {
		if dst == nil {
			return slices.Clone(e.UserData)
		}
		return append(dst, e.UserData...)
	}
	w := grow(dst, rejoinHeader+len(e.UserData))
	w.off += copy(w.b[w.off:], rejoinMagic[:])
	w.int16(0)
	var flags int16
	if e.Rejoin {
		flags |= rejoinFlag
	}
	w.int16(flags)
	w.bytes(e.UserData)
	return w.b
}

// Validate reports what AppendTo cannot encode faithfully: user data too
// long for an int32 length, when it would be framed.
func (e RejoinEnvelope) Validate() error {
	v := validator{msg: "rejoin envelope"}
	v.count("user_data", len(e.UserData))
	return v.err()
}

// DecodeRejoinEnvelope reads assignment user data that may be a
// [RejoinEnvelope]. Bytes that do not begin with the envelope's magic
// (every assignor's own user data, and nil) are returned as the user data,
// unmarked, with no error. Bytes that begin with it but are not a whole
// envelope (truncated, a negative version or length) are a [*DecodeError]
// naming the field ([ErrTruncated], [ErrUnsupportedVersion],
// [ErrNegativeLength]); the envelope returned with it is the same as for
// bytes without the magic, unmarked with all of b as the user data, so a
// caller may log the error and go on. Bytes after the user data are
// ignored (a later version's fields).
//
// It never panics, never allocates more than the input describes, and the
// result never aliases b: UserData is a copy (nil for nil or a null field,
// non-nil when empty).
func DecodeRejoinEnvelope(b []byte) (RejoinEnvelope, error) {
	if !bytes.HasPrefix(b, rejoinMagic[:]) {
		return RejoinEnvelope{UserData: slices.Clone(b)}, nil
	}
	r := reader{b: b, off: len(rejoinMagic), msg: "rejoin envelope"}
	asIs := RejoinEnvelope{UserData: slices.Clone(b)}
	v, err := r.int16()
	if err == nil && v < 0 {
		err = ErrUnsupportedVersion
	}
	if err != nil {
		return asIs, r.fail("version", len(rejoinMagic), err)
	}
	at := r.off
	flags, err := r.int16()
	if err != nil {
		return asIs, r.fail("flags", at, err)
	}
	at = r.off
	if _, err := r.skipBytes(); err != nil {
		return asIs, r.fail("user_data", at, err)
	}
	return RejoinEnvelope{Rejoin: flags&rejoinFlag != 0, UserData: readBytes(b, at)}, nil
}
