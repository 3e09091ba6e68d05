package wire_test

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// checkErr checks err against want: a *wire.DecodeError wrapping want.is,
// naming want.field at want.offset, its text the sentinel's and then the
// message, field and offset.
func checkErr(t *testing.T, message string, err error, want *wantErr) {
	t.Helper()
	if err == nil {
		t.Fatalf("decoded without error, want %v at %s", want.is, want.field)
	}
	if !errors.Is(err, want.is) {
		t.Errorf("error %q does not wrap %q", err, want.is)
	}
	var de *wire.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("error %q (%T) is not a *wire.DecodeError", err, err)
	}
	if de.Message != message || de.Field != want.field || de.Offset != want.offset {
		t.Errorf("error names %s %s at byte %d, want %s %s at byte %d", de.Message, de.Field, de.Offset, message, want.field, want.offset)
	}
	if want := want.is.Error() + ": " + message + " " + want.field + " at byte "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error text %q does not begin %q", err, want)
	}
}

func TestDecodeSubscription(t *testing.T) {
	for _, tt := range subscriptionVectors {
		t.Run(tt.name, func(t *testing.T) {
			got, err := wire.DecodeSubscription(tt.in)
			if tt.err != nil {
				checkErr(t, "subscription", err, tt.err)
				if !reflect.DeepEqual(got, wire.Subscription{}) {
					t.Errorf("on error returned %+v, want the zero Subscription", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decoded\n %#v\nwant\n %#v", got, tt.want)
			}
		})
	}
}

func TestSubscriptionAppendTo(t *testing.T) {
	for _, tt := range subscriptionVectors {
		if tt.err != nil {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			enc := tt.want.AppendTo(nil)
			if tt.canonical && !bytes.Equal(enc, tt.in) {
				t.Errorf("encoded\n % x\nwant\n % x", enc, tt.in)
			}
			again, err := wire.DecodeSubscription(enc)
			if err != nil {
				t.Fatalf("re-decoding: %v", err)
			}
			if !reflect.DeepEqual(again, tt.want) {
				t.Errorf("round trip gave\n %#v\nwant\n %#v", again, tt.want)
			}
		})
	}
}

func TestDecodeAssignment(t *testing.T) {
	for _, tt := range assignmentVectors {
		t.Run(tt.name, func(t *testing.T) {
			got, err := wire.DecodeAssignment(tt.in)
			if tt.err != nil {
				checkErr(t, "assignment", err, tt.err)
				return
			}
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decoded\n %#v\nwant\n %#v", got, tt.want)
			}
			enc := tt.want.AppendTo(nil)
			if tt.canonical && !bytes.Equal(enc, tt.in) {
				t.Errorf("encoded\n % x\nwant\n % x", enc, tt.in)
			}
			if again, err := wire.DecodeAssignment(enc); err != nil || !reflect.DeepEqual(again, tt.want) {
				t.Errorf("round trip gave %#v, %v", again, err)
			}
		})
	}
}

func TestDecodeStickyUserData(t *testing.T) {
	for _, tt := range stickyVectors {
		t.Run(tt.name, func(t *testing.T) {
			got, err := wire.DecodeStickyUserData(tt.in)
			if tt.err != nil {
				checkErr(t, "sticky user data", err, tt.err)
				return
			}
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decoded\n %#v\nwant\n %#v", got, tt.want)
			}
			enc := tt.want.AppendTo(nil)
			if tt.canonical && !bytes.Equal(enc, tt.in) {
				t.Errorf("encoded\n % x\nwant\n % x", enc, tt.in)
			}
			if again, err := wire.DecodeStickyUserData(enc); err != nil || !reflect.DeepEqual(again, tt.want) {
				t.Errorf("round trip gave %#v, %v", again, err)
			}
		})
	}
}

