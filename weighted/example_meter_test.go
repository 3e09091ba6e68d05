package weighted_test

import (
	"fmt"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/weighted"
)

// Weights measured by the members. Member a owns all four partitions and
// feeds its Meter the high watermarks it sees in fetch responses
// (kgo: FetchTopicPartition.HighWatermark); t/0 grows 900 records/s, the
// others 100. Its subscription user data reports them; b joins with
// nothing to report. The leader reads a's report (a owns them, so a's
// report counts), gives b the hot partition, and carries its weight to b
// in b's assignment user data, so that b reports it at the next join
// before it has measured it: the partition does not fall back to the
// default weight and bounce back.
func Example_meter() {
	meterA, meterB := weighted.NewMeter(weighted.MeterConfig{}), weighted.NewMeter(weighted.MeterConfig{})
	a, _ := weighted.NewWithConfig(weighted.Config{Meter: meterA})
	b, _ := weighted.NewWithConfig(weighted.Config{Meter: meterB})
	start := time.Unix(0, 0)
	for p, perSecond := range []int64{900, 100, 100, 100} {
		meterA.Observe("t", int32(p), 5000, start)
		meterA.Observe("t", int32(p), 5000+10*perSecond, start.Add(10*time.Second))
	}
	join := func(asg *weighted.Assignor, id string, gen int32, owned ...int32) assignor.Member {
		st := assignor.MemberState{Topics: []string{"t"}, Generation: gen,
			Owned: []assignor.TopicPartitions{{Topic: "t", Partitions: owned}}}
		userData, _ := asg.SubscriptionUserData(st)
		return assignor.Member{ID: id, Topics: st.Topics, Owned: st.Owned, Generation: gen, UserData: userData}
	}
	group := assignor.Group{
		Topics:  []assignor.Topic{{Name: "t", Partitions: assignor.Partitions(4)}},
		Members: []assignor.Member{join(a, "a", 1, 0, 1, 2, 3), join(b, "b", assignor.NoGeneration)},
	}
	report, _ := weighted.DecodeReport(group.Members[0].UserData)
	fmt.Println("a reports:", report.Topics[0].Partitions, report.Topics[0].Weights)

	plan, _ := weighted.New().Assign(group) // on the leader, whichever member it is
	fmt.Print(plan)
	planB, _ := plan.Member("b")
	b.OnAssignment(planB.Assigned, planB.UserData, 2)
	next := join(b, "b", 2, 0)
	report, _ = weighted.DecodeReport(next.UserData)
	fmt.Println("b reports:", report.Topics[0].Partitions, report.Topics[0].Weights)
	// Output:
	// a reports: [0 1 2 3] [900 100 100 100]
	// a: t[1 2 3]
	// b: t[0] userdata=33B
	// b reports: [0] [900]
}
