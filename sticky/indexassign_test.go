package sticky_test

import (
	"fmt"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/dense"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/workload"
)

var _ dense.Assigner = sticky.New()

// TestAssignDenseMatchesAssign pins AssignDense's contract with the
// cooperative wrapper: its holders are exactly Assign's plan, on every
// benchmark scenario and on a group whose history travels only in eager
// sticky user data (which the wrapper's index does not reflect).
func TestAssignDenseMatchesAssign(t *testing.T) {
	groups := map[string]assignor.Group{}
	for _, sc := range workload.Scenarios() {
		c, err := workload.Build(workload.Shapes()[0], sc, workload.DefaultSeed)
		if err != nil {
			t.Fatal(err)
		}
		groups[string(sc)] = c.Group(c.RoundRobin())
	}
	eager := groups[string(workload.Join)].Clone()
	a := sticky.New()
	for i := range eager.Members {
		m := &eager.Members[i]
		ud, err := a.SubscriptionUserData(assignor.MemberState{Topics: m.Topics, Owned: m.Owned, Generation: m.Generation})
		if err != nil {
			t.Fatal(err)
		}
		m.UserData, m.Owned, m.Generation = ud, nil, assignor.NoGeneration
	}
	groups["join with user-data history"] = eager

	for name, g := range groups {
		t.Run(name, func(t *testing.T) {
			want, err := a.Assign(g)
			if err != nil {
				t.Fatal(err)
			}
			ix, err := assignor.NewIndex(g)
			if err != nil {
				t.Fatal(err)
			}
			holder, userData, err := a.AssignDense(dense.Of(ix))
			if err != nil || userData != nil {
				t.Fatalf("AssignDense: user data %v, error %v", userData, err)
			}
			if got := ix.PlanFromHolders(holder); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("AssignDense differs from Assign:\n%s\nwant\n%s", got, want)
			}
		})
	}
}
