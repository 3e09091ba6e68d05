package kgoassignor

import (
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/wire"
)

// innerUserDataSub is the subscription of a member of
// cooperative.WrapWithConfig(sticky.New(), {InnerUserData: true}) that owns
// topic's partitions at gen: version v, sticky's user data.
func innerUserDataSub(t *testing.T, v int16, topics []string, topic string, gen int32, partitions ...int32) []byte {
	t.Helper()
	owned := tps(topic, partitions)
	w := cooperative.WrapWithConfig(sticky.New(), cooperative.Config{InnerUserData: true}).(assignor.SubscriptionUserDataAssignor)
	data, err := w.SubscriptionUserData(assignor.MemberState{Topics: topics, Owned: owned, Generation: gen})
	if err != nil {
		t.Fatal(err)
	}
	return wire.Subscription{Version: v, Topics: topics, Owned: owned, Generation: gen, UserData: data}.AppendTo(nil)
}

// TestInnerUserDataWithV1Members: members below subscription v2 running
// our wrapper with InnerUserData carry their generation only in sticky's
// user data. a owns orders at generation 5; b, evicted at generation 3,
// still claims orders/0 but now reads audit only. Our leader reads both
// generations, so b's claim is stale, not a tie, and a keeps orders/0.
// Read as a tie (before issue 17), orders/0 was withheld from a for a round.
func TestInnerUserDataWithV1Members(t *testing.T) {
	var l logs
	b, err := New(cooperative.WrapWithConfig(sticky.New(), cooperative.Config{InnerUserData: true}), Config{Logger: l.logger()})
	if err != nil {
		t.Fatal(err)
	}
	got := render(decoded(t, balanceInto(t, b, 6, counts("orders", 2, "audit", 1), []kmsg.JoinGroupResponseMember{
		member("a", innerUserDataSub(t, 1, []string{"orders"}, "orders", 5, 0, 1)),
		member("b", innerUserDataSub(t, 1, []string{"audit"}, "orders", 3, 0)),
	})))
	if want := "a: orders[0 1]\nb: audit[0]"; got != want {
		t.Errorf("plan\n%s\nwant\n%s", got, want)
	}
	if lines := l.all(); len(lines) > 0 {
		t.Errorf("logged %q", lines)
	}
}

// TestStaleClaimUnderEachLeader: a owns orders/0 and orders/1 at generation
// 5; b, evicted at generation 3, rejoins claiming orders/0. Under our leader
// b may get orders/0 only once a has revoked it (the next round), whatever
// the subscription version. kgo's leader (v1.22.3) withholds it too when
// the generations come in subscription v2, but with v1 members its guard
// (AdjustCooperative's maxClaim) reads no generation, b's stale claim hides
// the move, and b gets orders/0 at once, while a still holds it
// (docs/franzgo.md, docs/compatibility.md). If kgo changes, this test says
// so.
func TestStaleClaimUnderEachLeader(t *testing.T) {
	for _, tt := range []struct {
		name      string
		leader    func() kgo.GroupBalancer
		version   int16
		handedToB bool // b gets orders/0 while a holds it
	}{
		{"ours, v1", func() kgo.GroupBalancer { return CooperativeSticky() }, 1, false},
		{"ours, v2", func() kgo.GroupBalancer { return CooperativeSticky() }, 2, false},
		{"kgo's cooperative-sticky, v1", kgo.CooperativeStickyBalancer, 1, true},
		{"kgo's cooperative-sticky, v2", kgo.CooperativeStickyBalancer, 2, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			members := []kmsg.JoinGroupResponseMember{
				member("a", innerUserDataSub(t, tt.version, []string{"orders"}, "orders", 5, 0, 1)),
				member("b", innerUserDataSub(t, tt.version, []string{"orders"}, "orders", 3, 0)),
			}
			mb, _, err := tt.leader().MemberBalancer(members)
			if err != nil {
				t.Fatal(err)
			}
			if info, ok := mb.(kgo.GroupMemberBalancerInfo); ok {
				info.SetBalanceInfo(kgo.BalanceInfo{Generation: 6})
			}
			into, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(counts("orders", 2))
			if err != nil {
				t.Fatal(err)
			}
			plan := decoded(t, into.IntoSyncAssignment())
			handed := slices.ContainsFunc(plan["b"].Partitions, func(tp assignor.TopicPartitions) bool {
				return tp.Topic == "orders" && slices.Contains(tp.Partitions, 0)
			})
			if handed != tt.handedToB {
				t.Errorf("b gets orders/0 while a holds it: %v, want %v\n%s", handed, tt.handedToB, render(plan))
			}
		})
	}
}
