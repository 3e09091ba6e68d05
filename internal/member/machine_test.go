package member

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/kgroup/assignor"
)

func tp(topic string, ps ...int32) assignor.TopicPartitions {
	return assignor.TopicPartitions{Topic: topic, Partitions: ps}
}

func set(tps ...assignor.TopicPartitions) []assignor.TopicPartitions { return tps }

// stable returns a machine with member ID "m1" that owns owned in generation
// gen, subscribed to topics.
func stable(proto assignor.Protocol, instance string, topics []string, gen int32, owned ...assignor.TopicPartitions) *Machine {
	m := New(Config{InstanceID: instance, Topics: topics, Protocol: proto})
	m.Step(Start{})
	m.Step(JoinResponse{MemberID: "m1", Generation: gen})
	m.Step(SyncResponse{Generation: gen, Assigned: owned})
	return m
}

// joining returns a stable machine after a rebalance trigger: its JoinGroup
// is in flight.
func joining(proto assignor.Protocol, gen int32, owned ...assignor.TopicPartitions) *Machine {
	m := stable(proto, "", []string{"t0", "t1"}, gen, owned...)
	m.Step(HeartbeatResponse{Generation: gen, Err: RebalanceInProgress})
	return m
}

// syncing returns a machine whose SyncGroup for gen+1 is in flight.
func syncing(proto assignor.Protocol, gen int32, owned ...assignor.TopicPartitions) *Machine {
	m := joining(proto, gen, owned...)
	m.Step(JoinResponse{MemberID: "m1", Generation: gen + 1})
	return m
}

func render(acts []Action) []string {
	out := make([]string, len(acts))
	for i, a := range acts {
		out[i] = fmt.Sprint(a)
	}
	return out
}

const (
	eager = assignor.Eager
	coop  = assignor.Cooperative
)

// stepCase is one row of the step tables: a machine, one event, the
// actions it must cause in order, and the state it must leave.
type stepCase struct {
	name      string
	rule      string // what the row pins
	machine   func() *Machine
	event     Event
	want      []string
	phase     Phase
	memberID  string
	gen       int32
	owned     string
	stopError error // the Stop action's cause, if the row stops the member
	finding   bool  // FindingCoordinator afterwards
}

// runSteps runs each row on a fresh machine.
func runSteps(t *testing.T, tests []stepCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tt.machine()
			acts := m.Step(tt.event)
			got := render(acts)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("%s\nactions:\n got %q\nwant %q", tt.rule, got, tt.want)
			}
			if m.Phase() != tt.phase || m.MemberID() != tt.memberID || m.Generation() != tt.gen || assignor.FormatTopicPartitions(m.Owned()) != tt.owned || m.FindingCoordinator() != tt.finding {
				t.Fatalf("%s\nstate: got phase=%v member=%q gen=%d owned=%q finding=%v, want phase=%v member=%q gen=%d owned=%q finding=%v",
					tt.rule, m.Phase(), m.MemberID(), m.Generation(), assignor.FormatTopicPartitions(m.Owned()), m.FindingCoordinator(),
					tt.phase, tt.memberID, tt.gen, tt.owned, tt.finding)
			}
			if tt.stopError != nil {
				stop, ok := acts[len(acts)-1].(Stop)
				var se *StopError
				if !ok || !errors.Is(stop.Err, tt.stopError) || !errors.As(stop.Err, &se) {
					t.Fatalf("%s: last action %v, want Stop wrapping %v in a *StopError", tt.rule, acts[len(acts)-1], tt.stopError)
				}
			}
		})
	}
}

