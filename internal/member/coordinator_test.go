package member

import (
	"testing"
	"time"
)

// steps feeds evs to m and returns it.
func steps(m *Machine, evs ...Event) *Machine {
	for _, ev := range evs {
		m.Step(ev)
	}
	return m
}

var (
	notCoordinator = JoinResponse{Err: NotCoordinator}
	found          = FindCoordinatorResponse{}
	stillMissing   = FindCoordinatorResponse{Err: CoordinatorNotAvailable}
)

// TestCoordinatorErrors pins what a member does when its coordinator moves
// or is not ready: it looks the coordinator up again with backoff (or
// retries after a backoff while the coordinator loads the group), keeps and
// claims what it owns throughout, sends nothing to the group meanwhile, and
// never stops for it (Java's AbstractCoordinator; see coordinatorError for
// why not sarama's Retry.Max).
func TestCoordinatorErrors(t *testing.T) {
	runSteps(t, []stepCase{
		{
			name:     "join not coordinator",
			rule:     "NOT_COORDINATOR on JoinGroup: look the coordinator up after a backoff, keep owned",
			machine:  func() *Machine { return joining(coop, 3, tp("t0", 0)) },
			event:    notCoordinator,
			want:     []string{"FindCoordinator after=100ms attempt=1"},
			memberID: "m1",
			phase:    Joining, finding: true, gen: 3, owned: "t0[0]",
		},
		{
			name:     "join coordinator not available",
			rule:     "COORDINATOR_NOT_AVAILABLE on JoinGroup: same as NOT_COORDINATOR",
			machine:  func() *Machine { return joining(eager, 3) },
			event:    JoinResponse{Err: CoordinatorNotAvailable},
			want:     []string{"FindCoordinator after=100ms attempt=1"},
			memberID: "m1",
			phase:    Joining, finding: true, gen: 3, owned: "",
		},
		{
			name:     "join load in progress",
			rule:     "COORDINATOR_LOAD_IN_PROGRESS on JoinGroup: the coordinator is right; rejoin after a backoff, claiming owned",
			machine:  func() *Machine { return joining(coop, 3, tp("t0", 0)) },
			event:    JoinResponse{Err: CoordinatorLoadInProgress},
			want:     []string{`SendJoin member="m1" owned=t0[0] gen=3 last=t0[0] after=100ms`},
			memberID: "m1",
			phase:    Joining, gen: 3, owned: "t0[0]",
		},
		{
			name:     "found rejoins keeping owned",
			rule:     "once the coordinator is found, the JoinGroup goes out, claiming owned with its generation",
			machine:  func() *Machine { return steps(joining(coop, 3, tp("t0", 0, 1)), notCoordinator) },
			event:    found,
			want:     []string{`SendJoin member="m1" owned=t0[0 1] gen=3 last=t0[0 1]`},
			memberID: "m1",
			phase:    Joining, gen: 3, owned: "t0[0 1]",
		},
		{
			name:     "not found looks again, longer",
			rule:     "a failed lookup is retried with the backoff doubled",
			machine:  func() *Machine { return steps(joining(coop, 3, tp("t0", 0)), notCoordinator) },
			event:    stillMissing,
			want:     []string{"FindCoordinator after=200ms attempt=2"},
			memberID: "m1",
			phase:    Joining, finding: true, gen: 3, owned: "t0[0]",
		},
		{
			name: "backoff is capped and retries never stop",
			rule: "the backoff doubles up to RetryBackoffMax (1 s) and the member never gives up (Java, not sarama's Retry.Max)",
			machine: func() *Machine {
				return steps(joining(coop, 3, tp("t0", 0)), notCoordinator, stillMissing, stillMissing, stillMissing, stillMissing, stillMissing, stillMissing, stillMissing, stillMissing)
			},
			event:    stillMissing,
			want:     []string{"FindCoordinator after=1s attempt=10"},
			memberID: "m1",
			phase:    Joining, finding: true, gen: 3, owned: "t0[0]",
		},
		{
			name:     "join answer while finding ignored",
			rule:     "no JoinGroup is in flight while the coordinator is looked up: a stray answer changes nothing",
			machine:  func() *Machine { return steps(joining(coop, 3, tp("t0", 0)), notCoordinator) },
			event:    JoinResponse{MemberID: "m1", Generation: 4},
			want:     []string{},
			memberID: "m1",
			phase:    Joining, finding: true, gen: 3, owned: "t0[0]",
		},
		{
			name: "attempts reset after a successful join",
			rule: "a successful JoinGroup ends the run of coordinator errors: the next one backs off from the start",
			machine: func() *Machine {
				return steps(joining(coop, 3, tp("t0", 0)), notCoordinator, stillMissing, found, JoinResponse{MemberID: "m1", Generation: 4})
			},
			event:    SyncResponse{Generation: 4, Err: NotCoordinator},
			want:     []string{"FindCoordinator after=100ms attempt=1"},
			memberID: "m1",
			phase:    Joining, finding: true, gen: 3, owned: "t0[0]",
		},
		{
			name:     "sync not coordinator rediscovers then rejoins",
			rule:     "NOT_COORDINATOR on SyncGroup: look the coordinator up first, then rejoin keeping owned",
			machine:  func() *Machine { return syncing(coop, 3, tp("t0", 0)) },
			event:    SyncResponse{Generation: 4, Err: NotCoordinator},
			want:     []string{"FindCoordinator after=100ms attempt=1"},
			memberID: "m1",
			phase:    Joining, finding: true, gen: 3, owned: "t0[0]",
		},
		{
			name: "sync rediscovery ends in a join",
			rule: "after a SyncGroup's coordinator error the member rejoins (the generation it joined is gone)",
			machine: func() *Machine {
				return steps(syncing(coop, 3, tp("t0", 0)), SyncResponse{Generation: 4, Err: CoordinatorNotAvailable})
			},
			event:    found,
			want:     []string{`SendJoin member="m1" owned=t0[0] gen=3 last=t0[0]`},
			memberID: "m1",
			phase:    Joining, gen: 3, owned: "t0[0]",
		},
		{
			name:     "sync load in progress rejoins after a backoff",
			rule:     "COORDINATOR_LOAD_IN_PROGRESS on SyncGroup: no lookup, rejoin after a backoff",
			machine:  func() *Machine { return syncing(coop, 3, tp("t0", 0)) },
			event:    SyncResponse{Generation: 4, Err: CoordinatorLoadInProgress},
			want:     []string{`SendJoin member="m1" owned=t0[0] gen=3 last=t0[0] after=100ms`},
			memberID: "m1",
			phase:    Joining, gen: 3, owned: "t0[0]",
		},
		{
			name:     "stable heartbeat not coordinator",
			rule:     "NOT_COORDINATOR on a heartbeat while stable: look the coordinator up, do not rejoin (Java)",
			machine:  func() *Machine { return stable(coop, "", []string{"t0"}, 3, tp("t0", 0)) },
			event:    HeartbeatResponse{Generation: 3, Err: NotCoordinator},
			want:     []string{"FindCoordinator after=100ms attempt=1"},
			memberID: "m1",
			phase:    Stable, finding: true, gen: 3, owned: "t0[0]",
		},
		{
			name:     "stable commit coordinator not available",
			rule:     "COORDINATOR_NOT_AVAILABLE on a commit while stable: the same, even in eager mode (nothing revoked)",
			machine:  func() *Machine { return stable(eager, "", []string{"t0"}, 3, tp("t0", 0)) },
			event:    CommitResponse{Generation: 3, Err: CoordinatorNotAvailable},
			want:     []string{"FindCoordinator after=100ms attempt=1"},
			memberID: "m1",
			phase:    Stable, finding: true, gen: 3, owned: "t0[0]",
		},
		{
			name:     "stable heartbeat load in progress",
			rule:     "COORDINATOR_LOAD_IN_PROGRESS on a heartbeat: left to the next heartbeat",
			machine:  func() *Machine { return stable(coop, "", []string{"t0"}, 3, tp("t0", 0)) },
			event:    HeartbeatResponse{Generation: 3, Err: CoordinatorLoadInProgress},
			want:     []string{},
			memberID: "m1",
			phase:    Stable, gen: 3, owned: "t0[0]",
		},
		{
			name: "stable found resumes",
			rule: "a stable member that found its coordinator goes on heartbeating: no rejoin",
			machine: func() *Machine {
				return steps(stable(coop, "", []string{"t0"}, 3, tp("t0", 0)), HeartbeatResponse{Generation: 3, Err: NotCoordinator})
			},
			event:    found,
			want:     []string{},
			memberID: "m1",
			phase:    Stable, gen: 3, owned: "t0[0]",
		},
		{
			name: "heartbeat answer while finding ignored",
			rule: "answers from the old coordinator are ignored until the new one is found",
			machine: func() *Machine {
				return steps(stable(coop, "", []string{"t0"}, 3, tp("t0", 0)), HeartbeatResponse{Generation: 3, Err: NotCoordinator})
			},
			event:    HeartbeatResponse{Generation: 3, Err: UnknownMemberID},
			want:     []string{},
			memberID: "m1",
			phase:    Stable, finding: true, gen: 3, owned: "t0[0]",
		},
		{
			name: "trigger while finding waits for the coordinator",
			rule: "a subscription change while the coordinator is looked up revokes dropped topics now and joins once it is found",
			machine: func() *Machine {
				return steps(stable(coop, "", []string{"t0", "t1"}, 3, tp("t0", 0), tp("t1", 1)), HeartbeatResponse{Generation: 3, Err: NotCoordinator})
			},
			event:    SubscriptionChanged{Topics: []string{"t0"}},
			want:     []string{"StopDelivery t1[1]", "OnRevoked t1[1]", "CommitOffsets t1[1] gen=3"},
			memberID: "m1",
			phase:    Joining, finding: true, gen: 3, owned: "t0[0]",
		},
		{
			name: "leave while finding",
			rule: "Leave works while the coordinator is looked up: revoke, LeaveGroup (best effort), stop",
			machine: func() *Machine {
				return steps(stable(coop, "", []string{"t0"}, 3, tp("t0", 0)), HeartbeatResponse{Generation: 3, Err: NotCoordinator})
			},
			event:    Leave{},
			want:     []string{"StopDelivery t0[0]", "OnRevoked t0[0]", "CommitOffsets t0[0] gen=3", `SendLeave member="m1"`, "Stop"},
			memberID: "m1",
			phase:    Stopped, finding: true, gen: 3, owned: "",
		},
		{
			name:     "found answer nobody waits for ignored",
			rule:     "a FindCoordinator answer without a FindCoordinator action does nothing",
			machine:  func() *Machine { return stable(coop, "", []string{"t0"}, 3, tp("t0", 0)) },
			event:    found,
			want:     []string{},
			memberID: "m1",
			phase:    Stable, gen: 3, owned: "t0[0]",
		},
	})
}

