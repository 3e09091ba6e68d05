package e2e_test

import (
	"os"
	"testing"

	"github.com/kgroup/assignor/bench/internal/e2e"
)

// TestE2EFranzGo runs every franz-go scenario once with ours on franz-go
// (fast re-join on) at the harness's short timings; set ASSIGNOR_E2E=1. The
// rolling restart and the scale also run without fast re-join. Each run
// must show no overlapping claims in a generation our assignor planned,
// every record consumed and committed, and (but for the static restart) a
// rebalance our assignor planned.
func TestE2EFranzGo(t *testing.T) {
	if os.Getenv("ASSIGNOR_E2E") == "" {
		t.Skip("set ASSIGNOR_E2E=1 to run every franz-go end-to-end scenario (about two minutes)")
	}
	for _, s := range e2e.FranzGoScripts {
		t.Run(s.Name, func(t *testing.T) {
			checkKind(t, s, e2e.OursKgo, optionsFromEnv(t))
		})
	}
	for _, name := range []string{"rolling-restart", "scale-out-in"} {
		t.Run(name+"/no-fast-rejoin", func(t *testing.T) {
			s, _ := e2e.FranzGoScriptNamed(name)
			checkKind(t, s, e2e.OursKgoNoFastRejoin, optionsFromEnv(t))
		})
	}
}
