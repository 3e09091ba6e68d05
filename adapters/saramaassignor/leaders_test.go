package saramaassignor

import (
	"slices"
	"testing"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// innerUserData is what a member of cooperative.WrapWithConfig(sticky.New(),
// {InnerUserData: true}) sends as user data: sticky's layout.
func innerUserData(t *testing.T, topic string, gen int32, partitions ...int32) []byte {
	t.Helper()
	w := cooperative.WrapWithConfig(sticky.New(), cooperative.Config{InnerUserData: true}).(assignor.SubscriptionUserDataAssignor)
	data, err := w.SubscriptionUserData(assignor.MemberState{
		Topics:     []string{topic},
		Owned:      []assignor.TopicPartitions{{Topic: topic, Partitions: partitions}},
		Generation: gen,
	})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestInnerUserDataWithV1Members: members below subscription v2 (sarama
// configured for Kafka 2.4–3.1) running our wrapper with InnerUserData
// carry their generation only in sticky's user data. a owns orders at
// generation 5; b, evicted at generation 3, still claims orders/0 but now
// reads audit only. Our leader reads both generations, so b's claim is
// stale, not a tie, and a keeps orders/0: nothing is withheld. Read as a
// tie (before issue 17), orders/0 had no owner and was withheld from a for
// a round.
func TestInnerUserDataWithV1Members(t *testing.T) {
	s := mustNew(t, cooperative.WrapWithConfig(sticky.New(), cooperative.Config{InnerUserData: true}), Config{})
	members := map[string]sarama.ConsumerGroupMemberMetadata{
		"a": {Version: 1, Topics: []string{"orders"}, OwnedPartitions: owned("orders", []int32{0, 1}), UserData: innerUserData(t, "orders", 5, 0, 1)},
		"b": {Version: 1, Topics: []string{"audit"}, OwnedPartitions: owned("orders", []int32{0}), UserData: innerUserData(t, "orders", 3, 0)},
	}
	topics := map[string][]int32{"orders": {0, 1}, "audit": {0}}
	g := seenGroup(t, assignor.Protocols(base(s).a), base(s).cfg, members, topics)
	if a, b := g.Members[0].Generation, g.Members[1].Generation; a != 5 || b != 3 {
		t.Errorf("generations a %d, b %d; want 5 and 3", a, b)
	}
	plan, err := s.Plan(members, topics)
	if err != nil {
		t.Fatal(err)
	}
	if got := plan["a"]["orders"]; !slices.Equal(got, []int32{0, 1}) {
		t.Errorf("a gets orders %v, want [0 1]: its valid claim on orders/0 was withheld", got)
	}
	if got := plan["b"]["audit"]; !slices.Equal(got, []int32{0}) {
		t.Errorf("b gets audit %v, want [0]", got)
	}
}

// TestStaleClaimUnderEachLeader: a owns orders/0 and orders/1 at generation
// 5; b, evicted at generation 3, rejoins claiming orders/0 (subscription
// v2). Under our leader b may get orders/0 only after a has revoked it (the
// next round). sarama's own cooperative-sticky leader (v1.61.1) hands it to
// b at once, while a still holds it: its withholding ignores generations, and
// b's stale claim hides the move (docs/sarama.md, docs/compatibility.md). If
// sarama changes, this test says so.
func TestStaleClaimUnderEachLeader(t *testing.T) {
	members := map[string]sarama.ConsumerGroupMemberMetadata{
		"a": {Version: 2, Topics: []string{"orders"}, OwnedPartitions: owned("orders", []int32{0, 1}), GenerationID: 5},
		"b": {Version: 2, Topics: []string{"orders"}, OwnedPartitions: owned("orders", []int32{0}), GenerationID: 3},
	}
	topics := map[string][]int32{"orders": {0, 1}}
	for _, tt := range []struct {
		name      string
		leader    sarama.BalanceStrategy
		handedToB bool // b gets orders/0 while a holds it
	}{
		{name: "ours", leader: CooperativeSticky()},
		{name: "sarama's cooperative-sticky", leader: sarama.NewBalanceStrategyCooperativeSticky(), handedToB: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for range 20 { // sarama's planner iterates maps
				plan, err := tt.leader.Plan(members, topics)
				if err != nil {
					t.Fatal(err)
				}
				if got := slices.Contains(plan["b"]["orders"], 0); got != tt.handedToB {
					t.Fatalf("b gets orders/0 while a holds it: %v, want %v (plan %v)", got, tt.handedToB, plan)
				}
			}
		})
	}
}
