package kgoassignor

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/rebalance"
	"github.com/kgroup/assignor/wire"
)

// The assignment bytes are a function of the plan alone: kgo compares the
// bytes a restarted static leader recomputes with the broker's copy
// (KIP-814) under the name cooperative-sticky, and any difference costs the
// group a rebalance.

var genTopicNames = []string{"t0", "t1", "t2"}

// genJoin draws a JoinGroup response: members of every client kind, with
// random subscriptions, overlapping and stale claims (some impossible),
// instance IDs and racks; and kgo's partition counts.
func genJoin(t *rapid.T) ([]kmsg.JoinGroupResponseMember, map[string]int32, int32) {
	gen := rapid.Int32Range(1, 9).Draw(t, "generation")
	counts := make(map[string]int32)
	for _, name := range genTopicNames {
		counts[name] = int32(rapid.IntRange(0, 12).Draw(t, name+" partitions"))
	}
	var members []kmsg.JoinGroupResponseMember
	for i := range rapid.IntRange(1, 7).Draw(t, "members") {
		id := fmt.Sprintf("m%d", i)
		topics := rapid.SliceOfNDistinct(rapid.SampledFrom(genTopicNames), 1, 3, rapid.ID[string]).Draw(t, id+" topics")
		slices.Sort(topics)
		owned := make(map[string][]int32)
		for _, topic := range topics {
			ps := rapid.SliceOfNDistinct(rapid.Int32Range(0, 13), 0, 4, rapid.ID[int32]).Draw(t, id+" "+topic)
			if len(ps) > 0 {
				owned[topic] = ps
			}
		}
		claimGen := rapid.Int32Range(-1, gen+1).Draw(t, id+" claim generation")
		var meta []byte
		switch rapid.IntRange(0, 2).Draw(t, id+" client") {
		case 0:
			meta = CooperativeSticky().JoinGroupMetadata(topics, owned, claimGen)
		case 1:
			meta = kgo.CooperativeStickyBalancer().JoinGroupMetadata(topics, owned, claimGen)
		default:
			rack := rapid.SampledFrom([]string{"", "r1", "r2"}).Draw(t, id+" rack")
			meta = v3(topics, assignor.TopicPartitionsFromMap(owned), claimGen, wire.CooperativeUserData(claimGen), rack)
		}
		m := member(id, meta)
		if rapid.Bool().Draw(t, id+" static") {
			m = static(m, "i-"+id)
		}
		members = append(members, m)
	}
	return members, counts, gen
}

// kgoOrder sorts members as kgo's leader does before MemberBalancer: by
// instance ID if any, then member ID.
func kgoOrder(ms []kmsg.JoinGroupResponseMember) []kmsg.JoinGroupResponseMember {
	ms = slices.Clone(ms)
	slices.SortStableFunc(ms, func(a, b kmsg.JoinGroupResponseMember) int {
		switch {
		case a.InstanceID != nil && b.InstanceID != nil:
			return bytes.Compare([]byte(*a.InstanceID), []byte(*b.InstanceID))
		case a.InstanceID != nil:
			return -1
		case b.InstanceID != nil:
			return 1
		}
		return bytes.Compare([]byte(a.MemberID), []byte(b.MemberID))
	})
	return ms
}

func sameAssignments(a, b []kmsg.SyncGroupRequestGroupAssignment) bool {
	return slices.EqualFunc(a, b, func(x, y kmsg.SyncGroupRequestGroupAssignment) bool {
		return x.MemberID == y.MemberID && bytes.Equal(x.MemberAssignment, y.MemberAssignment)
	})
}

