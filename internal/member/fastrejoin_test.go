package member

import "testing"

// rounds makes m, joining, go through rebalances whose assignments give it
// t0[0] with the fast re-join mark set as marked says (a stable member
// is sent into the next round by a metadata change), then answers its
// last JoinGroup: it is left syncing.
func rounds(m *Machine, marked ...bool) *Machine {
	for _, mark := range marked {
		gen := m.Generation() + 1
		m.Step(JoinResponse{MemberID: "m1", Generation: gen})
		m.Step(SyncResponse{Generation: gen, Assigned: set(tp("t0", 0)), Rejoin: mark})
		if m.Phase() == Stable {
			m.Step(MetadataChanged{})
		}
	}
	m.Step(JoinResponse{MemberID: "m1", Generation: m.Generation() + 1})
	return m
}

// TestFastRejoin pins how a member reacts to the leader's fast re-join mark
// (design step 2.6): a cooperative member rejoins at once, keeping what it
// owns, unless it ignores marks, follows the eager protocol, or has already
// rejoined MaxFastRejoins times in a row for marks.
func TestFastRejoin(t *testing.T) {
	rejoin := `SendJoin member="m1" owned=t0[0] gen=4 last=t0[0]`
	runSteps(t, []stepCase{
		{
			name:    "marked assignment rejoins at once",
			rule:    "a marked assignment makes a cooperative member rejoin right after the assigned callback, claiming what it owns",
			machine: func() *Machine { return syncing(coop, 3, tp("t0", 0)) },
			event:   SyncResponse{Generation: 4, Assigned: set(tp("t0", 0)), Rejoin: true},
			want:    []string{"OnAssignment t0[0] gen=4", "OnAssigned []", rejoin},
			phase:   Joining, memberID: "m1", gen: 4, owned: "t0[0]",
		},
		{
			name:    "unmarked assignment settles",
			rule:    "without the mark (and nothing revoked) the member stays stable and waits for its heartbeat",
			machine: func() *Machine { return syncing(coop, 3, tp("t0", 0)) },
			event:   SyncResponse{Generation: 4, Assigned: set(tp("t0", 0))},
			want:    []string{"OnAssignment t0[0] gen=4", "OnAssigned []"},
			phase:   Stable, memberID: "m1", gen: 4, owned: "t0[0]",
		},
		{
			name:    "revoking and marked rejoins once",
			rule:    "a member that revoked something and is marked sends one JoinGroup, not two",
			machine: func() *Machine { return syncing(coop, 3, tp("t0", 0, 1)) },
			event:   SyncResponse{Generation: 4, Assigned: set(tp("t0", 0)), Rejoin: true},
			want: []string{"StopDelivery t0[1]", "OnRevoked t0[1]", "CommitOffsets t0[1] gen=3",
				"OnAssignment t0[0] gen=4", "OnAssigned []", rejoin},
			phase: Joining, memberID: "m1", gen: 4, owned: "t0[0]",
		},
		{
			name: "disabled ignores the mark",
			rule: "Config.DisableFastRejoin: the member ignores marks, as Java's, sarama's and kgo's do",
			machine: func() *Machine {
				m := New(Config{Topics: []string{"t0"}, Protocol: coop, DisableFastRejoin: true})
				m.Step(Start{})
				return steps(m, JoinResponse{MemberID: "m1", Generation: 3}, SyncResponse{Generation: 3, Assigned: set(tp("t0", 0))},
					HeartbeatResponse{Generation: 3, Err: RebalanceInProgress}, JoinResponse{MemberID: "m1", Generation: 4})
			},
			event: SyncResponse{Generation: 4, Assigned: set(tp("t0", 0)), Rejoin: true},
			want:  []string{"OnAssignment t0[0] gen=4", "OnAssigned []"},
			phase: Stable, memberID: "m1", gen: 4, owned: "t0[0]",
		},
		{
			name: "eager ignores the mark",
			rule: "an eager member never rejoins for a mark: it would stop everything it owns",
			machine: func() *Machine {
				return syncing(eager, 3)
			},
			event: SyncResponse{Generation: 4, Assigned: set(tp("t0", 0)), Rejoin: true},
			want:  []string{"OnAssignment t0[0] gen=4", "OnAssigned t0[0]", "StartDelivery t0[0]"},
			phase: Stable, memberID: "m1", gen: 4, owned: "t0[0]",
		},
		{
			name: "the guard stops after MaxFastRejoins marks in a row",
			rule: "after three consecutive marked assignments the fourth is not honoured (an unstable inner assignor)",
			machine: func() *Machine {
				return rounds(joining(coop, 0, tp("t0", 0)), true, true, true)
			},
			event: SyncResponse{Generation: 4, Assigned: set(tp("t0", 0)), Rejoin: true},
			want:  []string{"OnAssignment t0[0] gen=4", "OnAssigned []"},
			phase: Stable, memberID: "m1", gen: 4, owned: "t0[0]",
		},
		{
			name: "an unmarked assignment resets the guard",
			rule: "the count is of consecutive marks: one unmarked assignment starts it again",
			machine: func() *Machine {
				return rounds(joining(coop, 0, tp("t0", 0)), true, true, false)
			},
			event: SyncResponse{Generation: 4, Assigned: set(tp("t0", 0)), Rejoin: true},
			want:  []string{"OnAssignment t0[0] gen=4", "OnAssigned []", rejoin},
			phase: Joining, memberID: "m1", gen: 4, owned: "t0[0]",
		},
	})
}
