package kgoassignor

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/wire"
)

var (
	coopProtocols  = []assignor.Protocol{assignor.Cooperative, assignor.Eager}
	eagerProtocols = []assignor.Protocol{assignor.Eager}
)

func TestGroupMembers(t *testing.T) {
	v3owned := v3([]string{"t"}, tps("t", []int32{1, 0}), 4, []byte("ud"), "r1")
	stickyV1 := wire.StickyUserData{Owned: tps("t", []int32{0}), Generation: 3}.AppendTo(nil)
	for _, tc := range []struct {
		name      string
		protocols []assignor.Protocol
		cfg       Config
		gen       int32
		members   []kmsg.JoinGroupResponseMember
		want      []assignor.Member // the group the assignor sees
		wantIDs   []string          // who gets an assignment
		wantLogs  []string
	}{
		{
			name: "v3: topics, owned, generation, rack, user data and instance ID, as sent (claims canonical)",
			gen:  5, members: []kmsg.JoinGroupResponseMember{static(member("m", v3owned), "i")},
			want: []assignor.Member{{ID: "m", InstanceID: "i", Rack: "r1", Topics: []string{"t"}, Owned: tps("t", []int32{0, 1}), Generation: 4, UserData: []byte("ud")}},
		},
		{
			name: "v0: no owned partitions, no generation",
			gen:  5, members: []kmsg.JoinGroupResponseMember{member("m", wire.Subscription{Topics: []string{"t"}}.AppendTo(nil))},
			want: []assignor.Member{{ID: "m", Topics: []string{"t"}, Generation: -1}},
		},
		{
			name: "v1 and a cooperative assignor: the generation from the 4-byte user data (Java and sarama below Kafka 3.2)",
			gen:  5, protocols: coopProtocols,
			members: []kmsg.JoinGroupResponseMember{member("m", wire.Subscription{Version: 1, Topics: []string{"t"}, UserData: wire.CooperativeUserData(3), Owned: tps("t", []int32{0})}.AppendTo(nil))},
			want:    []assignor.Member{{ID: "m", Topics: []string{"t"}, Owned: tps("t", []int32{0}), Generation: 3, UserData: wire.CooperativeUserData(3)}},
		},
		{
			name: "v1, cooperative, sticky user data (ours with cooperative.Config.InnerUserData): its generation, not its topic count",
			gen:  5, protocols: coopProtocols,
			members: []kmsg.JoinGroupResponseMember{member("m", wire.Subscription{Version: 1, Topics: []string{"t"}, UserData: stickyV1, Owned: tps("t", []int32{0})}.AppendTo(nil))},
			want:    []assignor.Member{{ID: "m", Topics: []string{"t"}, Owned: tps("t", []int32{0}), Generation: 3, UserData: stickyV1}},
		},
		{
			name: "v1, cooperative, user data of neither layout: claims without a generation, logged",
			gen:  5, protocols: coopProtocols,
			members:  []kmsg.JoinGroupResponseMember{member("m", wire.Subscription{Version: 1, Topics: []string{"t"}, UserData: []byte{0, 0, 0, 0, 1}, Owned: tps("t", []int32{0})}.AppendTo(nil))},
			want:     []assignor.Member{{ID: "m", Topics: []string{"t"}, Owned: tps("t", []int32{0}), Generation: -1, UserData: []byte{0, 0, 0, 0, 1}}},
			wantLogs: []string{"user data unreadable; its claims count without a generation\" adapter=kgoassignor assignor=rec member=m bytes=5"},
		},
		{
			name: "v1 and an eager assignor: the user data stays opaque",
			gen:  5, protocols: eagerProtocols,
			members: []kmsg.JoinGroupResponseMember{member("m", wire.Subscription{Version: 1, Topics: []string{"t"}, UserData: wire.CooperativeUserData(3)}.AppendTo(nil))},
			want:    []assignor.Member{{ID: "m", Topics: []string{"t"}, Generation: -1, UserData: wire.CooperativeUserData(3)}},
		},
		{
			name: "v2, a negative generation reads as none",
			gen:  5, members: []kmsg.JoinGroupResponseMember{member("m", wire.Subscription{Version: 2, Topics: []string{"t"}, Generation: -9}.AppendTo(nil))},
			want: []assignor.Member{{ID: "m", Topics: []string{"t"}, Generation: -1}},
		},
		{
			name: "a future version with more fields reads as its v3 prefix",
			gen:  5, members: []kmsg.JoinGroupResponseMember{member("m", append(wire.Subscription{Version: 9, Topics: []string{"t"}, Generation: 2, Rack: "r"}.AppendTo(nil), 1, 2, 3, 4, 5))},
			want: []assignor.Member{{ID: "m", Rack: "r", Topics: []string{"t"}, Generation: 2}},
		},
		{
			name: "truncated inside the owned partitions: topics only, logged",
			gen:  5, members: []kmsg.JoinGroupResponseMember{member("m", v3owned[:len(v3owned)-12])},
			want:     []assignor.Member{{ID: "m", Topics: []string{"t"}, Generation: -1}},
			wantLogs: []string{"metadata unreadable; read as version 0", "member=m bytes="},
		},
		{
			name: "topics unreadable: assigned nothing, logged",
			gen:  5, members: []kmsg.JoinGroupResponseMember{member("bad", []byte{0, 3, 0x7f, 0xff, 0xff, 0xff}), member("m", v3owned)},
			want:     []assignor.Member{{ID: "m", Rack: "r1", Topics: []string{"t"}, Owned: tps("t", []int32{0, 1}), Generation: 4, UserData: []byte("ud")}},
			wantIDs:  []string{"bad", "m"},
			wantLogs: []string{"metadata unreadable; assigned nothing", "member=bad bytes=6"},
		},
		{
			name: "a claim at the generation being balanced into is impossible: history dropped",
			gen:  4, members: []kmsg.JoinGroupResponseMember{member("m", v3owned)},
			want:     []assignor.Member{{ID: "m", Rack: "r1", Topics: []string{"t"}, Generation: -1}},
			wantLogs: []string{"member=m partitions=2 claimed=4 generation=4"},
		},
		{
			name: "a claim far above it too (a well-formed hostile member)",
			gen:  4, members: []kmsg.JoinGroupResponseMember{member("m", v3([]string{"t"}, tps("t", []int32{0}), 1<<30, nil, ""))},
			want:     []assignor.Member{{ID: "m", Topics: []string{"t"}, Generation: -1}},
			wantLogs: []string{"claimed=1073741824 generation=4"},
		},
		{
			name: "generation unknown (no balance info): claims kept",
			gen:  0, members: []kmsg.JoinGroupResponseMember{member("m", v3owned)},
			want: []assignor.Member{{ID: "m", Rack: "r1", Topics: []string{"t"}, Owned: tps("t", []int32{0, 1}), Generation: 4, UserData: []byte("ud")}},
		},
		{
			name: "MemberRack for members without a v3 rack; a v3 rack wins",
			gen:  5, cfg: Config{MemberRack: func(id, instance string) string { return "cfg-" + id + "-" + instance }},
			members: []kmsg.JoinGroupResponseMember{static(member("a", wire.Subscription{Version: 2, Topics: []string{"t"}}.AppendTo(nil)), "ia"), member("m", v3owned)},
			want: []assignor.Member{{ID: "a", InstanceID: "ia", Rack: "cfg-a-ia", Topics: []string{"t"}},
				{ID: "m", Rack: "r1", Topics: []string{"t"}, Owned: tps("t", []int32{0, 1}), Generation: 4, UserData: []byte("ud")}},
		},
		{
			name: "an empty topic name is ignored, logged",
			gen:  5, members: []kmsg.JoinGroupResponseMember{member("m", wire.Subscription{Topics: []string{"", "t"}}.AppendTo(nil))},
			want:     []assignor.Member{{ID: "m", Topics: []string{"t"}, Generation: -1}},
			wantLogs: []string{"subscription names an empty topic; ignored"},
		},
		{
			name: "an empty member ID: not in the group, no assignment, logged",
			gen:  5, members: []kmsg.JoinGroupResponseMember{member("", v3owned), member("m", v3owned)},
			want:     []assignor.Member{{ID: "m", Rack: "r1", Topics: []string{"t"}, Owned: tps("t", []int32{0, 1}), Generation: 4, UserData: []byte("ud")}},
			wantIDs:  []string{"m"},
			wantLogs: []string{"a member has an empty member ID"},
		},
		{
			name: "a duplicate member ID: no copy in the group, one empty assignment, logged once",
			gen:  5, members: []kmsg.JoinGroupResponseMember{member("d", v3owned), member("m", v3owned), member("d", v3owned)},
			want:     []assignor.Member{{ID: "m", Rack: "r1", Topics: []string{"t"}, Owned: tps("t", []int32{0, 1}), Generation: 4, UserData: []byte("ud")}},
			wantIDs:  []string{"d", "m"},
			wantLogs: []string{"member=d times=2"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l logs
			rec := &recorder{name: "rec", protocols: tc.protocols}
			cfg := tc.cfg
			cfg.Logger = l.logger()
			b, _ := New(rec, cfg)
			sas := balanceInto(t, b, tc.gen, counts("t", 2), tc.members)
			if got := rec.last(t).Members; !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("members\n got %#v\nwant %#v", got, tc.want)
			}
			wantIDs := tc.wantIDs
			if wantIDs == nil {
				for _, m := range tc.want {
					wantIDs = append(wantIDs, m.ID)
				}
			}
			var ids []string
			for _, sa := range sas {
				ids = append(ids, sa.MemberID)
			}
			if !slices.Equal(ids, wantIDs) {
				t.Fatalf("assignments for %q, want %q", ids, wantIDs)
			}
			for _, want := range tc.wantLogs {
				if l.count(want) != 1 {
					t.Errorf("want one log line with %q, got %q", want, l.all())
				}
			}
			if len(tc.wantLogs) == 0 && len(l.all()) > 0 {
				t.Errorf("unexpected log lines %q", l.all())
			}
		})
	}
}

