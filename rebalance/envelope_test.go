package rebalance

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/kgroup/assignor/wire"
)

func mustHex(s string) []byte {
	b, err := hex.DecodeString(strings.NewReplacer(" ", "", "|", "").Replace(s))
	if err != nil {
		panic(err)
	}
	return b
}

// envelopeVector is assignment user data as a member reads it: the
// assignor's own bytes and the mark, or the field at fault.
type envelopeVector struct {
	name      string
	in        []byte
	own       []byte
	rejoin    bool
	canonical bool // appendEnvelope(nil, rejoin, own) gives in back
	field     string
	offset    int
	cause     error
}

// Byte groups: magic | version | flags | user data length | user data.
var envelopeVectors = []envelopeVector{
	{name: "marked, with the inner assignor's user data", in: mustHex("fe46524a | 0000 | 0001 | 00000002 6162"), own: []byte("ab"), rejoin: true, canonical: true},
	{name: "marked, inner user data null", in: mustHex("fe46524a | 0000 | 0001 | ffffffff"), rejoin: true, canonical: true},
	{name: "marked, inner user data empty (not null)", in: mustHex("fe46524a | 0000 | 0001 | 00000000"), own: []byte{}, rejoin: true, canonical: true},
	{name: "no magic: the inner assignor's bytes as they are (sticky user data)", in: mustHex("00000001 | 0001 61 | 00000001 00000000 | 00000007"), own: mustHex("00000001 0001 61 00000001 00000000 00000007"), canonical: true},
	{name: "no magic: Java's 4-byte cooperative user data", in: mustHex("00000005"), own: mustHex("00000005"), canonical: true},
	{name: "no magic: empty user data stays empty", in: []byte{}, own: []byte{}},
	{name: "no magic: null user data stays null", in: nil, canonical: true},
	{name: "a prefix of the magic is not the magic", in: mustHex("fe4652"), own: mustHex("fe4652"), canonical: true},
	{name: "unmarked inner bytes that begin with the magic are framed, so they read back as themselves", in: mustHex("fe46524a | 0000 | 0000 | 00000005 fe46524a00"), own: mustHex("fe46524a00"), canonical: true},
	{name: "reserved flag bits are ignored", in: mustHex("fe46524a | 0000 | fffe | 00000001 07"), own: []byte{7}},
	{name: "a later version decodes as its version-0 prefix, trailing fields ignored", in: mustHex("fe46524a | 0003 | 0001 | 00000001 07 | 00112233"), own: []byte{7}, rejoin: true},
	{name: "magic alone: version truncated", in: mustHex("fe46524a"), field: "version", offset: 4, cause: wire.ErrTruncated},
	{name: "negative version is unsupported", in: mustHex("fe46524a | ffff | 0001 | ffffffff"), field: "version", offset: 4, cause: wire.ErrUnsupportedVersion},
	{name: "flags truncated", in: mustHex("fe46524a | 0000 | 00"), field: "flags", offset: 6, cause: wire.ErrTruncated},
	{name: "user data length missing", in: mustHex("fe46524a | 0000 | 0001"), field: "user_data", offset: 8, cause: wire.ErrTruncated},
	{name: "user data length beyond the input (a length bomb)", in: mustHex("fe46524a | 0000 | 0001 | 7fffffff 00"), field: "user_data", offset: 8, cause: wire.ErrTruncated},
	{name: "user data length below -1", in: mustHex("fe46524a | 0000 | 0001 | fffffffe"), field: "user_data", offset: 8, cause: wire.ErrNegativeLength},
}

// TestReadUserData pins the envelope's layout as members read it: marked
// or not, nil and empty apart, later versions read as their prefix, and
// what is not a whole envelope handed on as it is, with an error naming the
// field.
func TestReadUserData(t *testing.T) {
	for _, tt := range envelopeVectors {
		t.Run(tt.name, func(t *testing.T) {
			own, rejoin, err := ReadUserData(tt.in)
			if tt.cause != nil {
				var de *wire.DecodeError
				if !errors.Is(err, ErrEnvelope) || !errors.Is(err, tt.cause) || !errors.As(err, &de) || de.Field != tt.field || de.Offset != tt.offset || de.Message != "rejoin envelope" {
					t.Fatalf("error %v, want %v at %s byte %d wrapping ErrEnvelope", err, tt.cause, tt.field, tt.offset)
				}
				if rejoin || !bytes.Equal(own, tt.in) {
					t.Errorf("on error read %q marked %v, want the input as unmarked user data", own, rejoin)
				}
				return
			}
			if err != nil || rejoin != tt.rejoin || !bytes.Equal(own, tt.own) || (own == nil) != (tt.own == nil) {
				t.Fatalf("read %q (nil %v) marked %v, %v; want %q (nil %v) marked %v", own, own == nil, rejoin, err, tt.own, tt.own == nil, tt.rejoin)
			}
			if len(tt.in) > 0 && len(own) > 0 && &own[0] == &tt.in[len(tt.in)-len(own)] {
				t.Error("the result aliases the input")
			}
		})
	}
}

// TestAppendUserData: what a leader writes a member reads back, and a
// canonical envelope is written byte for byte.
func TestAppendUserData(t *testing.T) {
	for _, tt := range envelopeVectors {
		if tt.cause != nil {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			a := Assignment{UserData: tt.own, Rejoin: tt.rejoin}
			enc := a.AppendUserData(nil)
			if tt.canonical && !bytes.Equal(enc, tt.in) {
				t.Errorf("encoded % x, want % x", enc, tt.in)
			}
			own, rejoin, err := ReadUserData(enc)
			if err != nil || rejoin != tt.rejoin || !bytes.Equal(own, tt.own) {
				t.Fatalf("round trip read %q marked %v, %v", own, rejoin, err)
			}
			if got := a.AppendUserData([]byte{1, 2, 3}); !bytes.Equal(got[:3], []byte{1, 2, 3}) || !bytes.Equal(got[3:], enc) {
				t.Errorf("AppendUserData(prefix) = % x, want the prefix then % x", got, enc)
			}
		})
	}
}

// FuzzReadUserData: any bytes read without panic, and whatever (mark, user
// data) a leader sends, a member reads back exactly, nil and empty apart;
// bytes that are not a whole envelope come back as they are.
func FuzzReadUserData(f *testing.F) {
	for _, v := range envelopeVectors {
		f.Add(v.in, true)
		f.Add(v.in, false)
	}
	f.Fuzz(func(t *testing.T, in []byte, rejoin bool) {
		own, marked, err := ReadUserData(in)
		if err != nil && (!errors.Is(err, ErrEnvelope) || marked || !bytes.Equal(own, in)) {
			t.Fatalf("on error %v read %q marked %v, want the input as unmarked user data", err, own, marked)
		}
		sent := Assignment{UserData: in, Rejoin: rejoin}
		got, gotMark, err := ReadUserData(sent.AppendUserData(nil))
		if err != nil || gotMark != rejoin || !bytes.Equal(got, in) || rejoin && (in == nil) != (got == nil) {
			t.Fatalf("sent %q marked %v, read %q marked %v, %v", in, rejoin, got, gotMark, err)
		}
	})
}
