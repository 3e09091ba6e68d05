package sarama_test

import (
	"errors"
	"fmt"

	ibm "github.com/IBM/sarama"

	saramaadapter "github.com/kgroup/assignor/adapters/sarama"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// The common case: this module's cooperative-sticky, one strategy per
// consumer group member.
func ExampleCooperativeSticky() {
	config := ibm.NewConfig()
	config.Version = ibm.V3_2_0_0 // members send owned partitions and their generation
	config.Consumer.Group.Rebalance.GroupStrategies = []ibm.BalanceStrategy{saramaadapter.CooperativeSticky()}
	fmt.Println(config.Consumer.Group.Rebalance.GroupStrategies[0].Name())
	// Output: cooperative-sticky
}

// New runs any assignor in sarama. Here the leader's side of a join: m1 owns
// all four partitions; m2 joins. In the first round m1 keeps two and the two
// it must give up are withheld; m1 revokes them and rejoins; in the second
// round m2 gets them.
func ExampleNew() {
	strategy, err := saramaadapter.New(cooperative.Wrap(sticky.New()), saramaadapter.Config{})
	if err != nil {
		panic(err)
	}
	topics := map[string][]int32{"orders": {0, 1, 2, 3}}

	round1, err := strategy.Plan(map[string]ibm.ConsumerGroupMemberMetadata{
		"m1": {Version: 2, Topics: []string{"orders"}, GenerationID: 1,
			OwnedPartitions: []*ibm.OwnedPartition{{Topic: "orders", Partitions: []int32{0, 1, 2, 3}}}},
		"m2": {Version: 2, Topics: []string{"orders"}, GenerationID: -1},
	}, topics)
	if err != nil {
		panic(err)
	}
	fmt.Println("round 1:", round1["m1"], round1["m2"])

	round2, err := strategy.Plan(map[string]ibm.ConsumerGroupMemberMetadata{
		"m1": {Version: 2, Topics: []string{"orders"}, GenerationID: 2,
			OwnedPartitions: []*ibm.OwnedPartition{{Topic: "orders", Partitions: round1["m1"]["orders"]}}},
		"m2": {Version: 2, Topics: []string{"orders"}, GenerationID: 2},
	}, topics)
	if err != nil {
		panic(err)
	}
	fmt.Println("round 2:", round2["m1"], round2["m2"])
	// Output:
	// round 1: map[orders:[0 2]] map[]
	// round 2: map[orders:[0 2]] map[orders:[1 3]]
}

// CheckConfig finds what sarama accepts but costs a cooperative group. Here
// the mistake of appending to sarama.NewConfig's strategies: range comes
// first, so the group runs range, eager.
func ExampleCheckConfig() {
	config := ibm.NewConfig()
	config.Version = ibm.V3_2_0_0
	config.Consumer.Group.Rebalance.GroupStrategies = append(config.Consumer.Group.Rebalance.GroupStrategies, saramaadapter.CooperativeSticky())
	err := saramaadapter.CheckConfig(config)
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var finding *saramaadapter.ConfigError
		if errors.As(e, &finding) {
			fmt.Printf("%s\n  fix: %s\n", finding.Setting, finding.Fix)
		}
	}
	// Output:
	// Consumer.Group.Rebalance.GroupStrategies
	//   fix: set the list instead of appending to it (sarama.NewConfig puts range there): GroupStrategies = []sarama.BalanceStrategy{cooperative-sticky}
}
