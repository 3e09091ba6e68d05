package member_test

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/member"
)

// A cooperative member that owns t0 partitions 0 and 1 is told to keep only
// partition 1: it revokes partition 0 (stop, callback, commit), takes t0p2,
// and rejoins at once for the follow-up rebalance.
func Example() {
	m := member.New(member.Config{Topics: []string{"t0"}, Protocol: assignor.Cooperative})
	steps := []member.Event{
		member.Start{},
		member.JoinResponse{Err: member.MemberIDRequired, MemberID: "m1"},
		member.JoinResponse{MemberID: "m1", Generation: 1},
		member.SyncResponse{Generation: 1, Assigned: []assignor.TopicPartitions{{Topic: "t0", Partitions: []int32{0, 1}}}},
		member.HeartbeatResponse{Generation: 1, Err: member.RebalanceInProgress},
		member.JoinResponse{MemberID: "m1", Generation: 2},
		member.SyncResponse{Generation: 2, Assigned: []assignor.TopicPartitions{{Topic: "t0", Partitions: []int32{1, 2}}}},
	}
	for _, ev := range steps {
		for _, a := range m.Step(ev) {
			fmt.Println(a)
		}
	}
	fmt.Println(m.Phase(), m.Generation())
	// Output:
	// SendJoin member="" owned=[] gen=-1 last=[]
	// SendJoin member="m1" owned=[] gen=-1 last=[]
	// SendSync member="m1" gen=1
	// OnAssignment t0[0 1] gen=1
	// OnAssigned t0[0 1]
	// StartDelivery t0[0 1]
	// SendJoin member="m1" owned=t0[0 1] gen=1 last=t0[0 1]
	// SendSync member="m1" gen=2
	// StopDelivery t0[0]
	// OnRevoked t0[0]
	// CommitOffsets t0[0] gen=1
	// OnAssignment t0[1 2] gen=2
	// OnAssigned t0[2]
	// StartDelivery t0[2]
	// SendJoin member="m1" owned=t0[1 2] gen=2 last=t0[1 2]
	// joining 2
}
