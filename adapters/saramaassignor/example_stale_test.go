package saramaassignor_test

import (
	"fmt"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor/adapters/saramaassignor"
)

// A stale claim, the case that makes a leader unsafe: member b was evicted
// in generation 3 and rejoins still claiming orders/0, which a, its valid
// owner since generation 5, holds. KIP-429's rule is that nobody gets a
// claimed partition until its owner has revoked it. sarama's own
// cooperative-sticky (v1.61) hands it to b at once, so a and b both
// consume orders/0 until a's next sync. Ours ranks the claims by generation:
// a keeps orders/0, and orders/1, which moves to b, is withheld for one
// round (a revokes it and rejoins; the second round hands it to b).
func Example_staleClaim() {
	members := map[string]sarama.ConsumerGroupMemberMetadata{
		"a": {Version: 2, Topics: []string{"orders"}, GenerationID: 5,
			OwnedPartitions: []*sarama.OwnedPartition{{Topic: "orders", Partitions: []int32{0, 1}}}},
		"b": {Version: 2, Topics: []string{"orders"}, GenerationID: 3,
			OwnedPartitions: []*sarama.OwnedPartition{{Topic: "orders", Partitions: []int32{0}}}},
	}
	topics := map[string][]int32{"orders": {0, 1}}
	for _, leader := range []struct {
		name     string
		strategy sarama.BalanceStrategy
	}{
		{"sarama's cooperative-sticky", sarama.NewBalanceStrategyCooperativeSticky()},
		{"ours", saramaassignor.CooperativeSticky()},
	} {
		plan, err := leader.strategy.Plan(members, topics)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-28s a gets %v, b gets %v\n", leader.name+":", plan["a"]["orders"], plan["b"]["orders"])
	}
	// Output:
	// sarama's cooperative-sticky: a gets [1], b gets [0]
	// ours:                        a gets [0], b gets []
}
