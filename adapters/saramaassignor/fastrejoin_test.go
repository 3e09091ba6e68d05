package saramaassignor

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/rebalance"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/wire"
)

// withholdingPlan gives m0 a[0] and m1 nothing, withholds the rest
// (FollowUp), with the assignor's own user data "inner" for each member.
var withholdingPlan = assignor.Plan{FollowUp: true, Members: []assignor.MemberPlan{
	{Member: "m0", Assigned: []assignor.TopicPartitions{{Topic: "a", Partitions: []int32{0}}}, UserData: []byte("inner")},
	{Member: "m1", UserData: []byte("inner")},
}}

// TestLeaderMarksWithholdingPlans pins the sarama leader's side of fast
// re-join: every assignment of a cooperative plan that withholds is marked
// around the assignor's own user data; sarama's strict decoder reads it
// back whole (the mark lives inside the user data), and sarama's own
// cooperative-sticky member ignores it (its next subscription user data is
// its generation). Never in an eager plan, never for a cooperative assignor
// whose sarama members copy assignment user data into their next
// subscription (no subscription hook), never with the switch off.
func TestLeaderMarksWithholdingPlans(t *testing.T) {
	members := map[string]sarama.ConsumerGroupMemberMetadata{
		"m0": {Version: 2, Topics: []string{"a"}, OwnedPartitions: owned("a", []int32{0, 1, 2, 3}), GenerationID: 4},
		"m1": {Version: 2, Topics: []string{"a"}, GenerationID: -1},
	}
	coop := []assignor.Protocol{assignor.Cooperative, assignor.Eager}
	tests := []struct {
		name   string
		a      assignor.Assignor
		cfg    Config
		marked bool
		inner  string
	}{
		{"cooperative-sticky, a member joins: marked", cooperative.Wrap(sticky.New()), Config{}, true, ""},
		{"the assignor's own user data rides inside", &subscriber{fixed: &fixed{name: "x", plan: withholdingPlan, protocols: coop}}, Config{}, true, "inner"},
		{"DisableFastRejoin: not marked", cooperative.Wrap(sticky.New()), Config{DisableFastRejoin: true}, false, ""},
		{"never in an eager plan", &subscriber{fixed: &fixed{name: "x", plan: withholdingPlan, protocols: []assignor.Protocol{assignor.Eager}}}, Config{}, false, "inner"},
		{"never for a cooperative assignor without a subscription hook (sarama would echo it)", &fixed{name: "x", plan: withholdingPlan, protocols: coop}, Config{}, false, "inner"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustNew(t, tt.a, tt.cfg)
			plan, err := s.Plan(members, map[string][]int32{"a": {0, 1, 2, 3}})
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range []string{"m0", "m1"} {
				ud, _ := s.AssignmentData(id, plan[id], 5)
				own, rejoin, err := rebalance.ReadUserData(ud)
				if err != nil || rejoin != tt.marked || string(own) != tt.inner {
					t.Fatalf("%s: user data % x reads %q marked=%v, %v; want marked=%v around %q", id, ud, own, rejoin, err, tt.marked, tt.inner)
				}
				// As sarama's leader sends it and its members decode it.
				req := &sarama.SyncGroupRequest{}
				if err := req.AddGroupAssignmentMember(id, &sarama.ConsumerGroupMemberAssignment{Topics: plan[id], UserData: ud}); err != nil {
					t.Fatal(err)
				}
				got, err := (&sarama.SyncGroupResponse{MemberAssignment: req.GroupAssignments[0].Assignment}).GetMemberAssignment()
				if err != nil || !bytes.Equal(got.UserData, ud) || !assignor.EqualTopicPartitions(assignor.TopicPartitionsFromMap(got.Topics), assignor.TopicPartitionsFromMap(plan[id])) {
					t.Fatalf("%s: sarama decodes %+v, %v", id, got, err)
				}
				native := sarama.NewBalanceStrategyCooperativeSticky()
				native.(sarama.OnAssignmentBalanceStrategy).OnAssignment(got, 5)
				sub, _ := native.(sarama.SubscriptionUserDataBalanceStrategy).SubscriptionUserData([]string{"a"})
				if !bytes.Equal(sub, wire.CooperativeUserData(5)) {
					t.Fatalf("%s: sarama's cooperative-sticky then subscribes with % x, want its generation", id, sub)
				}
			}
		})
	}
}

// TestMemberSeesItsOwnUserData: the assignor's OnAssignment sees its own
// assignment user data, without the envelope, through both member-side
// strategies; a malformed envelope is handed on as it is, and logged.
func TestMemberSeesItsOwnUserData(t *testing.T) {
	marked := rebalance.Assignment{UserData: []byte("inner"), Rejoin: true}.AppendUserData(nil)
	bad := []byte{0xFE, 'F', 'R', 'J', 0}
	for _, tc := range []struct {
		name string
		ud   []byte
		want string
		log  string
	}{
		{"marked", marked, `g7 a[1] ud="inner"`, ""},
		{"unmarked", []byte("inner"), `g7 a[1] ud="inner"`, ""},
		{"malformed envelope: as it is", bad, `g7 a[1] ud="\xfeFRJ\x00"`, "rejoin envelope version at byte 4"},
	} {
		for _, kind := range []string{"observer", "both hooks"} {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				var l logs
				cfg := Config{Logger: l.logger()}
				o := &observer{fixed: &fixed{name: "x"}}
				var a assignor.Assignor = o
				if kind == "both hooks" {
					a = &both{subscriber: &subscriber{fixed: o.fixed}, observer: o}
				}
				s := mustNew(t, a, cfg).(sarama.OnAssignmentBalanceStrategy)
				s.OnAssignment(&sarama.ConsumerGroupMemberAssignment{Topics: map[string][]int32{"a": {1}}, UserData: tc.ud}, 7)
				if !reflect.DeepEqual(o.seen, []string{tc.want}) {
					t.Fatalf("observed %q, want %q", o.seen, tc.want)
				}
				if logs := l.all(); (tc.log == "") != (len(logs) == 0) || tc.log != "" && l.count(tc.log) != 1 {
					t.Fatalf("logs %q, want %q", logs, tc.log)
				}
			})
		}
	}
}
