package saramaassignor

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/wire"
)

func strp(s string) *string { return &s }

// stickyUserData is the eager sticky user data of a member owning topic's
// partitions at generation gen: what cooperative.Wrap(sticky.New()) sends
// with Config.InnerUserData.
func stickyUserData(gen int32, topic string, partitions ...int32) []byte {
	return wire.StickyUserData{Owned: []assignor.TopicPartitions{{Topic: topic, Partitions: partitions}}, Generation: gen}.AppendTo(nil)
}

func owned(tps ...any) []*sarama.OwnedPartition {
	var out []*sarama.OwnedPartition
	for i := 0; i < len(tps); i += 2 {
		out = append(out, &sarama.OwnedPartition{Topic: tps[i].(string), Partitions: tps[i+1].([]int32)})
	}
	return out
}

// TestGroupMembers pins how each subscription field reaches the assignor.
func TestGroupMembers(t *testing.T) {
	coop := []assignor.Protocol{assignor.Cooperative, assignor.Eager}
	for _, tc := range []struct {
		name      string
		protocols []assignor.Protocol
		cfg       Config
		meta      sarama.ConsumerGroupMemberMetadata
		want      assignor.Member
		wantLog   string
	}{
		{
			name: "v0: topics and user data only; owned fields of a v0 struct are ignored",
			meta: sarama.ConsumerGroupMemberMetadata{Version: 0, Topics: []string{"t"}, UserData: []byte("u"), OwnedPartitions: owned("t", []int32{0}), GenerationID: 9},
			want: assignor.Member{ID: "m", Topics: []string{"t"}, UserData: []byte("u"), Generation: assignor.NoGeneration},
		},
		{
			name: "v1, eager assignor: owned partitions without a generation (user data is opaque)",
			meta: sarama.ConsumerGroupMemberMetadata{Version: 1, Topics: []string{"t"}, UserData: wire.CooperativeUserData(4), OwnedPartitions: owned("t", []int32{2, 0})},
			want: assignor.Member{ID: "m", Topics: []string{"t"}, UserData: wire.CooperativeUserData(4), Owned: []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{0, 2}}}, Generation: assignor.NoGeneration},
		},
		{
			name:      "v1, cooperative assignor: generation from the 4-byte user data (KIP-429, before KIP-792)",
			protocols: coop,
			meta:      sarama.ConsumerGroupMemberMetadata{Version: 1, Topics: []string{"t"}, UserData: wire.CooperativeUserData(4), OwnedPartitions: owned("t", []int32{1})},
			want:      assignor.Member{ID: "m", Topics: []string{"t"}, UserData: wire.CooperativeUserData(4), Owned: []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{1}}}, Generation: 4},
		},
		{
			name:      "v1, cooperative assignor: generation from sticky user data (cooperative.Config.InnerUserData), not its topic count",
			protocols: coop,
			meta:      sarama.ConsumerGroupMemberMetadata{Version: 1, Topics: []string{"t"}, UserData: stickyUserData(6, "t", 1), OwnedPartitions: owned("t", []int32{1})},
			want:      assignor.Member{ID: "m", Topics: []string{"t"}, UserData: stickyUserData(6, "t", 1), Owned: []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{1}}}, Generation: 6},
		},
		{
			name:      "v1, cooperative assignor, malformed user data: claims kept without a generation, logged",
			protocols: coop,
			meta:      sarama.ConsumerGroupMemberMetadata{Version: 1, Topics: []string{"t"}, UserData: []byte{0, 0, 0, 0, 0, 1, 2}, OwnedPartitions: owned("t", []int32{1})},
			want:      assignor.Member{ID: "m", Topics: []string{"t"}, UserData: []byte{0, 0, 0, 0, 0, 1, 2}, Owned: []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{1}}}, Generation: assignor.NoGeneration},
			wantLog:   "user data unreadable; its claims count without a generation\" adapter=saramaassignor assignor=x member=m bytes=7",
		},
		{
			name:      "v2: the subscription's generation wins over the user data (KIP-792)",
			protocols: coop,
			meta:      sarama.ConsumerGroupMemberMetadata{Version: 2, Topics: []string{"t"}, UserData: wire.CooperativeUserData(3), OwnedPartitions: owned("t", []int32{1}), GenerationID: 8},
			want:      assignor.Member{ID: "m", Topics: []string{"t"}, UserData: wire.CooperativeUserData(3), Owned: []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{1}}}, Generation: 8},
		},
		{
			name: "v2 with garbage user data: nothing to decode, nothing logged",
			meta: sarama.ConsumerGroupMemberMetadata{Version: 2, Topics: []string{"t"}, UserData: []byte{1}, GenerationID: -7},
			want: assignor.Member{ID: "m", Topics: []string{"t"}, UserData: []byte{1}, Generation: assignor.NoGeneration},
		},
		{
			name: "v2 ignores a rack (sarama never sends v3); MemberRack fills in",
			cfg:  Config{MemberRack: RackByPrefix(map[string]string{"m": "r-map"})},
			meta: sarama.ConsumerGroupMemberMetadata{Version: 2, RackID: strp("r-sub"), GenerationID: 1},
			want: assignor.Member{ID: "m", Rack: "", Generation: 1},
		},
		{
			name: "v3 rack wins over MemberRack",
			cfg:  Config{MemberRack: func(string) string { return "r-map" }},
			meta: sarama.ConsumerGroupMemberMetadata{Version: 3, RackID: strp("r-sub"), GenerationID: 1},
			want: assignor.Member{ID: "m", Rack: "r-sub", Generation: 1},
		},
		{
			name: "v3 without a rack: MemberRack",
			cfg:  Config{MemberRack: func(string) string { return "r-map" }},
			meta: sarama.ConsumerGroupMemberMetadata{Version: 3, GenerationID: 1},
			want: assignor.Member{ID: "m", Rack: "r-map", Generation: 1},
		},
		{
			name: "nil and empty owned entries are dropped",
			meta: sarama.ConsumerGroupMemberMetadata{Version: 2, OwnedPartitions: []*sarama.OwnedPartition{nil, {Topic: "t"}, {Topic: "u", Partitions: []int32{5}}}, GenerationID: 1},
			want: assignor.Member{ID: "m", Owned: []assignor.TopicPartitions{{Topic: "u", Partitions: []int32{5}}}, Generation: 1},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l logs
			tc.cfg.Logger = l.logger()
			g := seenGroup(t, tc.protocols, tc.cfg, map[string]sarama.ConsumerGroupMemberMetadata{"m": tc.meta}, nil)
			if len(g.Members) != 1 || !reflect.DeepEqual(g.Members[0], tc.want) {
				t.Fatalf("member = %+v\nwant     %+v", g.Members, tc.want)
			}
			if logs := l.all(); tc.wantLog == "" && len(logs) > 0 || tc.wantLog != "" && (len(logs) != 1 || !strings.Contains(logs[0], tc.wantLog)) {
				t.Fatalf("logs = %q, want one containing %q", logs, tc.wantLog)
			}
		})
	}
}

