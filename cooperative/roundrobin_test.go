package cooperative_test

import (
	"fmt"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
)

// TestRoundRobinBecomesCooperative runs a rolling restart of 10 dynamic
// members over 100 partitions (each restart: the member leaves, and comes
// back under a new member ID owning nothing) through round-robin, which is
// not sticky, bare and wrapped. Wrapped, no partition ever passes straight
// from one member of the group to another between two consecutive
// generations (it is revoked first), and after each restart the group settles within two
// rebalances; bare, round-robin hands partitions over directly, which the
// same check catches.
func TestRoundRobinBecomesCooperative(t *testing.T) {
	tests := []struct {
		name          string
		a             assignor.Assignor
		wantHandovers bool
	}{
		{name: "cooperative-roundrobin", a: cooperative.Wrap(roundrobin.New())},
		{name: "bare roundrobin", a: roundrobin.New(), wantHandovers: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := assignor.Group{Topics: []assignor.Topic{{Name: "t0", Partitions: assignor.Partitions(60)}, {Name: "t1", Partitions: assignor.Partitions(40)}}}
			for i := range 10 {
				g.Members = append(g.Members, assignor.Member{ID: fmt.Sprintf("a%02d", i), Topics: []string{"t0", "t1"}, Generation: assignor.NoGeneration})
			}
			gen := int32(0)
			var prev map[string]string // partition -> holder
			handovers, withheld, rounds := 0, 0, 0
			rebalance := func() assignor.Plan {
				plan, err := tt.a.Assign(g)
				if err != nil {
					t.Fatalf("generation %d: %v", gen+1, err)
				}
				gen++
				rounds++
				holders, present := map[string]string{}, map[string]bool{}
				for i := range g.Members {
					present[g.Members[i].ID] = true
					mp, _ := plan.Member(g.Members[i].ID)
					for _, tp := range mp.Assigned {
						for _, id := range tp.Partitions {
							holders[fmt.Sprintf("%s/%d", tp.Topic, id)] = mp.Member
						}
					}
					g.Members[i].Owned, g.Members[i].Generation = mp.Assigned, gen
				}
				for p, was := range prev {
					// A member that left released everything first.
					if now, ok := holders[p]; ok && now != was && present[was] {
						handovers++
						if !tt.wantHandovers {
							t.Errorf("generation %d: %s passed straight from %s to %s", gen, p, was, now)
						}
					}
				}
				for _, mp := range plan.Members {
					for _, tp := range mp.Revoked {
						withheld += len(tp.Partitions)
					}
				}
				prev = holders
				return plan
			}
			settle := func(event string) {
				first := rebalance()
				if !first.FollowUp {
					return
				}
				if second := rebalance(); second.FollowUp {
					t.Errorf("after %s: the follow-up rebalance withholds again:\n%s", event, second)
				}
			}
			settle("the first join")
			for i := range g.Members {
				old := g.Members[i].ID
				g.Members[i] = assignor.Member{ID: "b" + old[1:], Topics: []string{"t0", "t1"}, Generation: assignor.NoGeneration}
				settle("restarting " + old)
			}
			if tt.wantHandovers && handovers == 0 {
				t.Errorf("bare round-robin handed nothing over directly; the check cannot fail")
			}
			t.Logf("%s: %d rebalances, %d partitions revoked, %d direct hand-overs", tt.name, rounds, withheld, handovers)
		})
	}
}
