package kgoassignor

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/wire"
)

func TestNewRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    assignor.Assignor
		want error
	}{
		{"nil assignor", nil, ErrNilAssignor},
		{"empty name: kgo would advertise an empty protocol", &recorder{}, ErrNoName},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := New(tc.a, Config{})
			if !errors.Is(err, tc.want) || b != nil {
				t.Fatalf("New = %v, %v; want nil, %v", b, err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "kgoassignor: ") {
				t.Errorf("error %q does not name the package", err)
			}
		})
	}
}

func TestProtocol(t *testing.T) {
	for _, tc := range []struct {
		name        string
		a           assignor.Assignor
		wantName    string
		cooperative bool
	}{
		{"our cooperative-sticky, kgo's built-in name", cooperative.Wrap(sticky.New()), "cooperative-sticky", true},
		{"eager sticky", sticky.New(), "sticky", false},
		{"any eager assignor made cooperative", cooperative.Wrap(roundrobin.New()), "cooperative-roundrobin", true},
		{"no declared protocols is eager", &recorder{name: "custom"}, "custom", false},
		{"cooperative declared second still counts (Java picks the highest common)", &recorder{name: "c", protocols: []assignor.Protocol{assignor.Eager, assignor.Cooperative}}, "c", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := New(tc.a, Config{})
			if err != nil {
				t.Fatal(err)
			}
			if b.ProtocolName() != tc.wantName || b.IsCooperative() != tc.cooperative {
				t.Fatalf("ProtocolName, IsCooperative = %q, %v; want %q, %v", b.ProtocolName(), b.IsCooperative(), tc.wantName, tc.cooperative)
			}
			if b.Assignor() != tc.a {
				t.Fatal("Assignor() is not the assignor given")
			}
		})
	}
	if b := CooperativeSticky(); b.ProtocolName() != "cooperative-sticky" || !b.IsCooperative() {
		t.Fatalf("CooperativeSticky() = %q, cooperative %v", b.ProtocolName(), b.IsCooperative())
	}
}

// hooked is an assignor with both member-side hooks: its subscription user
// data renders the state it was given (or fails), and it records every
// assignment it observes.
type hooked struct {
	recorder
	failUserData bool

	hookMu   sync.Mutex
	states   []assignor.MemberState
	observed []string
}

func (h *hooked) SubscriptionUserData(st assignor.MemberState) ([]byte, error) {
	h.hookMu.Lock()
	h.states = append(h.states, st)
	h.hookMu.Unlock()
	if h.failUserData {
		return nil, errors.New("hook failed")
	}
	return fmt.Appendf(nil, "%v|%s|%d", st.Topics, assignor.FormatTopicPartitions(st.Owned), st.Generation), nil
}

func (h *hooked) OnAssignment(assigned []assignor.TopicPartitions, userData []byte, generation int32) {
	h.hookMu.Lock()
	defer h.hookMu.Unlock()
	h.observed = append(h.observed, fmt.Sprintf("g%d %s ud=%q", generation, assignor.FormatTopicPartitions(assigned), userData))
}

func TestJoinGroupMetadata(t *testing.T) {
	for _, tc := range []struct {
		name       string
		a          assignor.Assignor
		topics     []string
		current    map[string][]int32
		generation int32
		want       wire.Subscription
	}{
		{
			name: "first join: no owned partitions, generation -1, the wrapper's 4-byte user data",
			a:    cooperative.Wrap(sticky.New()), topics: []string{"t"}, generation: -1,
			want: wire.Subscription{Version: 3, Topics: []string{"t"}, UserData: wire.CooperativeUserData(-1), Generation: -1},
		},
		{
			name: "owned partitions sorted by topic and partition (KAFKA-12898), empty topics left out",
			a:    cooperative.Wrap(sticky.New()), topics: []string{"b", "a"},
			current:    map[string][]int32{"b": {3, 1}, "a": {2}, "c": {}},
			generation: 7,
			want: wire.Subscription{Version: 3, Topics: []string{"a", "b"}, UserData: wire.CooperativeUserData(7),
				Owned: tps("a", []int32{2}, "b", []int32{1, 3}), Generation: 7},
		},
		{
			name: "eager sticky sends its own history layout and the owned partitions too",
			a:    sticky.New(), topics: []string{"t"}, current: map[string][]int32{"t": {0}}, generation: 3,
			want: wire.Subscription{Version: 3, Topics: []string{"t"},
				UserData: wire.StickyUserData{Owned: tps("t", []int32{0}), Generation: 3}.AppendTo(nil),
				Owned:    tps("t", []int32{0}), Generation: 3},
		},
		{
			name: "no hook: null user data",
			a:    &recorder{name: "plain"}, topics: []string{"t"}, generation: 2,
			want: wire.Subscription{Version: 3, Topics: []string{"t"}, Generation: 2},
		},
		{
			name: "failing hook: null user data, logged",
			a:    &hooked{recorder: recorder{name: "h"}, failUserData: true}, topics: []string{"t"}, generation: 2,
			want: wire.Subscription{Version: 3, Topics: []string{"t"}, Generation: 2},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l logs
			b, err := New(tc.a, Config{Logger: l.logger()})
			if err != nil {
				t.Fatal(err)
			}
			meta := b.JoinGroupMetadata(tc.topics, tc.current, tc.generation)
			got, err := wire.DecodeSubscription(meta)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("subscription\n got %#v\nwant %#v", got, tc.want)
			}
			if again := b.JoinGroupMetadata(tc.topics, tc.current, tc.generation); string(again) != string(meta) {
				t.Fatal("the same state gave different bytes (the broker would see a changed subscription)")
			}
			if h, ok := tc.a.(*hooked); ok && h.failUserData && l.count("subscription user data failed; sending none\" adapter=kgoassignor assignor=h generation=2 error=\"hook failed\"") != 2 {
				t.Fatalf("hook failures not logged: %q", l.all())
			}
		})
	}
}