// TestGroupTopics: sarama's partition lists are mapped faithfully, whatever
// their order and IDs; replica racks come from Config.ReplicaRacks.
func TestGroupTopics(t *testing.T) {
	racks := map[string][]string{"a/9": {"r1", "r2"}, "a/2": {"r3"}}
	cfg := Config{ReplicaRacks: func(topic string, p int32) []string {
		return racks[fmt.Sprintf("%s/%d", topic, p)]
	}}
	topics := map[string][]int32{"b": {0, 1}, "a": {9, 2, 5}, "c": nil}
	g := seenGroup(t, nil, cfg, map[string]sarama.ConsumerGroupMemberMetadata{"m": {Version: 3, RackID: strp("r1")}}, topics)
	want := []assignor.Topic{ // as the index has them: partitions sorted, racks alongside
		{Name: "a", Partitions: []int32{2, 5, 9}, ReplicaRacks: [][]string{{"r3"}, nil, {"r1", "r2"}}},
		{Name: "b", Partitions: []int32{0, 1}},
		{Name: "c"},
	}
	if !reflect.DeepEqual(g.Topics, want) {
		t.Fatalf("topics = %+v\nwant %+v", g.Topics, want)
	}
	topics["a"][0] = 100 // the group does not alias sarama's input
	if g.Topics[0].Partitions[2] != 9 {
		t.Fatal("Group aliases sarama's partition lists")
	}
}

