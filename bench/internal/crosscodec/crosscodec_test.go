package crosscodec

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	ibm "github.com/IBM/sarama"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/adapters/saramaassignor"
	"github.com/kgroup/assignor/wire"
)

// subCase is one subscription, in our codec's terms. Racks are "" (null) or
// non-empty, partition lists non-empty: sarama and kmsg write an empty rack
// as "" (not null) and our codec reads "" back as null.
type subCase struct {
	name string
	sub  wire.Subscription
}

func tps(args ...any) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for i := 0; i < len(args); i += 2 {
		out = append(out, assignor.TopicPartitions{Topic: args[i].(string), Partitions: args[i+1].([]int32)})
	}
	return out
}

func subscriptionCases() []subCase {
	cases := []subCase{
		{"v0 empty, null user data", wire.Subscription{Version: 0, Generation: assignor.NoGeneration}},
		{"v0 with empty (not null) user data", wire.Subscription{Version: 0, Topics: []string{"a"}, UserData: []byte{}, Generation: assignor.NoGeneration}},
		{"v1 owned, cooperative user data", wire.Subscription{Version: 1, Topics: []string{"a", "b"}, UserData: wire.CooperativeUserData(7),
			Owned: tps("a", []int32{0, 2}, "b", []int32{1}), Generation: assignor.NoGeneration}},
		{"v2 generation, no owned", wire.Subscription{Version: 2, Topics: []string{"t"}, Generation: -1}},
		{"v2 owned and generation", wire.Subscription{Version: 2, Topics: []string{"t"}, Owned: tps("t", []int32{3, 1}), Generation: 42}},
		{"v3 rack", wire.Subscription{Version: 3, Topics: []string{"t", "u"}, UserData: []byte("x"), Owned: tps("u", []int32{0}), Generation: 1, Rack: "use1-az1"}},
		{"v3 null rack", wire.Subscription{Version: 3, Topics: []string{"t"}, Generation: 5}},
	}
	r := rand.New(rand.NewPCG(6, 6)) // fixed seed
	for i := range 200 {
		v := int16(r.IntN(4))
		s := wire.Subscription{Version: v, Generation: assignor.NoGeneration}
		for j := range r.IntN(4) {
			s.Topics = append(s.Topics, fmt.Sprintf("topic-%d-%d", i, j))
		}
		if r.IntN(3) > 0 {
			s.UserData = make([]byte, r.IntN(20))
			for k := range s.UserData {
				s.UserData[k] = byte(r.Uint32())
			}
		}
		if v >= 1 {
			for j := range r.IntN(3) {
				ps := make([]int32, 1+r.IntN(5))
				for k := range ps {
					ps[k] = r.Int32N(1000)
				}
				s.Owned = append(s.Owned, assignor.TopicPartitions{Topic: fmt.Sprintf("o-%d", j), Partitions: ps})
			}
		}
		if v >= 2 {
			s.Generation = r.Int32N(100) - 1
		}
		if v >= 3 && r.IntN(2) == 0 {
			s.Rack = fmt.Sprintf("rack-%d", r.IntN(3))
		}
		cases = append(cases, subCase{fmt.Sprintf("random %d v%d", i, v), s})
	}
	return cases
}

func toSarama(s wire.Subscription) *ibm.ConsumerGroupMemberMetadata {
	m := &ibm.ConsumerGroupMemberMetadata{Version: s.Version, Topics: s.Topics, UserData: s.UserData, GenerationID: s.Generation}
	for _, tp := range s.Owned {
		m.OwnedPartitions = append(m.OwnedPartitions, &ibm.OwnedPartition{Topic: tp.Topic, Partitions: tp.Partitions})
	}
	if s.Rack != "" {
		m.RackID = &s.Rack
	}
	return m
}

func fromSarama(m ibm.ConsumerGroupMemberMetadata) wire.Subscription {
	s := wire.Subscription{Version: m.Version, Topics: m.Topics, UserData: m.UserData, Generation: assignor.NoGeneration}
	for _, op := range m.OwnedPartitions {
		s.Owned = append(s.Owned, assignor.TopicPartitions{Topic: op.Topic, Partitions: op.Partitions})
	}
	if m.Version >= 2 {
		s.Generation = m.GenerationID
	}
	if m.RackID != nil {
		s.Rack = *m.RackID
	}
	return s
}

