package e2e_test

import (
	"os"
	"testing"

	"github.com/kgroup/assignor/bench/internal/e2e"
)

// brokerLed tells the generations a KIP-848 coordinator planned.
func brokerLed(kind, _ string) bool { return kind == "(broker)" }

// TestE2EKIP848 runs one script of the KIP-848 comparison once with each
// contender at the short timings on kfake, consumers doing work
// (e2e.KIP848Work); set ASSIGNOR_E2E=1. ASSIGNOR_E2E_KIP848_SCRIPT names
// another script of e2e.KIP848Scripts. Every contender promises what each
// run must show: no overlapping claims (an evicted member's window
// excepted), every record consumed and committed. The consumer-protocol
// group must have run as one (the coordinator described it so, and planned
// its rebalances), the classic ones not; ours must have planned.
func TestE2EKIP848(t *testing.T) {
	if os.Getenv("ASSIGNOR_E2E") == "" {
		t.Skip("set ASSIGNOR_E2E=1 to run the KIP-848 comparison's script once per contender")
	}
	name := "rolling-restart-settled"
	if v := os.Getenv("ASSIGNOR_E2E_KIP848_SCRIPT"); v != "" {
		name = v
	}
	s, ok := scriptNamed(e2e.KIP848Scripts, name)
	if !ok {
		t.Fatalf("no KIP-848 script %q", name)
	}
	for _, k := range e2e.KIP848Kinds {
		t.Run(k.Name, func(t *testing.T) {
			rep, err := e2e.RunKIP848(s, k, e2e.Short, e2e.Target{Logf: t.Logf})
			if err != nil {
				t.Fatal(err)
			}
			t.Log(rep.String())
			checkKIP848(t, k, rep)
		})
	}
}

// checkKIP848 asserts what every contender of the comparison promises.
func checkKIP848(t *testing.T, k e2e.Kind, rep e2e.Report) {
	t.Helper()
	for _, o := range rep.Overlaps {
		if !o.Evicted {
			t.Errorf("overlap: %v", o)
		}
	}
	if rep.Produced == 0 || rep.Lost != 0 || len(rep.Uncommitted) > 0 {
		t.Errorf("produced %d, lost %d, uncommitted %v", rep.Produced, rep.Lost, rep.Uncommitted)
	}
	if rep.ConsumerGroup != k.ServerSide {
		t.Errorf("%s: described as a consumer-protocol group: %v, want %v", k.Name, rep.ConsumerGroup, k.ServerSide)
	}
	switch {
	case k.ServerSide && rep.PlannedBy(brokerLed) == 0:
		t.Errorf("%s: the coordinator planned no rebalance in the window (plans by %v)", k.Name, rep.LeadersByKind)
	case k.Name == e2e.OursKgo.Name && rep.PlannedBy(oursLed) == 0:
		t.Errorf("%s: our assignor planned no rebalance in the window (plans by %v)", k.Name, rep.LeadersByKind)
	}
}

func scriptNamed(ss []e2e.Script, name string) (e2e.Script, bool) {
	for _, s := range ss {
		if s.Name == name {
			return s, true
		}
	}
	return e2e.Script{}, false
}