func TestCooperativeUserData(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   []byte
		want int32
		err  error
	}{
		{"4 bytes are the generation, big-endian (Java, sarama)", mustHex("00000102"), 258, nil},
		{"negative generation decodes as sent", mustHex("ffffffff"), -1, nil},
		{"nil user data is NoGeneration, no error", nil, noGen, nil},
		{"empty user data is NoGeneration, no error", []byte{}, noGen, nil},
		{"3 bytes are truncated", mustHex("000001"), noGen, wire.ErrTruncated},
		{"5 bytes are refused, not read as Java reads them (franz-go's sticky layout)", mustHex("00000001 00"), noGen, wire.ErrTrailingBytes},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := wire.DecodeCooperativeUserData(tt.in)
			if got != tt.want || !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
				t.Fatalf("got %d, %v; want %d, %v", got, err, tt.want, tt.err)
			}
			if err != nil {
				var de *wire.DecodeError
				if !errors.As(err, &de) || de.Message != "cooperative user data" || de.Field != "generation" {
					t.Errorf("error %q does not name the field", err)
				}
			}
		})
	}
	for _, g := range []int32{0, 1, 258, 1 << 30, -1, -7} {
		b := wire.CooperativeUserData(g)
		if len(b) != 4 {
			t.Fatalf("CooperativeUserData(%d) is %d bytes, want 4", g, len(b))
		}
		if got, err := wire.DecodeCooperativeUserData(b); err != nil || got != g {
			t.Errorf("round trip of generation %d gave %d, %v", g, got, err)
		}
	}
}

func TestSubscriptionAppendToOmitsHigherVersionFields(t *testing.T) {
	full := wire.Subscription{
		Topics:     []string{"t"},
		UserData:   []byte{1},
		Owned:      tps("t", []int32{0}),
		Generation: 3,
		Rack:       "r",
	}
	for v := int16(0); v <= 3; v++ {
		full.Version = v
		got, err := wire.DecodeSubscription(full.AppendTo(nil))
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		want := wire.Subscription{Version: v, Topics: full.Topics, UserData: full.UserData, Generation: noGen}
		if v >= 1 {
			want.Owned = full.Owned
		}
		if v >= 2 {
			want.Generation = full.Generation
		}
		if v >= 3 {
			want.Rack = full.Rack
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("v%d decoded %#v, want %#v", v, got, want)
		}
	}
}

func TestAppendToKeepsPrefix(t *testing.T) {
	prefix := []byte("prefix")
	s := wire.Subscription{Version: 3, Topics: []string{"t"}, Owned: tps("t", []int32{1}), Generation: 2, Rack: "r"}
	a := wire.Assignment{Partitions: tps("t", []int32{1, 2})}
	u := wire.StickyUserData{Owned: tps("t", []int32{1}), Generation: 2}
	for name, enc := range map[string]func([]byte) []byte{
		"subscription": s.AppendTo, "assignment": a.AppendTo, "sticky": u.AppendTo,
	} {
		alone := enc(nil)
		got := enc(bytes.Clone(prefix))
		if !bytes.Equal(got, append(bytes.Clone(prefix), alone...)) {
			t.Errorf("%s: AppendTo(prefix) = % x, want prefix then % x", name, got, alone)
		}
	}
}

func TestSubscriptionMember(t *testing.T) {
	s := wire.Subscription{
		Version:    3,
		Topics:     []string{"a", "b"},
		UserData:   []byte{9},
		Owned:      tps("a", []int32{0, 1}, "b", []int32{2}),
		Generation: 7,
		Rack:       "r1",
	}
	m := s.Member("m1", "i1")
	want := assignor.Member{ID: "m1", InstanceID: "i1", Rack: "r1", Topics: []string{"a", "b"},
		Owned: tps("a", []int32{0, 1}, "b", []int32{2}), Generation: 7, UserData: []byte{9}}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("Member = %#v, want %#v", m, want)
	}

	// The member aliases the subscription (it is the caller's to give
	// away): no copy of the lists is made.
	if &m.Topics[0] != &s.Topics[0] || &m.UserData[0] != &s.UserData[0] ||
		&m.Owned[0] != &s.Owned[0] || &m.Owned[0].Partitions[0] != &s.Owned[0].Partitions[0] {
		t.Errorf("Member copied the subscription's lists; it should share them")
	}

	for v := int16(0); v < 2; v++ {
		s.Version = v
		if g := s.Member("m1", "").Generation; g != assignor.NoGeneration {
			t.Errorf("v%d member has generation %d, want NoGeneration (no generation below v2)", v, g)
		}
	}
}

