package wire_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/kgroup/assignor/wire"
)

type envelopeVector struct {
	name      string
	in        []byte
	want      wire.RejoinEnvelope
	canonical bool // want.AppendTo(nil) gives in back
	err       *wantErr
}

// Byte groups: magic | version | flags | user data length | user data.
var envelopeVectors = []envelopeVector{
	{
		name:      "marked, with the inner assignor's user data",
		in:        mustHex("fe46524a | 0000 | 0001 | 00000002 6162"),
		want:      wire.RejoinEnvelope{Rejoin: true, UserData: []byte("ab")},
		canonical: true,
	},
	{
		name:      "marked, inner user data null",
		in:        mustHex("fe46524a | 0000 | 0001 | ffffffff"),
		want:      wire.RejoinEnvelope{Rejoin: true},
		canonical: true,
	},
	{
		name:      "marked, inner user data empty (not null)",
		in:        mustHex("fe46524a | 0000 | 0001 | 00000000"),
		want:      wire.RejoinEnvelope{Rejoin: true, UserData: []byte{}},
		canonical: true,
	},
	{
		name:      "no magic: the inner assignor's bytes as they are (sticky user data)",
		in:        mustHex("00000001 | 0001 61 | 00000001 00000000 | 00000007"),
		want:      wire.RejoinEnvelope{UserData: mustHex("00000001 0001 61 00000001 00000000 00000007")},
		canonical: true,
	},
	{
		name:      "no magic: Java's 4-byte cooperative user data",
		in:        mustHex("00000005"),
		want:      wire.RejoinEnvelope{UserData: mustHex("00000005")},
		canonical: true,
	},
	{
		name:      "no magic: empty user data stays empty",
		in:        []byte{},
		want:      wire.RejoinEnvelope{UserData: []byte{}},
		canonical: true,
	},
	{
		name:      "no magic: null user data stays null",
		in:        nil,
		want:      wire.RejoinEnvelope{},
		canonical: true,
	},
	{
		name:      "a prefix of the magic is not the magic",
		in:        mustHex("fe4652"),
		want:      wire.RejoinEnvelope{UserData: mustHex("fe4652")},
		canonical: true,
	},
	{
		name:      "unmarked inner bytes that begin with the magic are framed, so they read back as themselves",
		in:        mustHex("fe46524a | 0000 | 0000 | 00000005 fe46524a00"),
		want:      wire.RejoinEnvelope{UserData: mustHex("fe46524a00")},
		canonical: true,
	},
	{
		name: "reserved flag bits are ignored",
		in:   mustHex("fe46524a | 0000 | fffe | 00000001 07"),
		want: wire.RejoinEnvelope{UserData: []byte{7}},
	},
	{
		name: "a later version decodes as its version-0 prefix, trailing fields ignored",
		in:   mustHex("fe46524a | 0003 | 0001 | 00000001 07 | 00112233"),
		want: wire.RejoinEnvelope{Rejoin: true, UserData: []byte{7}},
	},
	{
		name: "magic alone: version truncated",
		in:   mustHex("fe46524a"),
		err:  &wantErr{wire.ErrTruncated, "version", 4},
	},
	{
		name: "negative version is unsupported",
		in:   mustHex("fe46524a | ffff | 0001 | ffffffff"),
		err:  &wantErr{wire.ErrUnsupportedVersion, "version", 4},
	},
	{
		name: "flags truncated",
		in:   mustHex("fe46524a | 0000 | 00"),
		err:  &wantErr{wire.ErrTruncated, "flags", 6},
	},
	{
		name: "user data length missing",
		in:   mustHex("fe46524a | 0000 | 0001"),
		err:  &wantErr{wire.ErrTruncated, "user_data", 8},
	},
	{
		name: "user data length beyond the input (a length bomb)",
		in:   mustHex("fe46524a | 0000 | 0001 | 7fffffff 00"),
		err:  &wantErr{wire.ErrTruncated, "user_data", 8},
	},
	{
		name: "user data length below -1",
		in:   mustHex("fe46524a | 0000 | 0001 | fffffffe"),
		err:  &wantErr{wire.ErrNegativeLength, "user_data", 8},
	},
}

func TestDecodeRejoinEnvelope(t *testing.T) {
	for _, tt := range envelopeVectors {
		t.Run(tt.name, func(t *testing.T) {
			got, err := wire.DecodeRejoinEnvelope(tt.in)
			if tt.err != nil {
				checkErr(t, "rejoin envelope", err, tt.err)
				// What is not a whole envelope is the inner's, as is.
				if got.Rejoin || !bytes.Equal(got.UserData, tt.in) {
					t.Errorf("on error returned %+v, want the input as unmarked user data", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decoded\n %#v\nwant\n %#v", got, tt.want)
			}
			if len(tt.in) > 0 && len(got.UserData) > 0 && &got.UserData[0] == &tt.in[len(tt.in)-len(got.UserData)] {
				t.Error("the result aliases the input")
			}
		})
	}
}

func TestRejoinEnvelopeAppendTo(t *testing.T) {
	for _, tt := range envelopeVectors {
		if tt.err != nil {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			enc := tt.want.AppendTo(nil)
			if tt.canonical && (!bytes.Equal(enc, tt.in) || (enc == nil) != (tt.in == nil)) {
				t.Errorf("encoded\n % x (nil %v)\nwant\n % x (nil %v)", enc, enc == nil, tt.in, tt.in == nil)
			}
			again, err := wire.DecodeRejoinEnvelope(enc)
			if err != nil {
				t.Fatalf("re-decoding: %v", err)
			}
			if !reflect.DeepEqual(again, tt.want) {
				t.Errorf("round trip gave\n %#v\nwant\n %#v", again, tt.want)
			}
			// Appending to a buffer appends the same bytes.
			prefix := []byte{1, 2, 3}
			if got := tt.want.AppendTo(prefix); !bytes.Equal(got[:3], prefix) || !bytes.Equal(got[3:], enc) {
				t.Errorf("AppendTo(prefix) = % x, want prefix then % x", got, enc)
			}
		})
	}
}
