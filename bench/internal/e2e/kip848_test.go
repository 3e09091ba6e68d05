package e2e_test

import (
	"os"
	"testing"

	"github.com/kgroup/assignor/bench/internal/e2e"
)

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
			for _, err := range e2e.CheckKIP848(k, rep) {
				t.Error(err)
			}
		})
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
