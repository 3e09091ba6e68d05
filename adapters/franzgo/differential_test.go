package franzgo

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
)

// The leader path reads members straight into an assignor.IndexBuilder and
// encodes from the plan's own lists; legacyLeader is the path as it was,
// through an assignor.Group. On any group, both must send the same bytes,
// fail with the same error and log the same lines, in the same order.

// diffAssignors are the assignors the differential test draws from: index
// assignors, eager and cooperative, and plain assignors (recorders) whose
// plans are odd on purpose: unsorted and repeated partitions, entries for
// unknown members, members listed twice, user data, or an error.
func diffAssignor(t *rapid.T) assignor.Assignor {
	coop := []assignor.Protocol{assignor.Cooperative, assignor.Eager}
	switch rapid.IntRange(0, 5).Draw(t, "assignor") {
	case 0:
		return cooperative.Wrap(sticky.New())
	case 1:
		return sticky.New()
	case 2:
		return cooperative.Wrap(roundrobin.New())
	case 3:
		return &recorder{name: "odd", protocols: coop, plan: oddPlan}
	case 4:
		return &recorder{name: "odd-eager", protocols: []assignor.Protocol{assignor.Eager}, plan: oddPlan}
	default:
		return &recorder{name: "failing", protocols: coop, err: fmt.Errorf("no plan for this group")}
	}
}

// oddPlan gives every member the partitions of its first topic in reverse
// order, twice, lists the first member twice (the second entry with
// another topic and user data) and names a member that is not in the group.
func oddPlan(g assignor.Group) assignor.Plan {
	var p assignor.Plan
	for _, m := range g.Members {
		mp := assignor.MemberPlan{Member: m.ID, UserData: []byte(m.ID)}
		if len(m.Topics) > 0 {
			ps := []int32{3, 2, 1, 2}
			mp.Assigned = []assignor.TopicPartitions{{Topic: m.Topics[len(m.Topics)-1], Partitions: ps}, {Topic: m.Topics[0], Partitions: []int32{0}}}
		}
		p.Members = append(p.Members, mp)
	}
	if len(g.Members) > 0 {
		first := g.Members[0]
		p.Members = append(p.Members, assignor.MemberPlan{Member: first.ID, Assigned: []assignor.TopicPartitions{{Topic: "t9", Partitions: []int32{5}}}, UserData: []byte("again")})
		p.FollowUp = true
	}
	p.Members = append(p.Members, assignor.MemberPlan{Member: "nobody", Assigned: []assignor.TopicPartitions{{Topic: "t0", Partitions: []int32{1}}}})
	return p
}

// diffHostile adds members the group must survive: a copy of a member's ID
// with other bytes, an empty member ID, a subscription that repeats a
// topic and a claim, and bytes that do not decode.
func diffHostile(t *rapid.T, members []kmsg.JoinGroupResponseMember) []kmsg.JoinGroupResponseMember {
	if rapid.Bool().Draw(t, "duplicate") {
		dup := members[rapid.IntRange(0, len(members)-1).Draw(t, "duplicated")]
		members = append(members, member(dup.MemberID, v3([]string{"t1"}, tps("t1", []int32{0, 1}), 1, nil, "")))
	}
	if rapid.Bool().Draw(t, "empty id") {
		members = append(members, member("", v3([]string{"t0"}, tps("t0", []int32{2}), 1, nil, "")))
	}
	if rapid.Bool().Draw(t, "repeats") { // a topic listed twice, claims repeated
		owned := append(tps("t0", []int32{1, 1}), tps("t0", []int32{1, 4})...)
		members = append(members, member("r", v3([]string{"t0", "t1", "t0"}, owned, 1, nil, "")))
	}
	if rapid.Bool().Draw(t, "garbage") {
		meta := rapid.SliceOfN(rapid.Byte(), 0, 24).Draw(t, "garbage bytes")
		members = append(members, member("g", meta))
	}
	return members
}

func TestLeaderDifferential(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		members, cnt, gen := genJoin(rt)
		members = kgoOrder(diffHostile(rt, members))
		a := diffAssignor(rt)
		var racks func(string, int32) []string
		if rapid.Bool().Draw(rt, "replica racks") {
			racks = func(topic string, p int32) []string { return []string{fmt.Sprintf("r%d", int(p)%3)} }
		}
		disable := rapid.Bool().Draw(rt, "fast rejoin off")
		run := func(lead func(*Balancer) (kgo.IntoSyncAssignment, error)) ([]kmsg.SyncGroupRequestGroupAssignment, error, []string) {
			var l logs
			b := build(a, Config{Logf: l.logf, ReplicaRacks: racks, DisableFastRejoin: disable})
			into, err := lead(b)
			if err != nil {
				return nil, err, l.all()
			}
			return into.IntoSyncAssignment(), nil, l.all()
		}
		info := kgo.BalanceInfo{Generation: gen}
		want, wantErr, wantLogs := run(func(b *Balancer) (kgo.IntoSyncAssignment, error) {
			mb, _ := b.legacyMemberBalancer(members)
			mb.SetBalanceInfo(info)
			return mb.BalanceOrError(maps.Clone(cnt))
		})
		got, gotErr, gotLogs := run(func(b *Balancer) (kgo.IntoSyncAssignment, error) {
			mb, _, err := b.MemberBalancer(members)
			if err != nil {
				return nil, err
			}
			mb.(kgo.GroupMemberBalancerInfo).SetBalanceInfo(info)
			return mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(maps.Clone(cnt))
		})
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			rt.Fatalf("error %v, the old path's %v", gotErr, wantErr)
		}
		if !slices.Equal(gotLogs, wantLogs) {
			rt.Fatalf("logs\n%q\nthe old path's\n%q", gotLogs, wantLogs)
		}
		if !sameAssignments(got, want) {
			rt.Fatalf("assignments\n%s\nthe old path's\n%s", render(decoded(t, got)), render(decoded(t, want)))
		}
		if r, ok := a.(*recorder); ok { // a Group assignor: the same Group, owned partitions included
			if len(r.got) != 2 || !slices.EqualFunc(r.got[1].Members, r.got[0].Members, func(x, y assignor.Member) bool { return reflect.DeepEqual(x, y) }) ||
				!reflect.DeepEqual(r.got[1].Topics, r.got[0].Topics) {
				rt.Fatalf("the assignor got %d groups, want 2 equal ones:\n%#v", len(r.got), r.got)
			}
		}
	})
}

// A group the index refuses goes to the assignor as a Group, so the error
// is the assignor's own, as it was. MemberBalancer never builds such a
// group (it assigns nothing to an empty or repeated member ID); the
// balance is given one directly.
func TestAssignIndexRefusedReadsAsAssign(t *testing.T) {
	a := cooperative.Wrap(sticky.New())
	members := []assignor.Member{{ID: "a", Topics: []string{"t"}}, {ID: "a", Topics: []string{"t"}}}
	topics := []assignor.Topic{{Name: "t", Partitions: []int32{0, 1}}}
	if _, err := assignor.NewIndex(assignor.Group{Members: members, Topics: topics}); err == nil {
		t.Fatal("the index takes a repeated member ID; this test needs a group it refuses")
	}
	_, want := a.Assign(assignor.Group{Members: members, Topics: topics})
	mb := &memberBalancer{b: build(a, Config{}), members: members}
	_, got := mb.assign(topics)
	if want == nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("error %v, want the assignor's own %v", got, want)
	}
}