func toKmsg(s wire.Subscription) kmsg.ConsumerMemberMetadata {
	m := kmsg.NewConsumerMemberMetadata()
	m.Version, m.Topics, m.UserData, m.Generation = s.Version, s.Topics, s.UserData, s.Generation
	for _, tp := range s.Owned {
		m.OwnedPartitions = append(m.OwnedPartitions, kmsg.ConsumerMemberMetadataOwnedPartition{Topic: tp.Topic, Partitions: tp.Partitions})
	}
	if s.Rack != "" {
		m.Rack = &s.Rack
	}
	return m
}

func fromKmsg(m kmsg.ConsumerMemberMetadata) wire.Subscription {
	s := wire.Subscription{Version: m.Version, Topics: m.Topics, UserData: m.UserData, Generation: assignor.NoGeneration}
	for _, op := range m.OwnedPartitions {
		s.Owned = append(s.Owned, assignor.TopicPartitions{Topic: op.Topic, Partitions: op.Partitions})
	}
	if m.Version >= 2 {
		s.Generation = m.Generation
	}
	if m.Rack != nil {
		s.Rack = *m.Rack
	}
	return s
}

// normSub makes empty lists nil so that decoders' nil-versus-empty choices do
// not matter; user data keeps its null-versus-empty distinction.
func normSub(s wire.Subscription) wire.Subscription {
	if len(s.Topics) == 0 {
		s.Topics = nil
	}
	if len(s.Owned) == 0 {
		s.Owned = nil
	}
	if s.Version < 2 {
		s.Generation = assignor.NoGeneration
	}
	return s
}

func saramaEncodeSubscription(t *testing.T, m *ibm.ConsumerGroupMemberMetadata) []byte {
	t.Helper()
	req := ibm.NewJoinGroupRequest(ibm.V3_2_0_0)
	if err := req.AddGroupProtocolMetadata("p", m); err != nil {
		t.Fatal(err)
	}
	return req.OrderedGroupProtocols[0].Metadata
}

func saramaDecodeSubscription(b []byte) (ibm.ConsumerGroupMemberMetadata, error) {
	resp := &ibm.JoinGroupResponse{Members: []ibm.GroupMember{{MemberId: "m", Metadata: b}}}
	ms, err := resp.GetMembers()
	return ms["m"], err
}

func TestSubscriptionCrossCodec(t *testing.T) {
	for _, tc := range subscriptionCases() {
		t.Run(tc.name, func(t *testing.T) {
			want := normSub(tc.sub)
			ours := tc.sub.AppendTo(nil)

			// sarama's bytes → our decoder, and ours → sarama's decoder.
			sb := saramaEncodeSubscription(t, toSarama(tc.sub))
			if got, err := wire.DecodeSubscription(sb); err != nil || !reflect.DeepEqual(normSub(got), want) {
				t.Fatalf("sarama bytes → wire: %+v, %v\nwant %+v", got, err, want)
			}
			if sm, err := saramaDecodeSubscription(ours); err != nil || !reflect.DeepEqual(normSub(fromSarama(sm)), want) {
				t.Fatalf("wire bytes → sarama: %+v, %v\nwant %+v", sm, err, want)
			}

			// kmsg's bytes → our decoder, and ours → kmsg's decoder.
			km := toKmsg(tc.sub)
			kb := km.AppendTo(nil)
			if got, err := wire.DecodeSubscription(kb); err != nil || !reflect.DeepEqual(normSub(got), want) {
				t.Fatalf("kmsg bytes → wire: %+v, %v\nwant %+v", got, err, want)
			}
			var back kmsg.ConsumerMemberMetadata
			if err := back.ReadFrom(ours); err != nil || !reflect.DeepEqual(normSub(fromKmsg(back)), want) {
				t.Fatalf("wire bytes → kmsg: %+v, %v\nwant %+v", back, err, want)
			}

			// All three encoders agree byte for byte.
			if !slices.Equal(ours, sb) || !slices.Equal(ours, kb) {
				t.Fatalf("encodings differ:\nwire   %x\nsarama %x\nkmsg   %x", ours, sb, kb)
			}
		})
	}
}

