package saramaassignor_test

import (
	"fmt"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/adapters/saramaassignor"
	"github.com/kgroup/assignor/weighted"
)

// Weighted with a leader-side weight source, listed before
// cooperative-sticky so that a running cooperative-sticky group migrates
// once every member lists it. The source here is a fixed table; in
// production it would read consumer lag or rates (from a
// sarama.ClusterAdmin, say), cached and with a deadline.
func ExampleWeighted() {
	rates := map[string][]int64{"orders": {900, 20, 20, 15, 0, 0}}
	w, err := saramaassignor.Weighted(weighted.Config{
		Weights: func(topics []assignor.TopicPartitions) [][]int64 {
			out := make([][]int64, len(topics))
			for i, tp := range topics {
				known := rates[tp.Topic]
				out[i] = make([]int64, len(tp.Partitions))
				for j, p := range tp.Partitions {
					out[i][j] = assignor.UnknownWeight // weighs the mean of the known ones
					if int(p) < len(known) {
						out[i][j] = known[p]
					}
				}
			}
			return out
		},
	}, saramaassignor.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	config := sarama.NewConfig()
	config.Version = sarama.V3_2_0_0
	config.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{w, saramaassignor.CooperativeSticky()}
	for _, s := range config.Consumer.Group.Rebalance.GroupStrategies {
		fmt.Println(s.Name())
	}
	// Output:
	// cooperative-weighted
	// cooperative-sticky
}
