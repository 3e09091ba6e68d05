package sticky_test

import (
	"fmt"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/workload"
)

var _ assignor.HolderAssignor = sticky.New()

// TestAssignHoldersMatchesAssign pins AssignHolders' contract
// (assignor.HolderAssignor): its holders are exactly Assign's plan, on
// every benchmark scenario and on a group whose history travels only in
// eager sticky user data (which the index's claims do not reflect).
func TestAssignHoldersMatchesAssign(t *testing.T) {
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
			holder, userData, err := a.AssignHolders(ix)
			if err != nil || userData != nil {
				t.Fatalf("AssignHolders: user data %v, error %v", userData, err)
			}
			if got := ix.PlanFromHolders(holder); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("AssignHolders differs from Assign:\n%s\nwant\n%s", got, want)
			}
		})
	}
}