// TestSubscriptionThroughSarama: a Java or franz-go member's bytes reach Plan
// through sarama's decoder; the member the assignor sees must be the one our
// codec reads from the same bytes.
func TestSubscriptionThroughSarama(t *testing.T) {
	rec := &recorder{}
	s, err := saramaassignor.New(rec, saramaassignor.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range subscriptionCases() {
		km := toKmsg(tc.sub)
		b := km.AppendTo(nil)
		sm, err := saramaDecodeSubscription(b)
		if err != nil {
			t.Fatalf("%s: sarama cannot decode kmsg bytes: %v", tc.name, err)
		}
		if _, err := s.Plan(map[string]ibm.ConsumerGroupMemberMetadata{"m": sm}, nil); err != nil {
			t.Fatalf("%s: Plan: %v", tc.name, err)
		}
		got := rec.group.Members[0]
		dec, err := wire.DecodeSubscription(b)
		if err != nil {
			t.Fatal(err)
		}
		want := dec.Member("m", "")
		want.Generation = max(want.Generation, assignor.NoGeneration)
		want.Owned = assignor.NormalizeTopicPartitions(want.Owned) // the group an assignor gets holds claims canonical
		if len(want.Topics) == 0 {
			want.Topics = nil
		}
		if len(got.Topics) == 0 {
			got.Topics = nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: adapter sees %+v\ncodec reads   %+v", tc.name, got, want)
		}
	}
}

// recorder is an eager assignor that keeps the group it is given and assigns
// nothing.
type recorder struct{ group assignor.Group }

func (r *recorder) Name() string { return "recorder" }

func (r *recorder) Assign(g assignor.Group) (assignor.Plan, error) {
	r.group = g.Clone()
	var p assignor.Plan // an entry for every member, nothing assigned
	for _, m := range g.Members {
		p.Members = append(p.Members, assignor.MemberPlan{Member: m.ID})
	}
	return p, nil
}

// TestSubscriptionV1WithoutOwned: kafka-go marks its subscription v1 but
// stops after the user data (franz-go issue #493); sarama and our codec accept
// it as owning nothing. kmsg's raw decoder refuses it; franz-go's balancer
// (kgo/group_balancer.go) then rereads the bytes as version 0.
func TestSubscriptionV1WithoutOwned(t *testing.T) {
	b := wire.Subscription{Version: 0, Topics: []string{"t"}, UserData: []byte{1, 2}}.AppendTo(nil)
	b[1] = 1 // claim version 1
	if got, err := wire.DecodeSubscription(b); err != nil || got.Version != 1 || got.Owned != nil {
		t.Fatalf("wire: %+v, %v", got, err)
	}
	if sm, err := saramaDecodeSubscription(b); err != nil || sm.Version != 1 || sm.OwnedPartitions != nil {
		t.Fatalf("sarama: %+v, %v", sm, err)
	}
	var km kmsg.ConsumerMemberMetadata
	if err := km.ReadFrom(b); err == nil {
		t.Fatalf("kmsg accepted a short v1 (%+v): update this test and the doc", km)
	}
	b[1] = 0
	if err := km.ReadFrom(b); err != nil || len(km.Topics) != 1 {
		t.Fatalf("kmsg, reread as v0 as franz-go does: %+v, %v", km, err)
	}
}

func sortedTPs(m map[string][]int32) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for _, topic := range slices.Sorted(maps.Keys(m)) {
		out = append(out, assignor.TopicPartitions{Topic: topic, Partitions: m[topic]})
	}
	return out
}

// byTopic sorts by topic and makes empty lists nil, for comparisons.
func byTopic(tps []assignor.TopicPartitions) []assignor.TopicPartitions {
	out := slices.Clone(tps)
	for i := range out {
		if len(out[i].Partitions) == 0 {
			out[i].Partitions = nil
		}
	}
	slices.SortFunc(out, func(a, b assignor.TopicPartitions) int { return cmp.Compare(a.Topic, b.Topic) })
	if len(out) == 0 {
		return nil
	}
	return out
}

