package weighted_test

import (
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/weighted"
)

// TestDrift: a group that owns its weighted plan reports no rebalance
// under small drift, and one, with the loads before and after, when a
// partition turns hot; with a wider margin the same drift is tolerated.
func TestDrift(t *testing.T) {
	g := skewedGroup(4, 24, 3)
	plan, err := weighted.New().Assign(g)
	if err != nil {
		t.Fatal(err)
	}
	g = applyPlan(g, plan, 2)
	w := g.Topics[0].Weights
	for p := range w {
		w[p] += w[p] * int64(p%7-3) / 100 // within ±3%
	}
	if d, err := weighted.New().Drift(g); err != nil || d.Rebalance() || d.Moves != 0 || d.Planned != d.Heaviest {
		t.Fatalf("small drift: %+v, %v; want no rebalance", d, err)
	}
	idle := -1
	for p, x := range w {
		if x == 0 {
			idle = p
			break
		}
	}
	w[idle] = 6000 // an idle partition turns hot
	d, err := weighted.New().Drift(g)
	if err != nil || !d.Rebalance() || d.Planned >= d.Heaviest {
		t.Fatalf("hot partition: %+v, %v; want a rebalance that lowers the heaviest load", d, err)
	}
	lax, _ := weighted.NewWithConfig(weighted.Config{HysteresisPercent: 100})
	if d, err := lax.Drift(g); err != nil || d.Rebalance() {
		t.Fatalf("hot partition, margin 100%%: %+v, %v; want no rebalance", d, err)
	}
	if _, err := weighted.New().Drift(assignor.Group{Members: []assignor.Member{{ID: ""}}}); err == nil {
		t.Fatal("an invalid group: no error")
	}
}
