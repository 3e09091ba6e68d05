package e2e_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

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

// TestE2EFranzGoFigures prints the figures of docs/franzgo.md; set
// ASSIGNOR_E2E_FRANZGO_FIGURES=1 (outside CI: tens of minutes). Knobs:
// ASSIGNOR_E2E_RUNS (default 5), ASSIGNOR_E2E_TIMING=defaults for the
// clients' default heartbeat and session timings (else the harness's short
// ones, or heartbeat,session,backoff as for TestE2E), ASSIGNOR_E2E_SCRIPTS
// (comma-separated script and kind names; default all), ASSIGNOR_E2E_JITTER=1 to
// start each event at a random point of the heartbeat cycle
// (Options.Jitter, one heartbeat interval). It fails only if a run
// fails or our assignor planned an overlap.
func TestE2EFranzGoFigures(t *testing.T) {
	if os.Getenv("ASSIGNOR_E2E_FRANZGO_FIGURES") == "" {
		t.Skip("set ASSIGNOR_E2E_FRANZGO_FIGURES=1 to print the figures of docs/franzgo.md")
	}
	runs := 5
	if v := os.Getenv("ASSIGNOR_E2E_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("ASSIGNOR_E2E_RUNS=%q: want a positive count", v)
		}
		runs = n
	}
	var opts e2e.Options
	if os.Getenv("ASSIGNOR_E2E_TIMING") == "defaults" {
		opts = e2e.ClientDefaults()
	} else {
		opts = optionsFromEnv(t)
	}
	if os.Getenv("ASSIGNOR_E2E_JITTER") != "" {
		opts.Jitter = max(opts.Heartbeat, opts.KgoHeartbeat, 150*time.Millisecond)
	}
	var only []string
	if v := os.Getenv("ASSIGNOR_E2E_SCRIPTS"); v != "" {
		only = strings.Split(v, ",")
	}
	progress := func(rep e2e.Report, err error) {
		if err != nil {
			t.Errorf("run failed: %v", err)
			return
		}
		t.Log(rep.String())
		for _, o := range rep.OverlapsLedBy(oursLed) {
			t.Errorf("overlap in a generation our assignor planned: %v", o)
		}
		if rep.Lost != 0 {
			t.Errorf("%s/%s: lost %d records", rep.Script, rep.Kind, rep.Lost)
		}
	}
	rows := e2e.FranzGoFigures(runs, opts, only, progress)
	t.Log("\n" + e2e.MarkdownSettle(rows))
}
