package kgoassignor_test

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/adapters/kgoassignor"
	"github.com/kgroup/assignor/weighted"
)

// Weighted with a leader-side weight source, listed before
// cooperative-sticky (kgo.Balancers(w, s) and kgo.WithHooks(w, s)) so that
// a running cooperative-sticky group migrates once every member lists it.
// The source here is a fixed table; in production it would read consumer
// lag or rates (kadm), cached and with a deadline.
func ExampleWeighted() {
	rates := map[string][]int64{"orders": {900, 20, 20, 15, 0, 0}}
	w, err := kgoassignor.Weighted(weighted.Config{
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
	}, kgoassignor.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := kgoassignor.CooperativeSticky()
	fmt.Println(w.ProtocolName(), w.IsCooperative())
	fmt.Println(s.ProtocolName(), s.IsCooperative())
	// Output:
	// cooperative-weighted true
	// cooperative-sticky true
}
