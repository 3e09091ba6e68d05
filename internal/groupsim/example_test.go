package groupsim_test

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/internal/groupsim"
	"github.com/kgroup/assignor/roundrobin"
)

// Three cooperative members share six partitions; a fourth joins. The
// partitions that change owner are withheld for one round, and nobody stops
// processing what it keeps; the leader marks that round's assignments, so
// every member rejoins at once for the second (fast re-join).
func Example() {
	sim := groupsim.New(groupsim.Config{}, map[string]groupsim.Factory{
		"cooperative-roundrobin": func() assignor.Assignor { return cooperative.Wrap(roundrobin.New()) },
	})
	for _, cmd := range []string{
		"topic create t0 partitions=6",
		"join m0..m2 topics=t0 assignors=cooperative-roundrobin",
		"settle",
		"stats reset",
		"join m3 topics=t0 assignors=cooperative-roundrobin",
		"settle",
		"assignment",
		"stats",
	} {
		out, err := sim.Exec(cmd)
		if err != nil {
			fmt.Println(err)
			return
		}
		if cmd != "stats reset" {
			fmt.Print(out)
		}
	}
	// Output:
	// settled in 0.050s at 0.050s: generation 2, 3 members, protocol cooperative-roundrobin, leader m0
	// settled in 2.591s at 2.641s: generation 4, 4 members, protocol cooperative-roundrobin, leader m0
	// m0 gen 4: t0[0 4]
	// m1 gen 4: t0[1 5]
	// m2 gen 4: t0[2]
	// m3 gen 4: t0[3]
	// elapsed 2.591s: 2 rebalances, 2 plans (1 with withheld partitions)
	// partitions: 3 moved, 3 withheld, 3 revoked, 0 lost
	// members: 0 evicted, 0 fenced, 0 rejected
	// partition-time without owner: 0.060s
	// partition-time owned by an evicted member too: 0.000s
	// longest member pause: none
}
