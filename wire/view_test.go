package wire_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// checkView checks that a SubscriptionDecoder's view agrees with
// DecodeSubscription on in: the same error, or the same fields, the same
// owned entries through OwnedPartitions (with and without scratch) and
// through Materialize.
func checkView(t *testing.T, in []byte) {
	t.Helper()
	want, wantErr := wire.DecodeSubscription(in)
	v, err := new(wire.SubscriptionDecoder).Decode(in)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(errors.Unwrap(err), errors.Unwrap(wantErr)) {
		t.Fatalf("view error %v, DecodeSubscription error %v", err, wantErr)
	}
	if err != nil {
		return
	}
	if got := v.Materialize(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Materialize:\n got %#v\nwant %#v", got, want)
	}
	rest := v.Subscription
	rest.Owned = want.Owned
	if !reflect.DeepEqual(rest, want) {
		t.Fatalf("fields:\n got %#v\nwant %#v", rest, want)
	}
	if v.OwnedCount() != assignor.CountPartitions(want.Owned) {
		t.Fatalf("OwnedCount %d, want %d", v.OwnedCount(), assignor.CountPartitions(want.Owned))
	}
	for _, scratch := range [][]int32{nil, make([]int32, v.OwnedCount())} {
		var got []assignor.TopicPartitions
		for topic, ps := range v.OwnedPartitions(scratch) {
			got = append(got, assignor.TopicPartitions{Topic: topic, Partitions: ps}) // kept: never overwritten
		}
		if !reflect.DeepEqual(got, want.Owned) {
			t.Fatalf("OwnedPartitions:\n got %#v\nwant %#v", got, want.Owned)
		}
	}
}

func TestSubscriptionViewVectors(t *testing.T) {
	for _, v := range subscriptionVectors {
		checkView(t, v.in)
		for n := range len(v.in) {
			checkView(t, v.in[:n]) // every cut: the same errors
		}
	}
}

func TestSubscriptionViewStopsEarly(t *testing.T) {
	s := wire.Subscription{Version: 3, Topics: []string{"a", "b"}, Owned: []assignor.TopicPartitions{
		{Topic: "a", Partitions: []int32{0, 1}}, {Topic: "b", Partitions: []int32{2}}, {Topic: "c", Partitions: []int32{3}},
	}}
	v, err := new(wire.SubscriptionDecoder).Decode(s.AppendTo(nil))
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for topic := range v.OwnedPartitions(nil) {
		seen = append(seen, topic)
		if topic == "b" {
			break
		}
	}
	if !slices.Equal(seen, []string{"a", "b"}) {
		t.Fatalf("saw %q, want [a b]", seen)
	}
}

func TestSubscriptionViewAllocations(t *testing.T) {
	s := wire.Subscription{Version: 3, Topics: []string{"a", "b"}, Owned: []assignor.TopicPartitions{
		{Topic: "a", Partitions: []int32{0, 1, 2}}, {Topic: "b", Partitions: []int32{2}},
	}}
	v, err := new(wire.SubscriptionDecoder).Decode(s.AppendTo(nil))
	if err != nil {
		t.Fatal(err)
	}
	scratch := make([]int32, v.OwnedCount())
	n := 0
	allocs := testing.AllocsPerRun(100, func() {
		for _, ps := range v.OwnedPartitions(scratch) {
			n += len(ps)
		}
	})
	if allocs > 1 { // the iterator's closure at most
		t.Fatalf("OwnedPartitions with scratch: %v allocations, want at most 1", allocs)
	}
}

func FuzzSubscriptionView(f *testing.F) {
	for _, v := range subscriptionVectors {
		f.Add(v.in)
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkView(t, in) })
}

