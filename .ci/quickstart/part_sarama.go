package main

import (
	"fmt"
	"log"
	"slices"
	"time"

	"github.com/IBM/sarama"
	"github.com/kgroup/assignor/adapters/saramaassignor"
)

func init() { parts["sarama"] = saramaPart }

// saramaPart sets the strategy in a config as the README does, checks it,
// and plans a group through sarama's types.
func saramaPart() {
	config := sarama.NewConfig()
	config.Version = sarama.V3_2_0_0
	s := saramaassignor.CooperativeSticky()
	config.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{s}
	config.Consumer.Group.Rebalance.Retry.Backoff = 100 * time.Millisecond
	fmt.Println("sarama CheckConfig:", saramaassignor.CheckConfig(config))

	members := map[string]sarama.ConsumerGroupMemberMetadata{
		"m0": {Version: 1, Topics: []string{"orders"}},
		"m1": {Version: 1, Topics: []string{"orders"}},
	}
	plan, err := s.Plan(members, map[string][]int32{"orders": {0, 1, 2, 3}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("sarama %s:\n", s.Name())
	ids := make([]string, 0, len(plan))
	for id := range plan {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		fmt.Printf("%s: orders%v\n", id, plan[id]["orders"])
	}
}
