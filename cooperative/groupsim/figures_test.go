package groupsim_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/kgroup/assignor/cooperative/groupsim"
)

// TestFigures prints the eager versus cooperative figures quoted in
// docs/cooperative.md, as a Markdown table, when GROUPSIM_FIGURES=1:
//
//	GROUPSIM_FIGURES=1 go test -run TestFigures -v ./cooperative/groupsim/
//
// Each row runs one scenario on a fresh simulation with one assignor and
// reports the stats of the scenario's last stretch.
func TestFigures(t *testing.T) {
	if os.Getenv("GROUPSIM_FIGURES") == "" {
		t.Skip("set GROUPSIM_FIGURES=1 to print the figures")
	}
	const (
		javaDefaults = "config heartbeat=3s session=45s rebalance=60s latency=5ms metadata=5s"
		// The real group of /work/shared/research/real-group-notes.md.
		realGroup = "config heartbeat=300ms session=3s rebalance=10s latency=2ms metadata=5s"
	)
	scenarios := []struct{ name, config, partitions, setup, event string }{
		{"rolling restart, 10 dynamic members, 100 partitions", javaDefaults, "100",
			"join m0..m9 topics=t0 assignors=%s", "rolling-restart down=5s every=30s"},
		{"rolling restart, 10 static members, 100 partitions", javaDefaults, "100",
			"join m0..m9 topics=t0 assignors=%s static", "rolling-restart down=10s every=30s"},
		{"scale out 10 -> 12 members, 100 partitions", javaDefaults, "100",
			"join m0..m9 topics=t0 assignors=%s", "join m10,m11 topics=t0 assignors=%s"},
		{"crash of 1 of 10 members (session 45s), 100 partitions", javaDefaults, "100",
			"join m0..m9 topics=t0 assignors=%s", "crash m4"},
		{"rolling restart, 4 dynamic members, 36 partitions, heartbeat 300ms (the real group's shape)", realGroup, "36",
			"join m0..m3 topics=t0 assignors=%s", "rolling-restart down=2s every=10s"},
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range factories() {
			if !yield(n) {
				return
			}
		}
	})
	var b strings.Builder
	for _, sc := range scenarios {
		fmt.Fprintf(&b, "\n%s\n\n", sc.name)
		b.WriteString("| assignor | rebalances | moved | withheld | partition-s without owner | longest pause |\n|---|---|---|---|---|---|\n")
		for _, as := range names {
			sim := groupsim.New(groupsim.Config{}, factories())
			for _, cmd := range []string{
				sc.config,
				"topic create t0 partitions=" + sc.partitions,
				strings.ReplaceAll(sc.setup, "%s", as),
				"settle",
				"stats reset",
				strings.ReplaceAll(sc.event, "%s", as),
				"settle",
			} {
				out, err := sim.Exec(cmd)
				if err != nil || strings.Contains(out, "FAILURE") || strings.HasPrefix(out, "not settled") {
					t.Fatalf("%s with %s: %s: %v %s", sc.name, as, cmd, err, out)
				}
			}
			st := sim.Stats()
			_, pause := st.MaxPause()
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %.1f | %.2f s |\n", as, st.Rebalances, st.Moved, st.Withheld, st.Unowned.Seconds(), pause.Seconds())
		}
	}
	t.Log(b.String())
}