func TestJoinGroupMetadataHookState(t *testing.T) {
	h := &hooked{recorder: recorder{name: "h"}}
	b, _ := New(h, Config{})
	current := map[string][]int32{"t": {2, 0}}
	meta := b.JoinGroupMetadata([]string{"u", "t"}, current, 5)
	want := assignor.MemberState{Topics: []string{"t", "u"}, Owned: tps("t", []int32{0, 2}), Generation: 5}
	if len(h.states) != 1 || !reflect.DeepEqual(h.states[0], want) {
		t.Fatalf("hook state = %#v, want %#v", h.states, want)
	}
	h.states[0].Owned[0].Partitions[0] = 99 // the hook may keep and modify what it got
	if !slices.Equal(current["t"], []int32{2, 0}) {
		t.Fatal("the hook's state aliases kgo's map")
	}
	sub, _ := wire.DecodeSubscription(meta)
	if string(sub.UserData) != "[t u]|t[0 2]|5" {
		t.Fatalf("user data = %q", sub.UserData)
	}
}

func TestParseSyncAssignment(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      []byte
		want    map[string][]int32
		wantErr bool
		observe string
	}{
		{"empty bytes: what the broker sends a member the plan left out", nil, map[string][]int32{}, false, `g-1  ud=""`},
		{"v3 with user data", wire.Assignment{Version: 3, Partitions: tps("a", []int32{0, 2}, "b", []int32{1}), UserData: []byte("x")}.AppendTo(nil),
			map[string][]int32{"a": {0, 2}, "b": {1}}, false, `g-1 a[0 2] b[1] ud="x"`},
		{"v0 as kgo's and sarama's leaders write it", wire.Assignment{Partitions: tps("a", []int32{1})}.AppendTo(nil),
			map[string][]int32{"a": {1}}, false, `g-1 a[1] ud=""`},
		{"unsorted, duplicate topics and partitions are merged", wire.Assignment{Partitions: tps("b", []int32{3, 1, 3}, "a", []int32{0}, "b", []int32{2}, "c", []int32(nil))}.AppendTo(nil),
			map[string][]int32{"a": {0}, "b": {1, 2, 3}}, false, `g-1 a[0] b[1 2 3] ud=""`},
		{"trailing bytes of a newer version are ignored", append(wire.Assignment{Partitions: tps("a", []int32{1})}.AppendTo(nil), 9, 9, 9),
			map[string][]int32{"a": {1}}, false, `g-1 a[1] ud=""`},
		{"truncated inside the partitions: an error", wire.Assignment{Partitions: tps("a", []int32{1, 2})}.AppendTo(nil)[:12], nil, true, ""},
		{"a one-byte assignment: an error", []byte{0}, nil, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &hooked{recorder: recorder{name: "h"}}
			b, _ := New(h, Config{})
			got, err := b.ParseSyncAssignment(tc.in)
			if tc.wantErr {
				var de *wire.DecodeError
				if !errors.As(err, &de) || !strings.HasPrefix(err.Error(), "kgoassignor: h: ") {
					t.Fatalf("error = %v, want a *wire.DecodeError prefixed with the package and protocol", err)
				}
				if len(h.observed) != 0 {
					t.Fatalf("a failed parse was observed: %q", h.observed)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ParseSyncAssignment = %v, %v; want %v", got, err, tc.want)
			}
			if len(h.observed) != 1 || h.observed[0] != tc.observe {
				t.Fatalf("observed %q, want %q (no client bound: no generation)", h.observed, tc.observe)
			}
		})
	}
}
