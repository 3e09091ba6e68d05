package saramaassignor_test

import (
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor/adapters/saramaassignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// The common case: this module's cooperative-sticky, one strategy per
// consumer group member.
func ExampleCooperativeSticky() {
	config := sarama.NewConfig()
	config.Version = sarama.V3_2_0_0 // members send owned partitions and their generation
	config.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{saramaassignor.CooperativeSticky()}
	fmt.Println(config.Consumer.Group.Rebalance.GroupStrategies[0].Name())
	// Output: cooperative-sticky
}

// New runs any assignor in sarama. Here the leader's side of a join: m1 owns
// all four partitions; m2 joins. In the first round m1 keeps two and the two
// it must give up are withheld; m1 revokes them and rejoins; in the second
// round m2 gets them.
func ExampleNew() {
	strategy, err := saramaassignor.New(cooperative.Wrap(sticky.New()), saramaassignor.Config{})
	if err != nil {
		panic(err)
	}
	topics := map[string][]int32{"orders": {0, 1, 2, 3}}

	round1, err := strategy.Plan(map[string]sarama.ConsumerGroupMemberMetadata{
		"m1": {Version: 2, Topics: []string{"orders"}, GenerationID: 1,
			OwnedPartitions: []*sarama.OwnedPartition{{Topic: "orders", Partitions: []int32{0, 1, 2, 3}}}},
		"m2": {Version: 2, Topics: []string{"orders"}, GenerationID: -1},
	}, topics)
	if err != nil {
		panic(err)
	}
	fmt.Println("round 1:", round1["m1"], round1["m2"])

	round2, err := strategy.Plan(map[string]sarama.ConsumerGroupMemberMetadata{
		"m1": {Version: 2, Topics: []string{"orders"}, GenerationID: 2,
			OwnedPartitions: []*sarama.OwnedPartition{{Topic: "orders", Partitions: round1["m1"]["orders"]}}},
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
// first, so the group runs range, eager. Each finding carries its field, its
// severity and the fix; a program can fail on errors and log warnings.
func ExampleCheckConfig() {
	config := sarama.NewConfig()
	config.Version = sarama.V3_2_0_0
	config.Consumer.Group.Rebalance.GroupStrategies = append(config.Consumer.Group.Rebalance.GroupStrategies, saramaassignor.CooperativeSticky())
	err := saramaassignor.CheckConfig(config)
	var ce *saramaassignor.ConfigError
	if errors.As(err, &ce) {
		for _, f := range ce.Findings {
			fmt.Printf("%s: %s\n  fix: %s\n", f.Severity, f.Field, f.Fix)
		}
	}
	// Output:
	// error: Consumer.Group.Rebalance.GroupStrategies
	//   fix: set the list instead of appending to it (sarama.NewConfig puts range there): GroupStrategies = []sarama.BalanceStrategy{cooperative-sticky}
}

// CheckConfigWith acknowledges the first of KIP-429's two rolling deploys
// from range to cooperative-sticky. In the first, every member offers both,
// cooperative-sticky first, so that members not yet redeployed (range only)
// still share a protocol with the rest; the group runs eager meanwhile,
// which CheckConfig reports and CheckOptions.Migrating accepts. In the
// second, every member offers cooperative-sticky alone, and the group runs
// cooperative; there the retry backoff counts, so it is shortened.
func ExampleCheckConfigWith() {
	config := sarama.NewConfig()
	config.Version = sarama.V3_2_0_0
	config.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{saramaassignor.CooperativeSticky(), sarama.NewBalanceStrategyRange()}
	var ce *saramaassignor.ConfigError
	if errors.As(saramaassignor.CheckConfig(config), &ce) {
		fmt.Println("first deploy, CheckConfig:", ce.Findings[0].Severity, ce.Findings[0].Field)
	}
	fmt.Println("first deploy, Migrating:", saramaassignor.CheckConfigWith(config, saramaassignor.CheckOptions{Migrating: true}))

	config.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{saramaassignor.CooperativeSticky()}
	config.Consumer.Group.Rebalance.Retry.Backoff = 100 * time.Millisecond
	fmt.Println("second deploy:", saramaassignor.CheckConfig(config))
	// Output:
	// first deploy, CheckConfig: error Consumer.Group.Rebalance.GroupStrategies
	// first deploy, Migrating: <nil>
	// second deploy: <nil>
}

// RackByPrefix maps member IDs to racks on the leader, from the client IDs
// (or static instance IDs) that Kafka puts in front of them: sarama members
// never send their rack. The longest matching key wins.
func ExampleRackByPrefix() {
	rack := saramaassignor.RackByPrefix(map[string]string{
		"billing":   "use1-az3",
		"billing-a": "use1-az1",
		"billing-b": "use1-az2",
	})
	// The leader calls it once per member that sent no rack of its own.
	if _, err := saramaassignor.New(cooperative.Wrap(sticky.New()), saramaassignor.Config{MemberRack: rack}); err != nil {
		panic(err)
	}
	for _, id := range []string{"billing-a-6f1c0d3e", "billing-b-0d2e91aa", "billing-c-77aa5b10", "reports-1f2e3d4c"} {
		fmt.Printf("%s: %q\n", id, rack(id))
	}
	// Output:
	// billing-a-6f1c0d3e: "use1-az1"
	// billing-b-0d2e91aa: "use1-az2"
	// billing-c-77aa5b10: "use1-az3"
	// reports-1f2e3d4c: ""
}

// ClientReplicaRacks reads each partition's replica racks from the sarama
// client the consumer group is built from, as a Java leader does. It needs
// brokers, so this example only compiles; bench/internal/e2e's
// TestClientReplicaRacks runs it against an in-process broker.
func ExampleClientReplicaRacks() {
	config := sarama.NewConfig()
	config.Version = sarama.V3_2_0_0
	client, err := sarama.NewClient([]string{"localhost:9092"}, config)
	if err != nil {
		log.Print(err)
		return
	}
	defer client.Close()
	strategy, err := saramaassignor.New(cooperative.Wrap(sticky.New()), saramaassignor.Config{
		ReplicaRacks: saramaassignor.ClientReplicaRacks(client),
		MemberRack:   saramaassignor.RackByPrefix(map[string]string{"billing-a": "use1-az1", "billing-b": "use1-az2"}),
	})
	if err != nil {
		log.Print(err)
		return
	}
	config.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{strategy}
	if err := saramaassignor.CheckConfig(config); err != nil {
		log.Print(err)
	}
	group, err := sarama.NewConsumerGroupFromClient("billing", client)
	if err != nil {
		log.Print(err)
		return
	}
	defer group.Close()
	// group.Consume(ctx, []string{"orders"}, handler) ...
}