func TestAssignmentBytesIndependentOfOrder(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		members, counts, gen := genJoin(rt)
		want := balanceInto(t, CooperativeSticky(), gen, counts, kgoOrder(members))
		shuffled := rapid.Permutation(members).Draw(rt, "order")
		got := balanceInto(t, CooperativeSticky(), gen, counts, shuffled)
		if !sameAssignments(got, want) {
			rt.Fatalf("member order changed the bytes:\n%s\nvs\n%s", render(decoded(t, got)), render(decoded(t, want)))
		}
		// One balancer, balancing the same response again (maps iterate
		// in a new order each time).
		b := CooperativeSticky()
		first := balanceInto(t, b, gen, counts, members)
		if again := balanceInto(t, b, gen, counts, members); !sameAssignments(first, again) || !sameAssignments(first, want) {
			rt.Fatal("balancing the same response twice gave different bytes")
		}
	})
}

// The KIP-814 case itself: a static leader restarts with a new member ID
// and no memory; the broker keeps the generation, skips the rebalance and
// hands back the assignment the old leader computed. kgo balances anyway
// and compares: the bytes must match, or the group rebalances for nothing.
func TestRestartedStaticLeaderRecomputesTheSameBytes(t *testing.T) {
	topics := []string{"t", "u"}
	cnt := counts("t", 7, "u", 3)
	metaOf := func(owned map[string][]int32, gen int32) []byte {
		return CooperativeSticky().JoinGroupMetadata(topics, owned, gen)
	}
	ids := []string{"a-1", "b-1", "c-1"}
	owned := map[string]map[string][]int32{}
	var stored []kmsg.SyncGroupRequestGroupAssignment
	for gen := int32(1); gen <= 3; gen++ {
		var join []kmsg.JoinGroupResponseMember
		for _, id := range ids {
			join = append(join, static(member(id, metaOf(owned[id], gen-1)), id[:1]))
		}
		stored = balanceInto(t, CooperativeSticky(), gen, cnt, kgoOrder(join))
		for _, sa := range stored {
			a, _ := wire.DecodeAssignment(sa.MemberAssignment)
			owned[sa.MemberID] = assignor.TopicPartitionsMap(a.Partitions)
		}
	}
	// a restarts as a-2: the others' metadata is what they sent to join
	// generation 3; a-2 owns nothing and knows no generation.
	restart := []kmsg.JoinGroupResponseMember{
		static(member("a-2", metaOf(nil, -1)), "a"),
		static(member("b-1", metaOf(owned["b-1"], 2)), "b"),
		static(member("c-1", metaOf(owned["c-1"], 2)), "c"),
	}
	// What the broker kept for the instance is the old leader's answer.
	recomputed := balanceInto(t, CooperativeSticky(), 3, cnt, restart)
	if !bytes.Equal(recomputed[0].MemberAssignment, stored[0].MemberAssignment) {
		t.Fatalf("restarted leader computes\n%s\nthe broker kept\n%s", render(decoded(t, recomputed)), render(decoded(t, stored)))
	}
	if len(owned["a-1"]) == 0 {
		t.Fatal("the leader owned nothing: the test proves nothing")
	}
}

