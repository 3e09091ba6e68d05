package sticky_test

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/sticky"
)

// NewWithConfig takes the options of Config. By default the assignor is
// rack-aware (KIP-881) whenever members have racks and topics have replica
// racks: orders/0 and orders/1 have their replicas in rack r2, orders/2 and
// orders/3 in r1, so each member gets the partitions of its own rack.
// IgnoreRacks places them as if nobody had a rack.
func ExampleNewWithConfig() {
	g := assignor.Group{
		Members: []assignor.Member{
			{ID: "m1", Rack: "r1", Topics: []string{"orders"}, Generation: assignor.NoGeneration},
			{ID: "m2", Rack: "r2", Topics: []string{"orders"}, Generation: assignor.NoGeneration},
		},
		Topics: []assignor.Topic{{
			Name:         "orders",
			Partitions:   assignor.Partitions(4),
			ReplicaRacks: [][]string{{"r2"}, {"r2"}, {"r1"}, {"r1"}},
		}},
	}
	for _, cfg := range []sticky.Config{{}, {IgnoreRacks: true}} {
		a, err := sticky.NewWithConfig(cfg)
		if err != nil {
			fmt.Println(err)
			return
		}
		plan, err := a.Assign(g)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("IgnoreRacks %v:\n%s", cfg.IgnoreRacks, plan)
	}
	// Output:
	// IgnoreRacks false:
	// m1: orders[2 3]
	// m2: orders[0 1]
	// IgnoreRacks true:
	// m1: orders[0 2]
	// m2: orders[1 3]
}