func TestPlan(t *testing.T) {
	members := map[string]sarama.ConsumerGroupMemberMetadata{
		"m0": {Version: 2, Topics: []string{"a"}, GenerationID: -1},
		"m1": {Version: 2, Topics: []string{"a"}, GenerationID: -1},
		"m2": {Version: 2, Topics: []string{"zzz"}, GenerationID: -1}, // subscribes to nothing that exists
	}
	t.Run("every member gets an entry; partition IDs are sarama's", func(t *testing.T) {
		s := mustNew(t, roundrobin.New(), Config{})
		plan, err := s.Plan(members, map[string][]int32{"a": {7, 3, 11}})
		if err != nil {
			t.Fatal(err)
		}
		want := sarama.BalanceStrategyPlan{"m0": {"a": {3, 11}}, "m1": {"a": {7}}, "m2": {}}
		if !reflect.DeepEqual(plan, want) {
			t.Fatalf("plan = %v, want %v", plan, want)
		}
	})
	t.Run("assignment user data per member, copied", func(t *testing.T) {
		f := &fixed{name: "x", plan: assignor.Plan{Members: []assignor.MemberPlan{
			{Member: "m0", Assigned: []assignor.TopicPartitions{{Topic: "a", Partitions: []int32{3}}}, UserData: []byte("zero")},
			{Member: "m1"},
			{Member: "m2"},
		}}}
		s := mustNew(t, f, Config{})
		if _, err := s.Plan(members, map[string][]int32{"a": {3}}); err != nil {
			t.Fatal(err)
		}
		for id, want := range map[string]string{"m0": "zero", "m1": "", "m2": "", "unknown": ""} {
			got, err := s.AssignmentData(id, nil, 1)
			if err != nil || string(got) != want {
				t.Fatalf("AssignmentData(%s) = %q, %v; want %q", id, got, err, want)
			}
		}
		got, _ := s.AssignmentData("m0", nil, 1)
		got[0] = 'X'
		if again, _ := s.AssignmentData("m0", nil, 1); string(again) != "zero" {
			t.Fatal("AssignmentData returned its own slice")
		}
	})
	t.Run("a plan entry for a member sarama did not send fails the plan, naming it", func(t *testing.T) {
		f := &fixed{name: "x", plan: assignor.Plan{Members: []assignor.MemberPlan{
			{Member: "ghost", Assigned: []assignor.TopicPartitions{{Topic: "a", Partitions: []int32{3}}}},
		}}}
		s := mustNew(t, f, Config{Logger: discard})
		plan, err := s.Plan(members, map[string][]int32{"a": {3}})
		if plan != nil || !errors.Is(err, assignor.ErrUnknownMember) || !strings.Contains(err.Error(), `"ghost"`) {
			t.Fatalf("plan %v, err %v", plan, err)
		}
	})
	t.Run("the assignor's error fails Plan, wrapped and named once", func(t *testing.T) {
		errRange := errors.New("range: out of ideas")
		errNoPlan := errors.New("no plan today")
		for _, tc := range []struct {
			name   string
			a      assignor.Assignor
			member string
			is     error
			prefix string
		}{
			{"the adapter names an assignor whose error does not", &fixed{name: "mine", err: errNoPlan}, "m", errNoPlan, `saramaassignor: plan: "mine": `},
			{"the cooperative wrapper's error names the assignor itself", cooperative.Wrap(&fixed{name: "range", err: errRange}), "m", errRange, `saramaassignor: plan: cooperative: "cooperative-range": `},
		} {
			s := mustNew(t, tc.a, Config{})
			_, err := s.Plan(map[string]sarama.ConsumerGroupMemberMetadata{tc.member: {Topics: []string{"a"}}}, map[string][]int32{"a": {0}})
			if !errors.Is(err, tc.is) || !strings.HasPrefix(err.Error(), tc.prefix) || strings.Count(err.Error(), tc.a.Name()) != 1 {
				t.Errorf("%s: err = %v, want %v, beginning %s and naming the assignor once", tc.name, err, tc.is, tc.prefix)
			}
		}
	})
	t.Run("empty group", func(t *testing.T) {
		s := mustNew(t, roundrobin.New(), Config{})
		plan, err := s.Plan(nil, nil)
		if err != nil || len(plan) != 0 {
			t.Fatalf("plan %v, err %v", plan, err)
		}
	})
	t.Run("the assignor sees members sorted, whatever sarama's map order", func(t *testing.T) {
		f := &fixed{name: "x"}
		s := mustNew(t, f, Config{})
		if _, err := s.Plan(members, map[string][]int32{"b": {0}, "a": {0}}); err != nil {
			t.Fatal(err)
		}
		g := f.last()
		ids := []string{g.Members[0].ID, g.Members[1].ID, g.Members[2].ID}
		if !slices.IsSorted(ids) || g.Topics[0].Name != "a" {
			t.Fatalf("group order: members %v, first topic %q", ids, g.Topics[0].Name)
		}
	})
}