// checkDecoder checks that a SubscriptionDecoder decodes each of ins as
// a fresh decoder does.
func checkDecoder(t *testing.T, ins ...[]byte) {
	t.Helper()
	var d wire.SubscriptionDecoder
	for i, in := range ins {
		want, wantErr := new(wire.SubscriptionDecoder).Decode(in)
		got, err := d.Decode(in)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("input %d: error %v, want %v", i, err, wantErr)
		}
		if !reflect.DeepEqual(got.Subscription, want.Subscription) || !reflect.DeepEqual(got.Materialize(), want.Materialize()) {
			t.Fatalf("input %d:\n got %#v\nwant %#v", i, got.Materialize(), want.Materialize())
		}
	}
}

func TestSubscriptionDecoderVectors(t *testing.T) {
	var ins [][]byte
	for _, v := range subscriptionVectors {
		ins = append(ins, v.in, v.in, v.in[:len(v.in)/2])
	}
	checkDecoder(t, ins...)
}

func TestSubscriptionDecoderShares(t *testing.T) {
	topics := []string{"a", "b"}
	x := wire.Subscription{Version: 3, Topics: topics, Owned: []assignor.TopicPartitions{{Topic: "a", Partitions: []int32{0}}}, Rack: "r1"}
	y := wire.Subscription{Version: 3, Topics: topics, Owned: []assignor.TopicPartitions{{Topic: "b", Partitions: []int32{1}}}, Generation: 4}
	z := wire.Subscription{Version: 3, Topics: []string{"a", "c"}, UserData: []byte{}}
	x.UserData, y.UserData = []byte{1, 2}, []byte{1, 2}
	var d wire.SubscriptionDecoder
	var got []wire.SubscriptionView
	for _, s := range []wire.Subscription{x, y, z} {
		v, err := d.Decode(s.AppendTo(nil))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	if &got[0].Topics[0] != &got[1].Topics[0] {
		t.Error("equal topics arrays decoded into two slices, want one shared")
	}
	if &got[1].Topics[0] == &got[2].Topics[0] || !slices.Equal(got[2].Topics, z.Topics) {
		t.Errorf("other topics %q share the slice of %q", got[2].Topics, got[1].Topics)
	}
	if &got[0].UserData[0] != &got[1].UserData[0] {
		t.Error("equal user data decoded into two slices, want one shared")
	}
	if got[2].UserData == nil || len(got[2].UserData) != 0 {
		t.Errorf("empty user data decoded as %#v, want empty and non-nil", got[2].UserData)
	}
	if got[1].Rack != "" || got[1].Generation != 4 || got[0].Rack != "r1" {
		t.Errorf("fields of one subscription leak into another: %#v", got)
	}
}

func FuzzSubscriptionDecoder(f *testing.F) {
	for _, v := range subscriptionVectors {
		f.Add(v.in, v.in)
	}
	f.Fuzz(func(t *testing.T, a, b []byte) { checkDecoder(t, a, b, a, a) })
}

// TestOwnedAbsent: a subscription of version 1 or above that ends before
// its owned partitions says nothing of what the member owns; one with an
// empty list, or of version 0, says it owns nothing.
func TestOwnedAbsent(t *testing.T) {
	full := wire.Subscription{Version: 3, Topics: []string{"t"}, UserData: []byte{1}, Owned: []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{0}}}, Generation: 4, Rack: "r"}.AppendTo(nil)
	cut := len(wire.Subscription{Topics: []string{"t"}, UserData: []byte{1}}.AppendTo(nil)) // where the owned partitions start
	empty := wire.Subscription{Version: 1, Topics: []string{"t"}}.AppendTo(nil)
	v0 := wire.Subscription{Version: 0, Topics: []string{"t"}}.AppendTo(nil)
	for _, tc := range []struct {
		name   string
		in     []byte
		absent bool
	}{
		{"v3 whole", full, false},
		{"v3 cut after its user data", full[:cut], true},
		{"v3 cut after its owned partitions", full[:cut+4+2+1+4+4], false},
		{"v1 with an empty list", empty, false},
		{"v0", v0, false},
	} {
		v, err := new(wire.SubscriptionDecoder).Decode(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if v.OwnedAbsent() != tc.absent {
			t.Errorf("%s: OwnedAbsent = %v, want %v", tc.name, v.OwnedAbsent(), tc.absent)
		}
	}
}