func TestStep(t *testing.T) {
	runSteps(t, []stepCase{
		{
			name:    "first join",
			rule:    "Start sends a JoinGroup without an ID, claims or generation",
			machine: func() *Machine { return New(Config{Topics: []string{"t0"}, Protocol: coop}) },
			event:   Start{},
			want:    []string{`SendJoin member="" owned=[] gen=-1 last=[]`},
			phase:   Joining, gen: -1, owned: "",
		},
		{
			name:    "member id required keeps owned",
			rule:    "MEMBER_ID_REQUIRED: rejoin with the given ID, keep and claim owned",
			machine: func() *Machine { return joining(coop, 3, tp("t0", 0, 1)) },
			event:   JoinResponse{Err: MemberIDRequired, MemberID: "m9"},
			want:    []string{`SendJoin member="m9" owned=t0[0 1] gen=3 last=t0[0 1]`},
			phase:   Joining, memberID: "m9", gen: 3, owned: "t0[0 1]",
		},
		{
			name:    "cooperative heartbeat rebalance keeps owned",
			rule:    "REBALANCE_IN_PROGRESS from heartbeat: keep and claim owned with the generation",
			machine: func() *Machine { return stable(coop, "", []string{"t0"}, 3, tp("t0", 0, 1)) },
			event:   HeartbeatResponse{Generation: 3, Err: RebalanceInProgress},
			want:    []string{`SendJoin member="m1" owned=t0[0 1] gen=3 last=t0[0 1]`},
			phase:   Joining, memberID: "m1", gen: 3, owned: "t0[0 1]",
		},
		{
			name:    "cooperative commit rebalance keeps owned",
			rule:    "REBALANCE_IN_PROGRESS from commit: same as from heartbeat",
			machine: func() *Machine { return stable(coop, "", []string{"t0"}, 3, tp("t0", 0, 1)) },
			event:   CommitResponse{Generation: 3, Err: RebalanceInProgress},
			want:    []string{`SendJoin member="m1" owned=t0[0 1] gen=3 last=t0[0 1]`},
			phase:   Joining, memberID: "m1", gen: 3, owned: "t0[0 1]",
		},
		{
			name:    "cooperative metadata change keeps owned",
			rule:    "metadata change: keep and claim owned",
			machine: func() *Machine { return stable(coop, "", []string{"t0"}, 3, tp("t0", 0, 1)) },
			event:   MetadataChanged{},
			want:    []string{`SendJoin member="m1" owned=t0[0 1] gen=3 last=t0[0 1]`},
			phase:   Joining, memberID: "m1", gen: 3, owned: "t0[0 1]",
		},
		{
			name:    "cooperative subscription change revokes dropped topics",
			rule:    "subscription change: revoke partitions of unsubscribed topics (Java), keep the rest",
			machine: func() *Machine { return stable(coop, "", []string{"t0", "t1"}, 3, tp("t0", 0), tp("t1", 1)) },
			event:   SubscriptionChanged{Topics: []string{"t0", "t2"}},
			want: []string{
				"StopDelivery t1[1]", "OnRevoked t1[1]", "CommitOffsets t1[1] gen=3",
				`SendJoin member="m1" owned=t0[0] gen=3 last=t0[0] t1[1]`,
			},
			phase: Joining, memberID: "m1", gen: 3, owned: "t0[0]",
		},
		{
			name:    "eager heartbeat rebalance revokes everything",
			rule:    "eager: revoke everything before every join",
			machine: func() *Machine { return stable(eager, "", []string{"t0"}, 3, tp("t0", 0, 1)) },
			event:   HeartbeatResponse{Generation: 3, Err: RebalanceInProgress},
			want: []string{
				"StopDelivery t0[0 1]", "OnRevoked t0[0 1]", "CommitOffsets t0[0 1] gen=3",
				`SendJoin member="m1" owned=[] gen=3 last=t0[0 1]`,
			},
			phase: Joining, memberID: "m1", gen: 3, owned: "",
		},
		{
			name:    "eager metadata change revokes everything",
			rule:    "eager: revoke everything before every join",
			machine: func() *Machine { return stable(eager, "", []string{"t0"}, 3, tp("t0", 0)) },
			event:   MetadataChanged{},
			want: []string{
				"StopDelivery t0[0]", "OnRevoked t0[0]", "CommitOffsets t0[0] gen=3",
				`SendJoin member="m1" owned=[] gen=3 last=t0[0]`,
			},
			phase: Joining, memberID: "m1", gen: 3, owned: "",
		},
		{
			name:    "unknown member id from heartbeat",
			rule:    "UNKNOWN_MEMBER_ID: reset generation and member ID, lose everything, rejoin owning none",
			machine: func() *Machine { return stable(coop, "", []string{"t0"}, 3, tp("t0", 0, 1)) },
			event:   HeartbeatResponse{Generation: 3, Err: UnknownMemberID},
			want:    []string{"StopDelivery t0[0 1]", "OnLost t0[0 1]", `SendJoin member="" owned=[] gen=-1 last=[]`},
			phase:   Joining, memberID: "", gen: -1, owned: "",
		},
		{
			name:    "illegal generation from commit",
			rule:    "ILLEGAL_GENERATION: reset generation, keep member ID, lose everything, rejoin owning none",
			machine: func() *Machine { return stable(coop, "", []string{"t0"}, 3, tp("t0", 0, 1)) },
			event:   CommitResponse{Generation: 3, Err: IllegalGeneration},
			want:    []string{"StopDelivery t0[0 1]", "OnLost t0[0 1]", `SendJoin member="m1" owned=[] gen=-1 last=[]`},
			phase:   Joining, memberID: "m1", gen: -1, owned: "",
		},
		{
			name:    "eager illegal generation loses nothing it no longer owns",
			rule:    "ILLEGAL_GENERATION in eager mode during a sync: nothing owned, nothing lost",
			machine: func() *Machine { return syncing(eager, 3, tp("t0", 0)) },
			event:   SyncResponse{Generation: 4, Err: IllegalGeneration},
			want:    []string{`SendJoin member="m1" owned=[] gen=-1 last=[]`},
			phase:   Joining, memberID: "m1", gen: -1, owned: "",
		},
		{
			name:    "unknown member id from sync",
			rule:    "UNKNOWN_MEMBER_ID from SyncGroup: reset and lose everything",
			machine: func() *Machine { return syncing(coop, 3, tp("t0", 0)) },
			event:   SyncResponse{Generation: 4, Err: UnknownMemberID},
			want:    []string{"StopDelivery t0[0]", "OnLost t0[0]", `SendJoin member="" owned=[] gen=-1 last=[]`},
			phase:   Joining, memberID: "", gen: -1, owned: "",
		},
		{
			name:    "unknown member id from join",
			rule:    "UNKNOWN_MEMBER_ID from JoinGroup: reset and lose everything",
			machine: func() *Machine { return joining(coop, 3, tp("t0", 0)) },
			event:   JoinResponse{Err: UnknownMemberID},
			want:    []string{"StopDelivery t0[0]", "OnLost t0[0]", `SendJoin member="" owned=[] gen=-1 last=[]`},
			phase:   Joining, memberID: "", gen: -1, owned: "",
		},
		{
			name:    "fenced from heartbeat stops",
			rule:    "FENCED_INSTANCE_ID: lose everything and stop, never rejoin",
			machine: func() *Machine { return stable(coop, "i1", []string{"t0"}, 3, tp("t0", 0)) },
			event:   HeartbeatResponse{Generation: 3, Err: FencedInstanceID},
			want:    []string{"StopDelivery t0[0]", "OnLost t0[0]", `Stop: member: static member fenced by a newer instance: "m1" (instance "i1") generation 3: FENCED_INSTANCE_ID`},
			phase:   Stopped, memberID: "m1", gen: -1, owned: "", stopError: ErrFenced,
		},
		{
			name: "stopped member ignores everything",
			rule: "FENCED_INSTANCE_ID: never rejoin, even on a later trigger",
			machine: func() *Machine {
				m := stable(coop, "i1", []string{"t0"}, 3, tp("t0", 0))
				m.Step(JoinResponse{}) // ignored: not joining
				m.Step(HeartbeatResponse{Generation: 3, Err: FencedInstanceID})
				return m
			},
			event: MetadataChanged{},
			want:  []string{},
			phase: Stopped, memberID: "m1", gen: -1, owned: "",
		},
		{
			name:    "older generation heartbeat error ignored",
			rule:    "an error answering an older generation than the current one is ignored",
			machine: func() *Machine { return stable(coop, "", []string{"t0"}, 3, tp("t0", 0)) },
			event:   HeartbeatResponse{Generation: 2, Err: IllegalGeneration},
			want:    []string{},
			phase:   Stable, memberID: "m1", gen: 3, owned: "t0[0]",
		},
		{
			name:    "older generation sync error ignored",
			rule:    "a SyncGroup answer for another generation than the join's is ignored",
			machine: func() *Machine { return syncing(coop, 3, tp("t0", 0)) },
			event:   SyncResponse{Generation: 3, Err: UnknownMemberID},
			want:    []string{},
			phase:   Syncing, memberID: "m1", gen: 3, owned: "t0[0]",
		},
		{
			name:    "heartbeat error during join ignored",
			rule:    "heartbeat and commit answers are ignored while a JoinGroup is in flight",
			machine: func() *Machine { return joining(coop, 3, tp("t0", 0)) },
			event:   HeartbeatResponse{Generation: 3, Err: UnknownMemberID},
			want:    []string{},
			phase:   Joining, memberID: "m1", gen: 3, owned: "t0[0]",
		},
		{
			name:    "join success sends sync",
			rule:    "JoinGroup success: SyncGroup for the returned generation",
			machine: func() *Machine { return joining(coop, 3, tp("t0", 0)) },
			event:   JoinResponse{MemberID: "m1", Generation: 4},
			want:    []string{`SendSync member="m1" gen=4`},
			phase:   Syncing, memberID: "m1", gen: 3, owned: "t0[0]",
		},
		{
			name:    "cooperative sync revokes then assigns then rejoins",
			rule:    "SyncGroup: revoked = owned - assigned first (stop, callback, commit), then hook, then assigned callback; rejoin at once",
			machine: func() *Machine { return syncing(coop, 3, tp("t0", 0, 1)) },
			event:   SyncResponse{Generation: 4, Assigned: set(tp("t0", 1), tp("t1", 2))},
			want: []string{
				"StopDelivery t0[0]", "OnRevoked t0[0]", "CommitOffsets t0[0] gen=3",
				"OnAssignment t0[1] t1[2] gen=4", "OnAssigned t1[2]", "StartDelivery t1[2]",
				`SendJoin member="m1" owned=t0[1] t1[2] gen=4 last=t0[1] t1[2]`,
			},
			phase: Joining, memberID: "m1", gen: 4, owned: "t0[1] t1[2]",
		},
		{
			name:    "cooperative sync without revocation settles",
			rule:    "SyncGroup with nothing revoked: no rejoin; the assigned callback runs even with nothing added",
			machine: func() *Machine { return syncing(coop, 3, tp("t0", 0)) },
			event:   SyncResponse{Generation: 4, Assigned: set(tp("t0", 0))},
			want:    []string{"OnAssignment t0[0] gen=4", "OnAssigned []"},
			phase:   Stable, memberID: "m1", gen: 4, owned: "t0[0]",
		},
		{
			name:    "eager sync never rejoins",
			rule:    "eager: nothing is owned at sync time, nothing revoked, no rejoin",
			machine: func() *Machine { return syncing(eager, 3, tp("t0", 0)) },
			event:   SyncResponse{Generation: 4, Assigned: set(tp("t0", 1, 0, 1))},
			want:    []string{"OnAssignment t0[0 1] gen=4", "OnAssigned t0[0 1]", "StartDelivery t0[0 1]"},
			phase:   Stable, memberID: "m1", gen: 4, owned: "t0[0 1]",
		},
		{
			name:    "sync rebalance in progress keeps owned",
			rule:    "REBALANCE_IN_PROGRESS from SyncGroup: rejoin keeping owned, old generation",
			machine: func() *Machine { return syncing(coop, 3, tp("t0", 0)) },
			event:   SyncResponse{Generation: 4, Err: RebalanceInProgress},
			want:    []string{`SendJoin member="m1" owned=t0[0] gen=3 last=t0[0]`},
			phase:   Joining, memberID: "m1", gen: 3, owned: "t0[0]",
		},
		{
			name: "trigger during sync rejoins after",
			rule: "a metadata change during a rebalance makes the member rejoin when it completes",
			machine: func() *Machine {
				m := syncing(coop, 3, tp("t0", 0))
				m.Step(MetadataChanged{})
				return m
			},
			event: SyncResponse{Generation: 4, Assigned: set(tp("t0", 0))},
			want: []string{
				"OnAssignment t0[0] gen=4", "OnAssigned []",
				`SendJoin member="m1" owned=t0[0] gen=4 last=t0[0]`,
			},
			phase: Joining, memberID: "m1", gen: 4, owned: "t0[0]",
		},
		{
			name:    "dynamic leave revokes and sends leave",
			rule:    "Leave: revoke everything (stop, callback, commit), LeaveGroup, stop",
			machine: func() *Machine { return stable(coop, "", []string{"t0"}, 3, tp("t0", 0)) },
			event:   Leave{},
			want:    []string{"StopDelivery t0[0]", "OnRevoked t0[0]", "CommitOffsets t0[0] gen=3", `SendLeave member="m1"`, "Stop"},
			phase:   Stopped, memberID: "m1", gen: 3, owned: "",
		},
		{
			name:    "static leave sends no leave",
			rule:    "KIP-345: a static member closes without LeaveGroup",
			machine: func() *Machine { return stable(coop, "i1", []string{"t0"}, 3, tp("t0", 0)) },
			event:   Leave{},
			want:    []string{"StopDelivery t0[0]", "OnRevoked t0[0]", "CommitOffsets t0[0] gen=3", "Stop"},
			phase:   Stopped, memberID: "m1", gen: 3, owned: "",
		},
		{
			name:    "static first join",
			rule:    "a static member joins with its instance ID",
			machine: func() *Machine { return New(Config{InstanceID: "i1", Topics: []string{"t0"}, Protocol: coop}) },
			event:   Start{},
			want:    []string{`SendJoin member="" instance="i1" owned=[] gen=-1 last=[]`},
			phase:   Joining, gen: -1,
		},
		{
			name:    "inconsistent protocol stops",
			rule:    "a JoinGroup error the rules do not name stops the member",
			machine: func() *Machine { return New(Config{Topics: []string{"t0"}, Protocol: coop}) },
			event:   JoinResponse{Err: InconsistentGroupProtocol},
			want:    []string{},
			phase:   Unjoined, gen: -1,
		},
		{
			name: "inconsistent protocol after start stops",
			rule: "a JoinGroup error the rules do not name stops the member",
			machine: func() *Machine {
				m := New(Config{Topics: []string{"t0"}, Protocol: coop})
				m.Step(Start{})
				return m
			},
			event: JoinResponse{Err: InconsistentGroupProtocol},
			want:  []string{`Stop: member: join rejected by the coordinator: "" generation -1: INCONSISTENT_GROUP_PROTOCOL`},
			phase: Stopped, gen: -1,
			stopError: ErrJoinRejected,
		},
		{
			name:    "unknown heartbeat error ignored",
			rule:    "heartbeat errors the rules do not name are left to the caller's retry",
			machine: func() *Machine { return stable(coop, "", []string{"t0"}, 3, tp("t0", 0)) },
			event:   HeartbeatResponse{Generation: 3, Err: 7},
			want:    []string{},
			phase:   Stable, memberID: "m1", gen: 3, owned: "t0[0]",
		},
		{
			name:    "rejected rejoin reports the generation the member had",
			rule:    "the stop error names the generation the member had, not the -1 losing everything leaves",
			machine: func() *Machine { return joining(coop, 3, tp("t0", 0)) },
			event:   JoinResponse{Err: InconsistentGroupProtocol},
			want: []string{"StopDelivery t0[0]", "OnLost t0[0]",
				`Stop: member: join rejected by the coordinator: "m1" generation 3: INCONSISTENT_GROUP_PROTOCOL`},
			phase: Stopped, memberID: "m1", gen: -1, stopError: ErrJoinRejected,
		},
	})
}