func TestRackByPrefix(t *testing.T) {
	rack := RackByPrefix(map[string]string{"app": "r1", "app-2": "r2", "svc.x": "r3"})
	for id, want := range map[string]string{
		"app-6f1e":          "r1", // client ID "app"
		"app-2-6f1e":        "r2", // the longest matching key wins
		"svc.x-1234":        "r3",
		"app":               "", // no separator
		"apple-1":           "",
		"other-app-2-6f1e":  "",
		"":                  "",
		"svc.x-uuid-suffix": "r3",
	} {
		if got := rack(id); got != want {
			t.Errorf("rack(%q) = %q, want %q", id, got, want)
		}
	}
}

// TestPlanMalformedUserData: one member's garbage user data costs it its
// history, never the rebalance, with this module's assignors (eager sticky
// reads it as history, cooperative-sticky as a generation below v2).
func TestPlanMalformedUserData(t *testing.T) {
	garbage := [][]byte{{0xff}, {0, 0, 0, 9, 1}, {0x7f, 0xff, 0xff, 0xff, 0, 0}, []byte("not kafka")}
	for _, a := range []assignor.Assignor{sticky.New(), cooperative.Wrap(sticky.New())} {
		for v := int16(0); v <= 3; v++ {
			for i, ud := range garbage {
				t.Run(fmt.Sprintf("%s/v%d/%d", a.Name(), v, i), func(t *testing.T) {
					s := mustNew(t, a, Config{Logger: discard})
					members := map[string]sarama.ConsumerGroupMemberMetadata{
						"bad":  {Version: v, Topics: []string{"t"}, UserData: ud, OwnedPartitions: owned("t", []int32{0, 1}), GenerationID: 3},
						"good": {Version: v, Topics: []string{"t"}, UserData: wire.CooperativeUserData(3), OwnedPartitions: owned("t", []int32{2, 3}), GenerationID: 3},
					}
					plan, err := s.Plan(members, map[string][]int32{"t": {0, 1, 2, 3}})
					if err != nil {
						t.Fatalf("Plan failed: %v", err)
					}
					n := len(plan["bad"]["t"]) + len(plan["good"]["t"])
					if n != 4 {
						t.Fatalf("plan %v assigns %d of 4 partitions", plan, n)
					}
				})
			}
		}
	}
}

// base returns the strategy under s's member-side hooks.
func base(s Strategy) *strategy {
	switch s := s.(type) {
	case *observerStrategy:
		return s.strategy
	case *memberStrategy:
		return s.strategy
	}
	return s.(*strategy)
}