// TestRetryBackoffConfig pins Config.RetryBackoff and RetryBackoffMax: the
// first wait, the doubling, the cap, and the defaults for zero values.
func TestRetryBackoffConfig(t *testing.T) {
	tests := []struct {
		name      string
		base, max time.Duration
		want      []time.Duration
	}{
		{"defaults (Java's retry.backoff.ms and retry.backoff.max.ms)", 0, 0, []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, time.Second, time.Second}},
		{"custom", 250 * time.Millisecond, 600 * time.Millisecond, []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, 600 * time.Millisecond, 600 * time.Millisecond}},
		{"max below base is base", 2 * time.Second, time.Second, []time.Duration{2 * time.Second, 2 * time.Second}},
		{"negative is the default", -1, -1, []time.Duration{100 * time.Millisecond, 200 * time.Millisecond}},
		{"huge max never overflows", time.Hour, 1<<63 - 1, []time.Duration{time.Hour, 2 * time.Hour}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(Config{Topics: []string{"t0"}, Protocol: coop, RetryBackoff: tt.base, RetryBackoffMax: tt.max})
			m.Step(Start{})
			ev := Event(JoinResponse{Err: NotCoordinator})
			for i, want := range tt.want {
				acts := m.Step(ev)
				fc, ok := acts[0].(FindCoordinator)
				if len(acts) != 1 || !ok || fc.Backoff != want || fc.Attempt != i+1 {
					t.Fatalf("attempt %d: %v, want FindCoordinator after=%v attempt=%d", i+1, acts, want, i+1)
				}
				ev = stillMissing
			}
		})
	}
}