func TestAssignmentCrossCodec(t *testing.T) {
	cases := []wire.Assignment{
		{Version: 0},
		{Version: 0, UserData: []byte{}},
		{Version: 0, Partitions: tps("a", []int32{0, 1, 5}, "b", []int32{2}), UserData: []byte("sticky")},
		{Version: 1, Partitions: tps("t", []int32{9})},
		{Version: 3, Partitions: tps("a", []int32{}, "b", []int32{7})},
	}
	r := rand.New(rand.NewPCG(3, 3))
	for i := range 100 {
		a := wire.Assignment{}
		for j := range r.IntN(4) {
			ps := make([]int32, r.IntN(6))
			for k := range ps {
				ps[k] = r.Int32N(500)
			}
			a.Partitions = append(a.Partitions, assignor.TopicPartitions{Topic: fmt.Sprintf("t%d-%d", i, j), Partitions: ps})
		}
		if r.IntN(2) == 0 {
			a.UserData = []byte{byte(i)}
		}
		cases = append(cases, a)
	}
	for i, a := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			ours := a.AppendTo(nil)

			// sarama → wire: the leader's encoder writes its map in any order.
			req := &ibm.SyncGroupRequest{}
			topics := map[string][]int32{}
			for _, tp := range a.Partitions {
				topics[tp.Topic] = tp.Partitions
			}
			if err := req.AddGroupAssignmentMember("m", &ibm.ConsumerGroupMemberAssignment{Version: a.Version, Topics: topics, UserData: a.UserData}); err != nil {
				t.Fatal(err)
			}
			got, err := wire.DecodeAssignment(req.GroupAssignments[0].Assignment)
			if err != nil || got.Version != a.Version || !reflect.DeepEqual(byTopic(got.Partitions), byTopic(a.Partitions)) || !reflect.DeepEqual(got.UserData, a.UserData) {
				t.Fatalf("sarama bytes → wire: %+v, %v; want %+v", got, err, a)
			}

			// wire → sarama's member-side decoder.
			resp := &ibm.SyncGroupResponse{MemberAssignment: ours}
			sa, err := resp.GetMemberAssignment()
			if err != nil || sa.Version != a.Version || !reflect.DeepEqual(byTopic(sortedTPs(sa.Topics)), byTopic(a.Partitions)) || !reflect.DeepEqual(sa.UserData, a.UserData) {
				t.Fatalf("wire bytes → sarama: %+v, %v; want %+v", sa, err, a)
			}

			// kmsg both ways, byte for byte.
			km := kmsg.NewConsumerMemberAssignment()
			km.Version, km.UserData = a.Version, a.UserData
			for _, tp := range a.Partitions {
				km.Topics = append(km.Topics, kmsg.ConsumerMemberAssignmentTopic{Topic: tp.Topic, Partitions: tp.Partitions})
			}
			if kb := km.AppendTo(nil); !slices.Equal(kb, ours) {
				t.Fatalf("kmsg encodes %x, wire %x", kb, ours)
			}
			var back kmsg.ConsumerMemberAssignment
			if err := back.ReadFrom(ours); err != nil || back.Version != a.Version || len(back.Topics) != len(a.Partitions) || !reflect.DeepEqual(back.UserData, a.UserData) {
				t.Fatalf("wire bytes → kmsg: %+v, %v", back, err)
			}
			for j, tp := range back.Topics {
				if tp.Topic != a.Partitions[j].Topic || !slices.Equal(tp.Partitions, a.Partitions[j].Partitions) {
					t.Fatalf("wire bytes → kmsg: topic %d = %+v, want %+v", j, tp, a.Partitions[j])
				}
			}
		})
	}
}

func TestStickyUserDataCrossCodec(t *testing.T) {
	cases := []wire.StickyUserData{
		{Generation: assignor.NoGeneration},
		{Owned: tps("a", []int32{0, 3}, "b", []int32{1}), Generation: 4},
		{Owned: tps("t", []int32{7}), Generation: 0},
	}
	for i, u := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			ours := u.AppendTo(nil)

			// kmsg both ways; byte for byte with a generation (without one,
			// kmsg writes version 0 and we write version 1 with -1, as Java).
			km := kmsg.NewStickyMemberMetadata()
			km.Generation = u.Generation
			for _, tp := range u.Owned {
				km.CurrentAssignment = append(km.CurrentAssignment, kmsg.StickyMemberMetadataCurrentAssignment{Topic: tp.Topic, Partitions: tp.Partitions})
			}
			kb := km.AppendTo(nil)
			if u.Generation != assignor.NoGeneration && !slices.Equal(kb, ours) {
				t.Fatalf("kmsg encodes %x, wire %x", kb, ours)
			}
			if got, err := wire.DecodeStickyUserData(kb); err != nil || got.Generation != u.Generation || !reflect.DeepEqual(byTopic(got.Owned), byTopic(u.Owned)) {
				t.Fatalf("kmsg bytes → wire: %+v, %v; want %+v", got, err, u)
			}
			var back kmsg.StickyMemberMetadata
			if err := back.ReadFrom(ours); err != nil || back.Generation != u.Generation || len(back.CurrentAssignment) != len(u.Owned) {
				t.Fatalf("wire bytes → kmsg: %+v, %v", back, err)
			}

			// sarama's sticky leader writes the user data its members echo.
			sb, err := ibm.NewBalanceStrategySticky().AssignmentData("m", maps.Collect(func(yield func(string, []int32) bool) {
				for _, tp := range u.Owned {
					if !yield(tp.Topic, tp.Partitions) {
						return
					}
				}
			}), u.Generation)
			if err != nil {
				t.Fatal(err)
			}
			got, err := wire.DecodeStickyUserData(sb)
			if err != nil || got.Generation != u.Generation || !reflect.DeepEqual(byTopic(got.Owned), byTopic(u.Owned)) {
				t.Fatalf("sarama bytes → wire: %+v, %v; want %+v", got, err, u)
			}
		})
	}
}

