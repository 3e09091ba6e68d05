package kgoassignor

// Wire compatibility with kgo's own codec (kmsg) and balancers, and with
// the layouts Java and sarama members send (encoded with our codec, whose
// bytes adapters/saramaassignor's tests compare with sarama's own).

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/rebalance"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/wire"
)

type memberState struct {
	name    string
	topics  []string
	current map[string][]int32
	gen     int32
}

func memberStates() []memberState {
	return []memberState{
		{"first join", []string{"t"}, nil, -1},
		{"owns partitions of two topics", []string{"t", "u"}, map[string][]int32{"u": {4}, "t": {0, 2}}, 7},
		{"owns nothing, subscribed to three", []string{"a", "b", "c"}, map[string][]int32{}, 12},
	}
}

// kgo reads our JoinGroup metadata with kmsg, and writes it back byte for
// byte: what it does to add the client's rack changes nothing else.
func TestJoinGroupMetadataThroughKmsg(t *testing.T) {
	for _, a := range []assignor.Assignor{CooperativeSticky().Assignor(), sticky.New(), &recorder{name: "plain"}} {
		b, _ := New(a, Config{})
		for _, st := range memberStates() {
			t.Run(a.Name()+"/"+st.name, func(t *testing.T) {
				ours := b.JoinGroupMetadata(st.topics, st.current, st.gen)
				var meta kmsg.ConsumerMemberMetadata
				if err := meta.ReadFrom(ours); err != nil {
					t.Fatalf("kmsg cannot read our metadata: %v", err)
				}
				if again := meta.AppendTo(nil); !bytes.Equal(again, ours) {
					t.Fatalf("kmsg re-encodes differently:\n ours % x\n kmsg % x", ours, again)
				}
				if meta.Version != 3 || meta.Generation != st.gen || meta.Rack != nil || !reflect.DeepEqual(meta.Topics, st.topics) {
					t.Fatalf("kmsg read version %d, generation %d, rack %v, topics %q", meta.Version, meta.Generation, meta.Rack, meta.Topics)
				}
				if got := fromKmsgOwned(meta.OwnedPartitions); !reflect.DeepEqual(got, assignor.TopicPartitionsFromMap(st.current)) {
					t.Fatalf("kmsg read owned %v, want %v", got, assignor.TopicPartitionsFromMap(st.current))
				}
			})
		}
	}
}

// withKgoRack does to JoinGroup metadata what kgo's joinGroupProtocols does
// for a client with kgo.Rack (franz-go v1.22.3, consumer_group.go).
func withKgoRack(t *testing.T, metadata []byte, rack string) []byte {
	t.Helper()
	var meta kmsg.ConsumerMemberMetadata
	if err := meta.ReadFrom(metadata); err != nil || meta.Rack != nil {
		t.Fatalf("kgo would not add its rack: %v, rack %v", err, meta.Rack)
	}
	meta.Rack = &rack
	if meta.Version < 3 {
		meta.Version = 3
	}
	return meta.AppendTo(nil)
}

func TestRackAddedByKgoSurvives(t *testing.T) {
	b := CooperativeSticky()
	for _, st := range memberStates() {
		t.Run(st.name, func(t *testing.T) {
			plain := b.JoinGroupMetadata(st.topics, st.current, st.gen)
			racked := withKgoRack(t, plain, "use1-az1")
			before, _ := decodeFull(b, &kmsg.JoinGroupResponseMember{MemberID: "m", ProtocolMetadata: plain})
			after, ok := decodeFull(b, &kmsg.JoinGroupResponseMember{MemberID: "m", ProtocolMetadata: racked})
			if !ok {
				t.Fatal("the re-encoded metadata does not decode")
			}
			before.Rack = "use1-az1"
			if !reflect.DeepEqual(after, before) {
				t.Fatalf("after kgo added the rack\n got %#v\nwant %#v", after, before)
			}
		})
	}
}

func TestKgoMembersReadByUs(t *testing.T) {
	current := map[string][]int32{"t": {1, 3}}
	for _, tc := range []struct {
		name string
		kgo  kgo.GroupBalancer
		want assignor.Member
	}{
		{"kgo cooperative-sticky: owned and generation from v3", kgo.CooperativeStickyBalancer(),
			assignor.Member{ID: "m", Topics: []string{"t"}, Owned: tps("t", []int32{1, 3}), Generation: 5}},
		{"kgo eager sticky: history only in its user data", kgo.StickyBalancer(),
			assignor.Member{ID: "m", Topics: []string{"t"}, Generation: 5}},
		{"kgo roundrobin", kgo.RoundRobinBalancer(), assignor.Member{ID: "m", Topics: []string{"t"}, Generation: 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := New(&recorder{name: tc.kgo.ProtocolName(), protocols: coopProtocols}, Config{})
			meta := tc.kgo.JoinGroupMetadata([]string{"t"}, current, 5)
			got, ok := decodeFull(b, &kmsg.JoinGroupResponseMember{MemberID: "m", ProtocolMetadata: meta})
			got.UserData = nil // kgo's own layout, opaque to the adapter
			if !ok || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("decoded %#v, want %#v", got, tc.want)
			}
		})
	}
}

