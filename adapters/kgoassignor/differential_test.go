package kgoassignor

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

// The leader path runs on the rebalance kit: members read straight into an
// assignor.IndexBuilder, the assignor on its flat path, assignments encoded
// from flat form; legacyLeader is the path as it was, through an
// assignor.Group. On any group, both must send the same bytes and fail
// with the same error. (Their log lines differ in text: the leader path's
// are checked by the tests of each case.)

// diffAssignors are the assignors the differential test draws from: flat
// assignors, eager and cooperative, and plain assignors (recorders) whose
// plans are valid but odd on purpose: unsorted and repeated partitions,
// split and empty entries, user data, or an error. (A plan that breaks the
// rules, which the old path sent as it could, the leader path refuses:
// TestInvalidPlanRefused.)
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

// oddPlan gives each partition of a subscribed topic to one of its
// subscribers (by partition number), in lists as odd as a plan may have
// them: topics and partitions in reverse order, each partition twice, an
// empty entry, and user data. It is a valid plan, in any order.
func oddPlan(g assignor.Group) assignor.Plan {
	var p assignor.Plan
	given := map[string][]assignor.TopicPartitions{}
	for _, t := range g.Topics {
		var subs []string
		for _, m := range g.Members {
			if slices.Contains(m.Topics, t.Name) {
				subs = append(subs, m.ID)
			}
		}
		slices.Sort(subs)
		for _, id := range t.Partitions {
			if len(subs) > 0 {
				m := subs[int(id)%len(subs)]
				given[m] = append(given[m], assignor.TopicPartitions{Topic: t.Name, Partitions: []int32{id, id}})
			}
		}
	}
	for _, m := range g.Members {
		lists := given[m.ID]
		slices.Reverse(lists)
		p.Members = append(p.Members, assignor.MemberPlan{Member: m.ID, Assigned: append(lists, assignor.TopicPartitions{Topic: "t0"}), UserData: []byte(m.ID)})
	}
	p.FollowUp = len(g.Members) > 1
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
		var stats Stats
		run := func(lead func(*Balancer) (kgo.IntoSyncAssignment, error)) ([]kmsg.SyncGroupRequestGroupAssignment, error) {
			b := build(a, Config{Logger: discard, ReplicaRacks: racks, DisableFastRejoin: disable, OnRebalance: func(s Stats) { stats = s }})
			into, err := lead(b)
			if err != nil {
				return nil, err
			}
			return into.IntoSyncAssignment(), nil
		}
		info := kgo.BalanceInfo{Generation: gen}
		want, wantErr := run(func(b *Balancer) (kgo.IntoSyncAssignment, error) {
			mb, _ := b.legacyMemberBalancer(members)
			mb.SetBalanceInfo(info)
			return mb.BalanceOrError(maps.Clone(cnt))
		})
		got, gotErr := run(func(b *Balancer) (kgo.IntoSyncAssignment, error) {
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
		if stats.ClaimsUnknown > 0 && assignor.Supports(a, assignor.Cooperative) && gotErr == nil {
			// New since the old path: the garbage member's claims are
			// unknown and the balancer has no last plan, so every
			// partition no readable member claims is withheld. Each member
			// gets at most what the old path gave it.
			g, w := decoded(t, got), decoded(t, want)
			for id, ga := range g {
				if !assignor.EqualTopicPartitions(assignor.IntersectTopicPartitions(ga.Partitions, w[id].Partitions), assignor.NormalizeTopicPartitions(ga.Partitions)) {
					rt.Fatalf("%s got %s, more than the old path's %s", id, assignor.FormatTopicPartitions(ga.Partitions), assignor.FormatTopicPartitions(w[id].Partitions))
				}
			}
		} else if !sameAssignments(got, want) {
			rt.Fatalf("assignments\n%s\nthe old path's\n%s", render(decoded(t, got)), render(decoded(t, want)))
		}
		if r, ok := a.(*recorder); ok { // a Group assignor: the same Group, claims canonical
			if len(r.got) != 2 || !slices.EqualFunc(r.got[1].Members, r.got[0].Members, sameMember) ||
				!reflect.DeepEqual(r.got[1].Topics, r.got[0].Topics) {
				rt.Fatalf("the assignor got %d groups, want 2 equal ones:\n%#v", len(r.got), r.got)
			}
		}
	})
}

// sameMember reports whether x and y are the same member, their claims
// compared as sets.
func sameMember(x, y assignor.Member) bool {
	ox, oy := x.Owned, y.Owned
	x.Owned, y.Owned = nil, nil
	return reflect.DeepEqual(x, y) && assignor.EqualTopicPartitions(ox, oy)
}