// Encoding the same plan gives the same bytes, whichever equivalent form
// the plan comes in.
func TestSamePlanSameBytes(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var mp assignor.MemberPlan
		mp.Member = "m"
		set := make(map[string][]int32)
		for _, topic := range genTopicNames {
			set[topic] = rapid.SliceOfNDistinct(rapid.Int32Range(0, 20), 0, 6, rapid.ID[int32]).Draw(rt, topic)
		}
		canon := assignor.Plan{Members: []assignor.MemberPlan{{Member: "m", Assigned: assignor.TopicPartitionsFromMap(set)}}}
		// The same partitions: shuffled, split into several entries per
		// topic, with duplicates and empty entries.
		var messy []assignor.TopicPartitions
		for _, tp := range rapid.Permutation(canon.Members[0].Assigned).Draw(rt, "topics") {
			ps := rapid.Permutation(tp.Partitions).Draw(rt, tp.Topic+" order")
			cut := rapid.IntRange(0, len(ps)).Draw(rt, tp.Topic+" cut")
			messy = append(messy, assignor.TopicPartitions{Topic: tp.Topic, Partitions: ps[:cut]},
				assignor.TopicPartitions{Topic: tp.Topic}, assignor.TopicPartitions{Topic: tp.Topic, Partitions: ps[max(0, cut-1):]})
		}
		lead := func(plan assignor.Plan) []kmsg.SyncGroupRequestGroupAssignment {
			rec := &recorder{name: "rec", plan: func(assignor.Group) assignor.Plan { return plan }}
			b, _ := New(rec, Config{Logger: discard})
			mb, _, _ := b.MemberBalancer([]kmsg.JoinGroupResponseMember{member("m", v3(genTopicNames, nil, -1, nil, ""))})
			cnt := make(map[string]int32)
			for _, topic := range genTopicNames {
				cnt[topic] = 21
			}
			into, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(cnt)
			if err != nil {
				rt.Fatal(err)
			}
			return into.IntoSyncAssignment()
		}
		want := lead(canon)
		got := lead(assignor.Plan{Members: []assignor.MemberPlan{{Member: "m", Assigned: messy}}})
		if !sameAssignments(got, want) {
			rt.Fatalf("equivalent plans encode differently:\n % x\n % x", got[0].MemberAssignment, want[0].MemberAssignment)
		}
	})
}

// The KIP-814 case with a plan that withholds: the fast re-join mark is a
// function of the plan, so a restarted static leader whose own assignment
// the recomputed plan leaves as it was recomputes the same marked bytes.
// c leads; d joins in generation 3, and a and b each give up a partition
// for it (withheld: the plan is marked); then c restarts as c-2.
func TestRestartedStaticLeaderRecomputesTheSameMarkedBytes(t *testing.T) {
	topics := []string{"t", "u"}
	cnt := counts("t", 7, "u", 3)
	metaOf := func(owned map[string][]int32, gen int32) []byte {
		return CooperativeSticky().JoinGroupMetadata(topics, owned, gen)
	}
	owned := map[string]map[string][]int32{} // after generation 2
	join := func(gen int32, ids ...string) []kmsg.JoinGroupResponseMember {
		var out []kmsg.JoinGroupResponseMember
		for _, id := range ids {
			out = append(out, static(member(id, metaOf(owned[id], gen-1)), id[:1]))
		}
		return kgoOrder(out)
	}
	for gen := int32(1); gen <= 2; gen++ {
		for _, sa := range balanceInto(t, CooperativeSticky(), gen, cnt, join(gen, "a-1", "b-1", "c-1")) {
			a, _ := wire.DecodeAssignment(sa.MemberAssignment)
			owned[sa.MemberID] = assignor.TopicPartitionsMap(a.Partitions)
		}
	}
	stored := balanceInto(t, CooperativeSticky(), 3, cnt, join(3, "a-1", "b-1", "c-1", "d-1"))
	restart := join(3, "a-1", "b-1", "d-1")
	restart = kgoOrder(append(restart, static(member("c-2", metaOf(nil, -1)), "c")))
	recomputed := balanceInto(t, CooperativeSticky(), 3, cnt, restart)
	kept, again := stored[2], recomputed[2] // c's, in instance order a, b, c, d
	if kept.MemberID != "c-1" || again.MemberID != "c-2" {
		t.Fatalf("instance order: %s, %s", kept.MemberID, again.MemberID)
	}
	a, _ := wire.DecodeAssignment(kept.MemberAssignment)
	if _, rejoin, err := rebalance.ReadUserData(a.UserData); err != nil || !rejoin || len(a.Partitions) == 0 {
		t.Fatalf("the stored assignment %v (%v) is not a marked one with partitions: the test proves nothing", a, err)
	}
	if !bytes.Equal(again.MemberAssignment, kept.MemberAssignment) {
		t.Fatalf("restarted leader computes\n%s\nthe broker kept\n%s", render(decoded(t, recomputed)), render(decoded(t, stored)))
	}
}
