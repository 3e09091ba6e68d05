package groupsim_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/groupsim"
	"github.com/kgroup/assignor/roundrobin"
)

// unsafeCooperative is round-robin that claims to be cooperative: it hands
// claimed partitions straight to new owners, breaking the KIP-429 safety
// rule, so members of one generation overlap.
type unsafeCooperative struct{ assignor.Assignor }

func (unsafeCooperative) Name() string { return "unsafe" }
func (unsafeCooperative) Protocols() []assignor.Protocol {
	return []assignor.Protocol{assignor.Cooperative}
}

func run(t *testing.T, sim *groupsim.Sim, script string) string {
	t.Helper()
	var out strings.Builder
	for line := range strings.SplitSeq(strings.TrimSpace(script), "\n") {
		got, err := sim.Exec(strings.TrimSpace(line))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		out.WriteString(got)
	}
	return out.String()
}

// TestOverlapDetected pins that the simulator's checks can fail: an
// assignor that breaks the safety rule produces overlapping ownership within
// one generation, reported as a failure, and its plans fail CheckPlan.
func TestOverlapDetected(t *testing.T) {
	f := factories()
	f["unsafe"] = func() assignor.Assignor { return unsafeCooperative{roundrobin.New()} }
	sim := groupsim.New(groupsim.Config{Jitter: 20 * time.Millisecond}, f)
	out := run(t, sim, `
		topic create t0 partitions=12
		join m0..m1 topics=t0 assignors=unsafe
		settle
		join m2..m3 topics=t0 assignors=unsafe
		settle`)
	if !strings.Contains(out, "owned by 2 members of generation") {
		t.Errorf("no overlap reported for an unsafe cooperative assignor:\n%s", out)
	}
	if !strings.Contains(out, "is not its valid owner") {
		t.Errorf("CheckPlan did not flag the unsafe plan:\n%s", out)
	}
}

// TestEvictionWindowIsNotAFailure pins the other side: a member that misses
// a rebalance keeps processing until it hears of its eviction; the overlap is
// reported as partition-time, not as a failure, and the member's partitions
// are declared lost.
func TestEvictionWindowIsNotAFailure(t *testing.T) {
	sim := groupsim.New(groupsim.Config{HeartbeatInterval: time.Second, SessionTimeout: 6 * time.Second, RebalanceTimeout: 10 * time.Second}, factories())
	out := run(t, sim, `
		topic create t0 partitions=12
		join m0..m2 topics=t0 assignors=cooperative-roundrobin
		settle
		stats reset
		disconnect m1 for=20s
		run for=1s
		leave m2
		settle`)
	if strings.Contains(out, "FAILURE") {
		t.Fatalf("eviction window reported as a failure:\n%s", out)
	}
	st := sim.Stats()
	if st.Evictions != 1 || st.Lost == 0 || st.EvictedOverlap <= 0 {
		t.Fatalf("want 1 eviction, lost partitions and overlap time; got %+v", st)
	}
}

// TestStaticRestartNoRebalance pins KIP-345: a static member restarted within
// the session timeout gets its partitions back without a rebalance.
func TestStaticRestartNoRebalance(t *testing.T) {
	for _, as := range []string{"roundrobin", "cooperative-roundrobin"} {
		t.Run(as, func(t *testing.T) {
			sim := groupsim.New(groupsim.Config{SessionTimeout: 30 * time.Second}, factories())
			run(t, sim, `
				topic create t0 partitions=30
				join m0..m4 topics=t0 assignors=`+as+` static
				settle`)
			before := sim.Assignment()
			sim.ResetStats()
			run(t, sim, `
				restart m0 down=10s
				restart m3 down=20s crash
				settle`)
			st := sim.Stats()
			if st.Rebalances != 0 || st.Moved != 0 {
				t.Fatalf("static restarts within the session timeout: %d rebalances, %d moved", st.Rebalances, st.Moved)
			}
			after := strings.NewReplacer("m0#2", "m0", "m3#2", "m3").Replace(sim.Assignment())
			if after != before {
				t.Fatalf("assignment changed:\n%s\nwant\n%s", after, before)
			}
			sim.ResetStats()
			run(t, sim, `
				restart m1 down=40s crash
				settle`)
			if st := sim.Stats(); st.Rebalances == 0 || st.Evictions != 1 {
				t.Fatalf("static member down past its session: want a rebalance and an eviction, got %+v", st)
			}
		})
	}
}

// TestProtocolVote pins Kafka's protocol choice in the migration: the group
// keeps the eager assignor until every member lists the cooperative one,
// and a member with no protocol in common is rejected
// (INCONSISTENT_GROUP_PROTOCOL) and stops.
func TestProtocolVote(t *testing.T) {
	sim := groupsim.New(groupsim.Config{}, factories())
	steps := []struct{ script, protocol string }{
		{"topic create t0 partitions=6\njoin m0..m2 topics=t0 assignors=sticky\nsettle", "sticky"},
		{"restart m0,m1 assignors=cooperative-sticky,sticky\nsettle", "sticky"},
		{"restart m2 assignors=cooperative-sticky,sticky\nsettle", "cooperative-sticky"},
		{"restart m0 assignors=cooperative-sticky\nsettle", "cooperative-sticky"},
	}
	for _, st := range steps {
		out := run(t, sim, st.script)
		if !strings.Contains(out, "protocol "+st.protocol+",") || strings.Contains(out, "FAILURE") {
			t.Fatalf("after %q: want protocol %s:\n%s", st.script, st.protocol, out)
		}
	}
	sim2 := groupsim.New(groupsim.Config{}, factories())
	run(t, sim2, "topic create t0 partitions=6\njoin m0,m1 topics=t0 assignors=sticky\nsettle")
	sim2.ResetStats()
	out := run(t, sim2, "join m2 topics=t0 assignors=cooperative-sticky\nsettle")
	if st := sim2.Stats(); st.Rejected != 1 || !strings.Contains(out, "2 members") {
		t.Fatalf("incompatible member: want it rejected and 2 members left, got %+v\n%s", st, out)
	}
}
