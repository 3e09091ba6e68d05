package groupsim_test

import (
	"strings"
	"testing"

	"github.com/kgroup/assignor/internal/groupsim"
)

// TestWeightedMigrationVote pins the migration of a cooperative-sticky
// group to cooperative-weighted: members list cooperative-weighted first
// and cooperative-sticky second; the coordinator picks a protocol every
// member lists, so the group stays on cooperative-sticky while any member
// lacks cooperative-weighted (one member is enough, as a Java member
// would be), and switches once the last one lists it. Both protocols are
// cooperative, so the switch revokes only what the new plan moves.
func TestWeightedMigrationVote(t *testing.T) {
	sim := groupsim.New(groupsim.Config{}, factories())
	steps := []struct{ script, protocol string }{
		{"topic create t0 partitions=12\njoin m0..m3 topics=t0 assignors=cooperative-sticky\nsettle", "cooperative-sticky"},
		{"restart m0,m1,m2 assignors=cooperative-weighted,cooperative-sticky\nsettle", "cooperative-sticky"},
		{"join m4 topics=t0 assignors=cooperative-sticky\nsettle", "cooperative-sticky"},
		{"restart m3 assignors=cooperative-weighted,cooperative-sticky\nsettle", "cooperative-sticky"},
		{"leave m4\nsettle", "cooperative-weighted"},
		{"join m4 topics=t0 assignors=cooperative-weighted\nsettle", "cooperative-weighted"},
	}
	for _, st := range steps {
		out := run(t, sim, st.script)
		if !strings.Contains(out, "protocol "+st.protocol+",") || strings.Contains(out, "FAILURE") {
			t.Fatalf("after %q: want protocol %s:\n%s", st.script, st.protocol, out)
		}
	}
	sim2 := groupsim.New(groupsim.Config{}, factories())
	run(t, sim2, "topic create t0 partitions=6\njoin m0,m1 topics=t0 assignors=cooperative-sticky\nsettle")
	sim2.ResetStats()
	out := run(t, sim2, "join m2 topics=t0 assignors=cooperative-weighted\nsettle")
	if st := sim2.Stats(); st.Rejected != 1 || !strings.Contains(out, "2 members") {
		t.Fatalf("a member listing only cooperative-weighted: want it rejected from a cooperative-sticky group, got %+v\n%s", st, out)
	}
}
