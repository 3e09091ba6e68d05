package weighted_test

import (
	"fmt"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/weighted"
)

// A leader checks the members' reports before it logs a rebalance: member
// b's report says generation 9 while its claims say 5, which an honest
// member never sends, so the assignor ignores it (and would whatever it
// claimed), and CheckReports says so for the log. a's report counts.
func ExampleCheckReports() {
	t0 := time.Unix(0, 0)
	member := func(id string, claims, reported int32, rate int64) assignor.Member {
		m := weighted.NewMeter(weighted.MeterConfig{})
		m.Observe("t", 0, 0, t0)
		m.Observe("t", 0, rate*10, t0.Add(10*time.Second))
		a, _ := weighted.NewWithConfig(weighted.Config{Meter: m})
		owned := []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{0}}}
		ud, _ := a.SubscriptionUserData(assignor.MemberState{Topics: []string{"t"}, Owned: owned, Generation: reported})
		if id == "b" {
			owned = nil
		}
		return assignor.Member{ID: id, Topics: []string{"t"}, Owned: owned, Generation: claims, UserData: ud}
	}
	group := assignor.Group{
		Topics:  []assignor.Topic{{Name: "t", Partitions: assignor.Partitions(2)}},
		Members: []assignor.Member{member("a", 5, 5, 700), member("b", 5, 9, 1_000_000)},
	}
	ix, err := assignor.NewIndex(group)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, issue := range weighted.CheckReports(ix) {
		fmt.Println(issue)
	}
	// Output:
	// member "b": report at generation 9: above the member's claim generation 5: dropped
}