func TestMemberBalancerTopics(t *testing.T) {
	b, _ := New(&recorder{name: "rec"}, Config{})
	members := []kmsg.JoinGroupResponseMember{
		member("a", v3([]string{"x", "y"}, nil, -1, nil, "")),
		member("b", v3([]string{"y", "z"}, nil, -1, nil, "")),
		member("", v3([]string{"only-excluded"}, nil, -1, nil, "")),
		member("c", []byte{0xff}),
	}
	_, topics, err := b.MemberBalancer(members)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{}{"x": {}, "y": {}, "z": {}}
	if !reflect.DeepEqual(topics, want) {
		t.Fatalf("topics = %v, want %v (members assigned nothing need no metadata)", topics, want)
	}
}

func TestGroupTopics(t *testing.T) {
	str := func(s string) *string { return &s }
	info := kgo.BalanceInfo{
		Generation: 3,
		Topics: func() map[string]kgo.TopicMetadata {
			return map[string]kgo.TopicMetadata{"t": {Topic: "t", Partitions: []kgo.PartitionMetadata{
				{Partition: 0, Replicas: []int32{1, 2, 3}},
				{Partition: 1, Replicas: []int32{3}},
				// partition 2 is not in the cache
			}}}
		},
		Brokers: func() map[int32]kgo.BrokerMetadata {
			return map[int32]kgo.BrokerMetadata{1: {NodeID: 1, Rack: str("r1")}, 2: {NodeID: 2, Rack: str("r2")}, 3: {NodeID: 3, Rack: str("r1")}}
		},
	}
	counts := counts("t", 3, "u", 1, "", 4, "neg", -1, "empty", 0)
	for _, tc := range []struct {
		name       string
		memberRack string
		cfg        Config
		want       []assignor.Topic
	}{
		{
			name: "no member rack: no replica racks (kgo's snapshot is not built)",
			want: []assignor.Topic{{Name: "empty"}, {Name: "t", Partitions: []int32{0, 1, 2}}, {Name: "u", Partitions: []int32{0}}},
		},
		{
			name:       "a member rack: each partition's replica racks from kgo's cache, deduplicated; unknown partitions and topics have none",
			memberRack: "r1",
			want: []assignor.Topic{{Name: "empty"}, {Name: "t", Partitions: []int32{0, 1, 2}, ReplicaRacks: [][]string{{"r1", "r2"}, {"r1"}, nil}},
				{Name: "u", Partitions: []int32{0}}},
		},
		{
			name:       "Config.ReplicaRacks overrides kgo's",
			memberRack: "r1", cfg: Config{ReplicaRacks: func(topic string, p int32) []string {
				if topic == "u" {
					return []string{"cfg"}
				}
				return nil
			}},
			want: []assignor.Topic{{Name: "empty"}, {Name: "t", Partitions: []int32{0, 1, 2}}, {Name: "u", Partitions: []int32{0}, ReplicaRacks: [][]string{{"cfg"}}}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{name: "rec"}
			b, _ := New(rec, tc.cfg)
			mb, _, _ := b.MemberBalancer([]kmsg.JoinGroupResponseMember{member("m", v3([]string{"t", "u"}, nil, -1, nil, tc.memberRack))})
			mb.(kgo.GroupMemberBalancerInfo).SetBalanceInfo(info)
			if _, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(counts); err != nil {
				t.Fatal(err)
			}
			if got := rec.last(t).Topics; !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("topics\n got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func TestBalanceOrErrorFails(t *testing.T) {
	cause := errors.New("no plan today")
	b, _ := New(&recorder{name: "rec", err: cause}, Config{})
	mb, _, _ := b.MemberBalancer([]kmsg.JoinGroupResponseMember{member("m", v3([]string{"t"}, nil, -1, nil, ""))})
	mb.(kgo.GroupMemberBalancerInfo).SetBalanceInfo(kgo.BalanceInfo{Generation: 12})
	into, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(counts("t", 1))
	if !errors.Is(err, cause) || into != nil {
		t.Fatalf("BalanceOrError = %v, %v; want the assignor's error", into, err)
	}
	if want := "kgoassignor: rec: generation 12: no plan today"; err.Error() != want {
		t.Fatalf("error %q, want %q", err, want)
	}
	if got := mb.Balance(counts("t", 1)); got != nil {
		t.Fatalf("Balance on failure = %v, want nil (which kgo refuses)", got)
	}
}

func TestSyncAssignments(t *testing.T) {
	for _, tc := range []struct {
		name    string
		plan    assignor.Plan
		want    string
		wantErr []error
	}{
		{
			name: "an unsorted plan with duplicate topics is sent canonical",
			plan: assignor.Plan{Members: []assignor.MemberPlan{{Member: "b", Assigned: tps("u", []int32{0}, "t", []int32{1, 0}, "u", []int32{0})}, {Member: "a"}}},
			want: "a:\nb: t[0 1] u[0]",
		},
		// A plan that breaks the rules is refused: no assignment is safer
		// than one the leader cannot vouch for.
		{
			name:    "a plan without an entry for a member is refused",
			plan:    assignor.Plan{Members: []assignor.MemberPlan{{Member: "a", Assigned: tps("t", []int32{0, 1})}}},
			wantErr: []error{assignor.ErrMissingMember},
		},
		{
			name:    "a plan entry for a member not in the group is refused",
			plan:    assignor.Plan{Members: []assignor.MemberPlan{{Member: "a"}, {Member: "b"}, {Member: "ghost", Assigned: tps("t", []int32{0})}}},
			wantErr: []error{assignor.ErrUnknownMember},
		},
		{
			name:    "two entries for one member are refused",
			plan:    assignor.Plan{Members: []assignor.MemberPlan{{Member: "a", Assigned: tps("t", []int32{1})}, {Member: "a", Assigned: tps("t", []int32{0}, "u", []int32{0})}, {Member: "b"}}},
			wantErr: []error{assignor.ErrDuplicateMember},
		},
		{
			name:    "a partition given twice is refused",
			plan:    assignor.Plan{Members: []assignor.MemberPlan{{Member: "a", Assigned: tps("t", []int32{1})}, {Member: "b", Assigned: tps("t", []int32{1})}}},
			wantErr: []error{assignor.ErrAssignedTwice},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{name: "rec", plan: func(assignor.Group) assignor.Plan { return tc.plan }}
			b, _ := New(rec, Config{Logger: discard})
			members := []kmsg.JoinGroupResponseMember{
				member("b", v3([]string{"t", "u"}, nil, -1, nil, "")), member("a", v3([]string{"t", "u"}, nil, -1, nil, "")),
			}
			if tc.wantErr != nil {
				mb, _, _ := b.MemberBalancer(members)
				_, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(counts("t", 2, "u", 1))
				for _, want := range tc.wantErr {
					if !errors.Is(err, want) {
						t.Fatalf("error %v, want %v", err, want)
					}
				}
				return
			}
			sas := balanceInto(t, b, 2, counts("t", 2, "u", 1), members)
			if got := render(decoded(t, sas)); got != tc.want {
				t.Fatalf("assignments\n%s\nwant\n%s", got, tc.want)
			}
			for i, sa := range sas {
				if a, _ := wire.DecodeAssignment(sa.MemberAssignment); a.Version != 3 {
					t.Fatalf("assignment version %d, want 3 (Java's)", a.Version)
				}
				if i > 0 && sas[i-1].MemberID >= sa.MemberID {
					t.Fatal("assignments not sorted by member ID")
				}
			}
		})
	}
}

func TestWithholdExcludedClaims(t *testing.T) {
	// "d" is listed twice (a broker bug), so it is assigned nothing; it
	// claims t[0 1] at generation 4. "b" claims t[1] at generation 5, so
	// d's claim on t[1] is stale.
	members := []kmsg.JoinGroupResponseMember{
		member("a", v3([]string{"t"}, nil, -1, nil, "")),
		member("b", v3([]string{"t"}, tps("t", []int32{1}), 5, nil, "")),
		member("d", v3([]string{"t"}, tps("t", []int32{0, 1}), 4, nil, "")),
		member("d", v3([]string{"t"}, nil, -1, nil, "")),
	}
	everything := func(g assignor.Group) assignor.Plan {
		return assignor.Plan{Members: []assignor.MemberPlan{{Member: "a", Assigned: tps("t", []int32{0, 2})}, {Member: "b", Assigned: tps("t", []int32{1})}}}
	}
	for _, tc := range []struct {
		name      string
		protocols []assignor.Protocol
		want      string
	}{
		{"cooperative: d's current claim is withheld from a, its stale claim is not", coopProtocols, "a: t[2]\nb: t[1]\nd:"},
		{"eager: every member revoked before joining, nothing to withhold", eagerProtocols, "a: t[0 2]\nb: t[1]\nd:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l logs
			b, _ := New(&recorder{name: "rec", protocols: tc.protocols, plan: everything}, Config{Logger: l.logger()})
			if got := render(decoded(t, balanceInto(t, b, 6, counts("t", 3), members))); got != tc.want {
				t.Fatalf("assignments\n%s\nwant\n%s", got, tc.want)
			}
			if withheld := l.count("could not fully read may still hold, until they revoke them\" adapter=kgoassignor assignor=rec partitions=1"); (tc.protocols[0] == assignor.Cooperative) != (withheld == 1) {
				t.Fatalf("logs %q", l.all())
			}
		})
	}

	t.Run("with our cooperative-sticky: nobody gets what d holds until d revokes it", func(t *testing.T) {
		b, _ := New(cooperative.Wrap(sticky.New()), Config{})
		got := decoded(t, balanceInto(t, b, 6, counts("t", 3), members))
		for id, a := range got {
			for _, tp := range a.Partitions {
				if slices.Contains(tp.Partitions, 0) {
					t.Fatalf("member %s was given t/0, which d still holds: %s", id, render(got))
				}
			}
		}
		if !strings.Contains(render(got), "b: t[1]") {
			t.Fatalf("b lost the partition it validly owns: %s", render(got))
		}
	})
}
