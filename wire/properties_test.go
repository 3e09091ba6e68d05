package wire_test

import (
	"bytes"
	"reflect"
	"runtime"
	"testing"

	"pgregory.net/rapid"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

func genTopic(t *rapid.T, label string) string {
	return rapid.StringOfN(rapid.RuneFrom([]rune("abct.-_é")), 0, 6, -1).Draw(t, label)
}

func genUserData(t *rapid.T) []byte {
	if rapid.Bool().Draw(t, "nullUserData") {
		return nil
	}
	return rapid.SliceOfN(rapid.Byte(), 0, 8).Draw(t, "userData")
}

func genTopicPartitions(t *rapid.T, label string) []assignor.TopicPartitions {
	n := rapid.IntRange(0, 4).Draw(t, label+"Len")
	var out []assignor.TopicPartitions
	for i := range n {
		_ = i
		out = append(out, assignor.TopicPartitions{
			Topic:      genTopic(t, label+"Topic"),
			Partitions: rapid.SliceOfN(rapid.Int32(), 0, 5).Draw(t, label+"Partitions"),
		})
	}
	return out
}

// canonTP is what a decoder returns for tps: nil for no entries, nil
// partitions for none.
func canonTP(tps []assignor.TopicPartitions) []assignor.TopicPartitions {
	if len(tps) == 0 {
		return nil
	}
	out := assignor.CloneTopicPartitions(tps)
	for i := range out {
		if len(out[i].Partitions) == 0 {
			out[i].Partitions = nil
		}
	}
	return out
}

func canonStrings(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	return ss
}

// TestSubscriptionRoundTrip: decoding what AppendTo wrote gives the
// subscription back, minus the fields its version does not carry.
func TestSubscriptionRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := wire.Subscription{
			Version:    int16(rapid.IntRange(0, 5).Draw(t, "version")),
			Topics:     rapid.SliceOfN(rapid.Custom(func(t *rapid.T) string { return genTopic(t, "topic") }), 0, 5).Draw(t, "topics"),
			UserData:   genUserData(t),
			Owned:      genTopicPartitions(t, "owned"),
			Generation: rapid.Int32().Draw(t, "generation"),
			Rack:       genTopic(t, "rack"),
		}
		enc := s.AppendTo(nil)
		got, err := wire.DecodeSubscription(enc)
		if err != nil {
			t.Fatalf("decoding % x: %v", enc, err)
		}
		want := wire.Subscription{Version: s.Version, Topics: canonStrings(s.Topics), UserData: s.UserData, Generation: assignor.NoGeneration}
		if s.Version >= 1 {
			want.Owned = canonTP(s.Owned)
		}
		if s.Version >= 2 {
			want.Generation = s.Generation
		}
		if s.Version >= 3 {
			want.Rack = s.Rack
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round trip gave\n %#v\nwant\n %#v", got, want)
		}
		if again := got.AppendTo(nil); !bytes.Equal(again, enc) {
			t.Fatalf("re-encoding differs:\n % x\n % x", again, enc)
		}
	})
}

func TestAssignmentRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := wire.Assignment{
			Version:    int16(rapid.IntRange(0, 5).Draw(t, "version")),
			Partitions: genTopicPartitions(t, "assigned"),
			UserData:   genUserData(t),
		}
		enc := a.AppendTo(nil)
		got, err := wire.DecodeAssignment(enc)
		if err != nil {
			t.Fatalf("decoding % x: %v", enc, err)
		}
		want := wire.Assignment{Version: a.Version, Partitions: canonTP(a.Partitions), UserData: a.UserData}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round trip gave\n %#v\nwant\n %#v", got, want)
		}
	})
}

func TestStickyUserDataRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := wire.StickyUserData{Owned: genTopicPartitions(t, "owned"), Generation: rapid.Int32().Draw(t, "generation")}
		got, err := wire.DecodeStickyUserData(u.AppendTo(nil))
		if err != nil {
			t.Fatal(err)
		}
		want := wire.StickyUserData{Owned: canonTP(u.Owned), Generation: u.Generation}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round trip gave\n %#v\nwant\n %#v", got, want)
		}
	})
}

