package franzgo_test

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/adapters/franzgo"
	"github.com/kgroup/assignor/weighted"
)

// Weighted with a leader-side weight source, listed before
// cooperative-sticky (kgo.Balancers(w, s) and kgo.WithHooks(w, s)) so that
// a running cooperative-sticky group migrates once every member lists it.
// The source here is a fixed table; in production it would read consumer
// lag or rates (kadm), cached and with a deadline.
func ExampleWeighted() {
	rates := map[string][]int64{"orders": {900, 20, 20, 15, 0, 0}}
	w, err := franzgo.Weighted(weighted.Config{
		Weights: func(topic string, partitions []int32) []int64 {
			out := make([]int64, len(partitions))
			for i, p := range partitions {
				out[i] = assignor.UnknownWeight // weighs the mean of the known ones
				if known := rates[topic]; int(p) < len(known) {
					out[i] = known[p]
				}
			}
			return out
		},
	}, franzgo.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := franzgo.CooperativeSticky()
	fmt.Println(w.ProtocolName(), w.IsCooperative())
	fmt.Println(s.ProtocolName(), s.IsCooperative())
	// Output:
	// cooperative-weighted true
	// cooperative-sticky true
}
