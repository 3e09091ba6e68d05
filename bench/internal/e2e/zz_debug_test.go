package e2e_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor/bench/internal/e2e"
)

func TestZZDebug(t *testing.T) {
	b := os.Getenv("DBG_BROKERS")
	if b == "" {
		t.Skip()
	}
	s, _ := scriptNamed(e2e.KIP848Scripts, os.Getenv("DBG_SCRIPT"))
	var k e2e.Kind
	for _, kk := range e2e.KIP848Kinds {
		if kk.Name == os.Getenv("DBG_KIND") {
			k = kk
		}
	}
	iv, _ := time.ParseDuration(os.Getenv("DBG_INTERVAL"))
	rep, err := e2e.RunKIP848(s, k, e2e.Timing(os.Getenv("DBG_TIMING")), e2e.Target{Brokers: strings.Split(b, ","), Group: "dbg" + time.Now().Format("150405"), AssignmentInterval: iv, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(rep.String())
}