// TestTruncationNeverPanics: every prefix of a valid encoding either decodes
// (the tolerated absent fields) or fails with a *DecodeError.
func TestTruncationNeverPanics(t *testing.T) {
	s := wire.Subscription{Version: 3, Topics: []string{"a", "b"}, UserData: []byte{1},
		Owned: tps("a", []int32{0, 1}), Generation: 2, Rack: "r"}.AppendTo(nil)
	a := wire.Assignment{Partitions: tps("a", []int32{0, 1}), UserData: []byte{1}}.AppendTo(nil)
	u := wire.StickyUserData{Owned: tps("a", []int32{0, 1}), Generation: 2}.AppendTo(nil)
	for name, tc := range map[string]struct {
		enc    []byte
		decode func([]byte) error
	}{
		"subscription": {s, func(b []byte) error { _, err := wire.DecodeSubscription(b); return err }},
		"assignment":   {a, func(b []byte) error { _, err := wire.DecodeAssignment(b); return err }},
		"sticky":       {u, func(b []byte) error { _, err := wire.DecodeStickyUserData(b); return err }},
	} {
		decoded := 0
		for n := range len(tc.enc) + 1 {
			if err := tc.decode(tc.enc[:n]); err == nil {
				decoded++
			}
		}
		if decoded == 0 {
			t.Errorf("%s: no prefix decoded, not even the whole encoding", name)
		}
	}
}

// allocated returns the bytes f allocates, averaged over runs.
func allocated(f func()) float64 {
	const runs = 20
	f()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / runs
}

// TestDecodeAllocationIsBounded: a forged count never makes a decoder
// allocate more than the input describes. Bombs fail with almost no
// allocation, and valid inputs dense in tiny elements allocate at most a
// small multiple of their size.
func TestDecodeAllocationIsBounded(t *testing.T) {
	decoders := map[string]func([]byte){
		"subscription": func(b []byte) { _, _ = wire.DecodeSubscription(b) },
		"assignment":   func(b []byte) { _, _ = wire.DecodeAssignment(b) },
		"sticky":       func(b []byte) { _, _ = wire.DecodeStickyUserData(b) },
	}
	var bombs [][]byte
	for _, v := range subscriptionVectors {
		bombs = append(bombs, v.in)
	}
	for _, v := range assignmentVectors {
		bombs = append(bombs, v.in)
	}
	for _, v := range stickyVectors {
		bombs = append(bombs, v.in)
	}
	for _, b := range bombs {
		for name, decode := range decoders {
			if got := allocated(func() { decode(b) }); got > 1024 {
				t.Errorf("%s of a %d-byte input allocated %.0f bytes", name, len(b), got)
			}
		}
	}

	// 10,000 owned entries with an empty topic and no partitions: 6 bytes
	// each on the wire, the densest input there is.
	dense := make([]assignor.TopicPartitions, 10000)
	for _, b := range [][]byte{
		wire.Subscription{Version: 1, Topics: make([]string, 10000), Owned: dense}.AppendTo(nil),
		wire.Assignment{Partitions: dense}.AppendTo(nil),
		wire.StickyUserData{Owned: dense}.AppendTo(nil),
	} {
		for name, decode := range decoders {
			if got := allocated(func() { decode(b) }); got > 8*float64(len(b))+1024 {
				t.Errorf("%s of a %d-byte input allocated %.0f bytes, more than 8 per input byte", name, len(b), got)
			}
		}
	}
}

// TestAllocationCounts: decoding allocates a fixed number of times whatever
// the size; encoding allocates once, or never into a large enough buffer.
func TestAllocationCounts(t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("allocation counts differ under -cover and -race")
	}
	sub := func(n int) wire.Subscription {
		s := wire.Subscription{Version: 3, UserData: []byte{1}, Generation: 1, Rack: "r"}
		for i := range n {
			topic := string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
			s.Topics = append(s.Topics, topic)
			s.Owned = append(s.Owned, assignor.TopicPartitions{Topic: topic, Partitions: []int32{int32(i), int32(i + 1)}})
		}
		return s
	}
	small, large := sub(10).AppendTo(nil), sub(1000).AppendTo(nil)
	decode := func(b []byte) float64 {
		return testing.AllocsPerRun(10, func() { _, _ = wire.DecodeSubscription(b) })
	}
	if s, l := decode(small), decode(large); s != l {
		t.Errorf("decoding 10 topics allocates %v times, 1000 topics %v times; want a constant", s, l)
	}
	s := sub(1000)
	buf := make([]byte, 0, len(large))
	if n := testing.AllocsPerRun(10, func() { buf = s.AppendTo(buf[:0]) }); n != 0 {
		t.Errorf("AppendTo into a large enough buffer allocated %v times", n)
	}
	if n := testing.AllocsPerRun(10, func() { _ = s.AppendTo(nil) }); n != 1 {
		t.Errorf("AppendTo(nil) allocated %v times, want 1", n)
	}
	a := wire.Assignment{Partitions: s.Owned, UserData: []byte{1}}
	if n := testing.AllocsPerRun(10, func() { _ = a.AppendTo(nil) }); n != 1 {
		t.Errorf("Assignment.AppendTo(nil) allocated %v times, want 1", n)
	}
}
