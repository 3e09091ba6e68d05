package franzgo

import (
	"fmt"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// syncPlan is a canonical plan of members members, each given partitions
// partitions of each of topics topics, with four bytes of user data.
func syncPlan(members, topics, partitions int) (assignor.Plan, []string) {
	var plan assignor.Plan
	var ids []string
	for m := range members {
		id := fmt.Sprintf("m%04d", m)
		ids = append(ids, id)
		mp := assignor.MemberPlan{Member: id, UserData: []byte{0, 0, 0, 1}}
		for t := range topics {
			ps := make([]int32, partitions)
			for i := range ps {
				ps[i] = int32(i*members + m)
			}
			mp.Assigned = append(mp.Assigned, assignor.TopicPartitions{Topic: fmt.Sprintf("t%03d", t), Partitions: ps})
		}
		plan.Members = append(plan.Members, mp)
	}
	return plan, ids
}

// Encoding a canonical plan costs a few allocations whatever the group's
// size: the entries by member, the user data, one buffer for every
// assignment and the list kgo takes; none per member, topic or partition.
func TestSyncAssignmentsAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	b := build(cooperative.Wrap(sticky.New()), Config{Logf: func(string, ...any) {}})
	for _, shape := range [][3]int{{2, 1, 1}, {10, 5, 10}, {200, 20, 30}} {
		plan, ids := syncPlan(shape[0], shape[1], shape[2])
		for _, followUp := range []bool{false, true} {
			plan.FollowUp = followUp
			allocs := testing.AllocsPerRun(20, func() { b.syncAssignments(plan, ids) })
			if allocs > 5 {
				t.Errorf("members, topics, partitions %v, follow-up %v: %v allocations, want at most 5", shape, followUp, allocs)
			}
		}
	}
}
