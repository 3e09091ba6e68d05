package sticky_test

import (
	"fmt"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/workload"
)

var _ assignor.FlatAssignor = sticky.New()

// TestAssignFlatMatchesAssign pins AssignFlat's contract
// (assignor.FlatAssignor): its holders are exactly Assign's plan, on
// every benchmark scenario and on a group whose history travels only in
// eager sticky user data (which the index's claims do not reflect).
func TestAssignFlatMatchesAssign(t *testing.T) {
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
			fp, err := a.AssignFlat(ix)
			if err != nil || fp.UserData != nil {
				t.Fatalf("AssignFlat: user data %v, error %v", fp.UserData, err)
			}
			if got := ix.PlanOf(fp); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("AssignFlat differs from Assign:\n%s\nwant\n%s", got, want)
			}
		})
	}
}
