package source_test

import (
	"context"
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/weighted"
	"github.com/kgroup/assignor/weighted/source"
)

// A leader-side source in front of a fetch. Here the fetch returns fixed
// per-partition lag; in production it would ask the admin API (kadm.Lag,
// or sarama's ClusterAdmin offsets and the topics' high watermarks). The
// lagging partition 0 gets a member of its own.
func Example() {
	lag := func(ctx context.Context, topics []assignor.TopicPartitions) (map[string]map[int32]int64, error) {
		return map[string]map[int32]int64{"orders": {0: 9000, 1: 300, 2: 250, 3: 200}}, nil
	}
	src := source.New(lag, source.Config{})
	a, err := weighted.NewWithConfig(weighted.Config{Weights: src.Weights})
	if err != nil {
		fmt.Println(err)
		return
	}
	plan, err := a.Assign(assignor.Group{
		Topics: []assignor.Topic{{Name: "orders", Partitions: assignor.Partitions(4)}},
		Members: []assignor.Member{
			{ID: "m1", Topics: []string{"orders"}},
			{ID: "m2", Topics: []string{"orders"}},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(plan)
	// Output:
	// m1: orders[0]
	// m2: orders[1 2 3]
}
