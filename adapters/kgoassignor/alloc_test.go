package kgoassignor

import (
	"fmt"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/rebalance"
	"github.com/kgroup/assignor/sticky"
)

// syncAssignmentsOf are members members' assignments, each given
// partitions partitions of each of topics topics, with four bytes of user
// data, marked for fast re-join or not.
func syncAssignmentsOf(members, topics, partitions int, rejoin bool) []rebalance.Assignment {
	var out []rebalance.Assignment
	for m := range members {
		a := rebalance.Assignment{Member: fmt.Sprintf("m%04d", m), UserData: []byte{0, 0, 0, 1}, Rejoin: rejoin}
		for t := range topics {
			ps := make([]int32, partitions)
			for i := range ps {
				ps[i] = int32(i*members + m)
			}
			a.Partitions = append(a.Partitions, assignor.TopicPartitions{Topic: fmt.Sprintf("t%03d", t), Partitions: ps})
		}
		out = append(out, a)
	}
	return out
}

// Encoding the assignments costs two allocations whatever the group's
// size: one buffer for every assignment and the list kgo takes; none per
// member, topic or partition.
func TestSyncAssignmentsAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	for _, shape := range [][3]int{{2, 1, 1}, {10, 5, 10}, {200, 20, 30}} {
		for _, rejoin := range []bool{false, true} {
			as := syncAssignmentsOf(shape[0], shape[1], shape[2], rejoin)
			allocs := testing.AllocsPerRun(20, func() { syncAssignments(as) })
			if allocs > 2 {
				t.Errorf("members, topics, partitions %v, marked %v: %v allocations, want at most 2", shape, rejoin, allocs)
			}
		}
	}
}

// Decoding members that share a subscription costs a few allocations
// whatever the group's size, none per member, topic or owned partition:
// their topics and user data are decoded once and their owned partitions
// stay in the metadata until the balance.
func TestMemberBalancerAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	b := build(cooperative.Wrap(sticky.New()), Config{Logger: discard})
	for _, shape := range [][3]int{{10, 5, 4}, {200, 20, 30}} {
		members, topics, partitions := shape[0], shape[1], shape[2]
		names := make([]string, topics)
		for i := range names {
			names[i] = fmt.Sprintf("t%03d", i)
		}
		var kms []kmsg.JoinGroupResponseMember
		for m := range members {
			owned := make(map[string][]int32, topics)
			for _, name := range names {
				for p := range partitions {
					owned[name] = append(owned[name], int32(p*members+m))
				}
			}
			kms = append(kms, member(fmt.Sprintf("m%04d", m), b.JoinGroupMetadata(names, owned, 3)))
		}
		allocs := testing.AllocsPerRun(10, func() { b.MemberBalancer(kms) })
		if allocs > 32 {
			t.Errorf("members, topics, partitions %v: %v allocations, want at most 32 whatever the group's size", shape, allocs)
		}
	}
}