// TestStickyUserDataReadBySarama: sarama's eager sticky leader reads our
// user data as each member's history; with a complete, balanced history in
// one generation it must keep it exactly (and fail Plan if it could not
// decode the bytes).
func TestStickyUserDataReadBySarama(t *testing.T) {
	history := map[string][]assignor.TopicPartitions{
		"m0": tps("t", []int32{0, 5}),
		"m1": tps("t", []int32{1, 4}),
		"m2": tps("t", []int32{2, 3}),
	}
	members := map[string]ibm.ConsumerGroupMemberMetadata{}
	for id, owned := range history {
		members[id] = ibm.ConsumerGroupMemberMetadata{Topics: []string{"t"}, UserData: wire.StickyUserData{Owned: owned, Generation: 3}.AppendTo(nil)}
	}
	plan, err := ibm.NewBalanceStrategySticky().Plan(members, map[string][]int32{"t": {0, 1, 2, 3, 4, 5}})
	if err != nil {
		t.Fatalf("sarama's sticky cannot read our user data: %v", err)
	}
	for id, owned := range history {
		got := slices.Sorted(slices.Values(plan[id]["t"]))
		if !slices.Equal(got, owned[0].Partitions) {
			t.Fatalf("sarama moved %s: %v, history %v", id, got, owned[0].Partitions)
		}
	}
}

func TestCooperativeUserDataCrossCodec(t *testing.T) {
	for _, gen := range []int32{-1, 0, 1, 12345} {
		s := ibm.NewBalanceStrategyCooperativeSticky()
		s.(ibm.OnAssignmentBalanceStrategy).OnAssignment(&ibm.ConsumerGroupMemberAssignment{}, gen)
		sb, err := s.(ibm.SubscriptionUserDataBalanceStrategy).SubscriptionUserData(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(sb, wire.CooperativeUserData(gen)) {
			t.Fatalf("generation %d: sarama writes %x, wire %x", gen, sb, wire.CooperativeUserData(gen))
		}
		if got, err := wire.DecodeCooperativeUserData(sb); err != nil || got != gen {
			t.Fatalf("generation %d: wire reads sarama's bytes as %d, %v", gen, got, err)
		}
	}
}

// TestCooperativeUserDataReadBySarama: a sarama cooperative leader reads the
// generation of a v1 member from our 4-byte user data: the claim at
// generation 5 beats the one at 3 (reversed, it goes the other way). Were
// the generations misread, both claims would tie and sarama would pick one at
// random (map order); ten runs of each make that visible.
func TestCooperativeUserDataReadBySarama(t *testing.T) {
	for i := range 20 {
		tc := []struct{ g0, g1 int32 }{{5, 3}, {3, 5}}[i%2]
		members := map[string]ibm.ConsumerGroupMemberMetadata{
			"m0": {Version: 1, Topics: []string{"t"}, UserData: wire.CooperativeUserData(tc.g0), OwnedPartitions: []*ibm.OwnedPartition{{Topic: "t", Partitions: []int32{0}}}},
			"m1": {Version: 1, Topics: []string{"t"}, UserData: wire.CooperativeUserData(tc.g1), OwnedPartitions: []*ibm.OwnedPartition{{Topic: "t", Partitions: []int32{0}}}},
		}
		plan, err := ibm.NewBalanceStrategyCooperativeSticky().Plan(members, map[string][]int32{"t": {0, 1}})
		if err != nil {
			t.Fatal(err)
		}
		winner := "m0"
		if tc.g1 > tc.g0 {
			winner = "m1"
		}
		if !slices.Contains(plan[winner]["t"], 0) {
			t.Fatalf("generations %d/%d: t/0 not with %s: %v", tc.g0, tc.g1, winner, plan)
		}
	}
}