func TestDecodedPartitionsDoNotOverlap(t *testing.T) {
	// The decoded partition slices share one array; appending to one must
	// not write into the next.
	a, err := wire.DecodeAssignment(wire.Assignment{Partitions: tps("a", []int32{0, 1}, "b", []int32{2, 3})}.AppendTo(nil))
	if err != nil {
		t.Fatal(err)
	}
	_ = append(a.Partitions[0].Partitions, 42)
	if got := a.Partitions[1].Partitions; !reflect.DeepEqual(got, []int32{2, 3}) {
		t.Fatalf("append to topic a overwrote topic b: %v", got)
	}
}

func TestDecodeDoesNotAliasInput(t *testing.T) {
	in := wire.Subscription{Version: 3, Topics: []string{"t"}, UserData: []byte{1, 2},
		Owned: tps("t", []int32{5}), Generation: 1, Rack: "r"}.AppendTo(nil)
	s, err := wire.DecodeSubscription(in)
	if err != nil {
		t.Fatal(err)
	}
	before := bytes.Clone(in)
	s.UserData[0] = 0xff
	s.Owned[0].Partitions[0] = -5
	if !bytes.Equal(in, before) {
		t.Fatal("writing to the decoded subscription changed the input")
	}
	for i := range in {
		in[i] = 0
	}
	if s.Topics[0] != "t" || s.Rack != "r" || s.Owned[0].Topic != "t" {
		t.Fatalf("clearing the input changed the decoded strings: %#v", s)
	}
}

func TestValidate(t *testing.T) {
	long := strings.Repeat("x", 1<<15)
	for _, tt := range []struct {
		name   string
		err    error
		is     error
		fields []string
	}{
		{"a valid subscription passes", wire.Subscription{Version: 3, Topics: []string{"t"}, Rack: "r"}.Validate(), nil, nil},
		{"a negative version is unsupported", wire.Subscription{Version: -1}.Validate(), wire.ErrUnsupportedVersion, []string{"version"}},
		{"every over-long string is named", wire.Subscription{Version: 3, Topics: []string{"t", long},
			Owned: tps(long, []int32{0}), Rack: long}.Validate(), wire.ErrTooLong,
			[]string{"topics[1]", "owned_partitions[0].topic", "rack_id"}},
		{"fields above the version are not checked", wire.Subscription{Version: 0, Owned: tps(long, []int32(nil)), Rack: long}.Validate(), nil, nil},
		{"assignment topic too long", wire.Assignment{Partitions: tps("a", []int32(nil), long, []int32(nil))}.Validate(), wire.ErrTooLong, []string{"assigned_partitions[1].topic"}},
		{"assignment negative version", wire.Assignment{Version: -2}.Validate(), wire.ErrUnsupportedVersion, []string{"version"}},
		{"sticky topic too long", wire.StickyUserData{Owned: tps(long, []int32(nil))}.Validate(), wire.ErrTooLong, []string{"previous_assignment[0].topic"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.is == nil {
				if tt.err != nil {
					t.Fatalf("Validate: %v", tt.err)
				}
				return
			}
			if !errors.Is(tt.err, tt.is) {
				t.Fatalf("Validate = %v, want %v", tt.err, tt.is)
			}
			for _, f := range tt.fields {
				lines := strings.Split(tt.err.Error(), "\n")
				if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, tt.is.Error()+": ") && strings.HasSuffix(l, " "+f) }) {
					t.Errorf("Validate = %q does not name %s", tt.err, f)
				}
			}
			var ee *wire.EncodeError
			if !errors.As(tt.err, &ee) || !strings.HasPrefix(tt.err.Error(), "wire: ") {
				t.Errorf("Validate = %q, want *wire.EncodeError with the wire prefix", tt.err)
			}
		})
	}
}

func TestAppendToClipsOverlongStrings(t *testing.T) {
	long := strings.Repeat("x", 1<<15+3)
	s := wire.Subscription{Version: 3, Topics: []string{long}, Rack: long}
	got, err := wire.DecodeSubscription(s.AppendTo(nil))
	if err != nil {
		t.Fatalf("an over-long string made undecodable output: %v", err)
	}
	if len(got.Topics[0]) != 1<<15-1 || len(got.Rack) != 1<<15-1 {
		t.Fatalf("decoded lengths %d and %d, want both cut to 32767", len(got.Topics[0]), len(got.Rack))
	}
}