// TestActionsDoNotAlias pins the contract that actions never alias the
// machine: mutating an action's slices leaves the machine's state unchanged.
func TestActionsDoNotAlias(t *testing.T) {
	m := syncing(coop, 3, tp("t0", 0, 1))
	acts := m.Step(SyncResponse{Generation: 4, Assigned: set(tp("t0", 1, 2))})
	for _, a := range acts {
		switch a := a.(type) {
		case OnAssignment:
			a.Assigned[0].Partitions[0] = 99
		case SendJoin:
			a.Owned[0].Partitions[0] = 98
			a.LastAssignment[0].Partitions[0] = 97
		}
	}
	if got := assignor.FormatTopicPartitions(m.Owned()); got != "t0[1 2]" {
		t.Fatalf("owned after mutating actions = %s, want t0[1 2]", got)
	}
	acts = m.Step(JoinResponse{MemberID: "m1", Generation: 5})
	if len(acts) != 1 {
		t.Fatalf("join answer: %v", acts)
	}
}

// TestStopErrorText pins how a StopError reads: the package named once, a
// sentinel of this package first, any other cause last and untouched.
func TestStopErrorText(t *testing.T) {
	tests := []struct {
		name string
		err  *StopError
		want string
	}{
		{"a sentinel of this package leads", &StopError{MemberID: "m1", InstanceID: "i1", Generation: 3, Code: FencedInstanceID, Err: ErrFenced},
			`member: static member fenced by a newer instance: "m1" (instance "i1") generation 3: FENCED_INSTANCE_ID`},
		{"a foreign cause follows, untouched", &StopError{MemberID: "m1", Generation: 7, Code: UnknownMemberID, Err: errors.New("sync group: connection reset")},
			`member: "m1" generation 7: UNKNOWN_MEMBER_ID: sync group: connection reset`},
		{"no cause", &StopError{MemberID: "m1", Generation: 7, Code: RebalanceInProgress},
			`member: "m1" generation 7: REBALANCE_IN_PROGRESS`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}