// Assignments in both directions: ours parsed by kgo, kgo's by ours.
func TestAssignmentsBothWays(t *testing.T) {
	b := CooperativeSticky()
	members := []kmsg.JoinGroupResponseMember{
		member("a", b.JoinGroupMetadata([]string{"t", "u"}, nil, -1)),
		member("b", kgo.CooperativeStickyBalancer().JoinGroupMetadata([]string{"t", "u"}, nil, -1)),
	}
	ours := balanceInto(t, b, 1, counts("t", 4, "u", 2), members)

	mb, _, err := kgo.CooperativeStickyBalancer().MemberBalancer(members)
	if err != nil {
		t.Fatal(err)
	}
	into, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(counts("t", 4, "u", 2))
	if err != nil {
		t.Fatal(err)
	}
	theirs := into.IntoSyncAssignment()

	for _, sa := range append(ours, theirs...) {
		want, err := kgo.ParseConsumerSyncAssignment(sa.MemberAssignment)
		if err != nil {
			t.Fatalf("kgo cannot parse %q's assignment: %v", sa.MemberID, err)
		}
		got, err := b.ParseSyncAssignment(sa.MemberAssignment)
		if err != nil {
			t.Fatalf("we cannot parse %q's assignment: %v", sa.MemberID, err)
		}
		for topic, ps := range want {
			if len(ps) == 0 {
				delete(want, topic)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("member %q: we read %v, kgo reads %v", sa.MemberID, got, want)
		}
	}
	var ka kmsg.ConsumerMemberAssignment
	if err := ka.ReadFrom(ours[0].MemberAssignment); err != nil || !bytes.Equal(ka.AppendTo(nil), ours[0].MemberAssignment) {
		t.Fatalf("kmsg does not round-trip our assignment byte for byte: %v", err)
	}
}

func fromKmsgOwned(owned []kmsg.ConsumerMemberMetadataOwnedPartition) []assignor.TopicPartitions {
	m := make(map[string][]int32)
	for _, o := range owned {
		m[o.Topic] = append(m[o.Topic], o.Partitions...)
	}
	return assignor.TopicPartitionsFromMap(m)
}

// Java's and sarama's layouts, as their members send them.
func TestJavaAndSaramaMembersReadByUs(t *testing.T) {
	b := CooperativeSticky()
	owned := tps("t", []int32{0, 2})
	for _, tc := range []struct {
		name string
		meta []byte
		want assignor.Member
	}{
		{"Java 3.5+ cooperative-sticky: v3, 4-byte generation user data, rack",
			wire.Subscription{Version: 3, Topics: []string{"t"}, UserData: wire.CooperativeUserData(6), Owned: owned, Generation: 6, Rack: "r"}.AppendTo(nil),
			assignor.Member{ID: "m", Rack: "r", Topics: []string{"t"}, Owned: owned, Generation: 6, UserData: wire.CooperativeUserData(6)}},
		{"sarama V3_2_0_0+: v2, no rack",
			wire.Subscription{Version: 2, Topics: []string{"t"}, UserData: wire.CooperativeUserData(6), Owned: owned, Generation: 6}.AppendTo(nil),
			assignor.Member{ID: "m", Topics: []string{"t"}, Owned: owned, Generation: 6, UserData: wire.CooperativeUserData(6)}},
		{"sarama V2_4_0_0 to V3_1: v1, the generation only in the user data",
			wire.Subscription{Version: 1, Topics: []string{"t"}, UserData: wire.CooperativeUserData(6), Owned: owned}.AppendTo(nil),
			assignor.Member{ID: "m", Topics: []string{"t"}, Owned: owned, Generation: 6, UserData: wire.CooperativeUserData(6)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := decodeFull(b, &kmsg.JoinGroupResponseMember{MemberID: "m", ProtocolMetadata: tc.meta})
			if !ok || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("decoded %#v, want %#v", got, tc.want)
			}
		})
	}
}

// Any member state and any plan: what we write, kmsg reads to the same
// values and writes back byte for byte.
func TestKmsgRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		topics := rapid.SliceOfNDistinct(rapid.StringMatching(`[a-z.\-_]{1,8}`), 0, 4, rapid.ID[string]).Draw(rt, "topics")
		current := make(map[string][]int32)
		for _, topic := range topics {
			if ps := rapid.SliceOfNDistinct(rapid.Int32Range(0, 1<<20), 0, 5, rapid.ID[int32]).Draw(rt, topic); len(ps) > 0 {
				current[topic] = ps
			}
		}
		gen := rapid.Int32Range(-1, 1<<30).Draw(rt, "generation")
		b := CooperativeSticky()
		meta := b.JoinGroupMetadata(topics, current, gen)
		var km kmsg.ConsumerMemberMetadata
		if err := km.ReadFrom(meta); err != nil || !bytes.Equal(km.AppendTo(nil), meta) {
			rt.Fatalf("kmsg round trip of our metadata: %v", err)
		}
		if km.Generation != gen || !reflect.DeepEqual(fromKmsgOwned(km.OwnedPartitions), assignor.TopicPartitionsFromMap(current)) {
			rt.Fatalf("kmsg read generation %d, owned %v", km.Generation, km.OwnedPartitions)
		}

		userData := rapid.SliceOfN(rapid.Byte(), 0, 8).Draw(rt, "assignment user data")
		a := rebalance.Assignment{Member: "m", Partitions: assignor.TopicPartitionsFromMap(current), UserData: userData}
		sa := syncAssignments([]rebalance.Assignment{a})[0].MemberAssignment
		var ka kmsg.ConsumerMemberAssignment
		if err := ka.ReadFrom(sa); err != nil || !bytes.Equal(ka.AppendTo(nil), sa) {
			rt.Fatalf("kmsg round trip of our assignment: %v", err)
		}
		if !bytes.Equal(ka.UserData, userData) {
			rt.Fatalf("kmsg read user data % x, want % x", ka.UserData, userData)
		}
		got, _ := b.ParseSyncAssignment(ka.AppendTo(nil))
		if want, _ := kgo.ParseConsumerSyncAssignment(sa); !reflect.DeepEqual(got, want) {
			rt.Fatalf("we read %v, kgo reads %v", got, want)
		}
	})
}
