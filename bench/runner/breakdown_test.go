package runner

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/workload"
)

// TestBreakdown: the adapters' rows time their phases and the core apart,
// the peers' their phases, and results.md gets a table for each path.
func TestBreakdown(t *testing.T) {
	var cs []contender.Contender
	for _, key := range []string{"ours-sarama-coop", "ours-sarama-sticky", "ours-franz-coop", "sarama-coop", "franz-coop-log", "floor"} {
		c, ok := contender.Lookup(key)
		if !ok {
			t.Fatalf("no contender %q", key)
		}
		cs = append(cs, c)
	}
	cfg := config{shapes: tiny[:1], scenarios: []workload.Scenario{workload.Join}, contenders: cs, reps: 1, cap: 10 * time.Second, seed: 1}
	res := run(cfg, inProcess, &bytes.Buffer{})
	for _, r := range res.Cells[0].Rows {
		wantPhases := r.C.Key != "floor"
		if got := r.phase(contender.PhasePlan) > 0; got != wantPhases {
			t.Errorf("%s: plan phase timed %v, want %v", r.C.Key, got, wantPhases)
		}
		wantCore := strings.HasPrefix(r.C.Key, "ours-")
		if got := r.phase(contender.PhaseCore) > 0; got != wantCore {
			t.Errorf("%s: core timed apart %v, want %v", r.C.Key, got, wantCore)
		}
		wantFill := strings.HasPrefix(r.C.Key, "ours-sarama")
		if got := r.phase(contender.PhaseFill) > 0; got != wantFill {
			t.Errorf("%s: least map fill timed %v, want %v", r.C.Key, got, wantFill)
		}
	}
	md := breakdown(res)
	for _, want := range []string{"### Ours through the sarama adapter", "### Ours through the franz-go adapter", "### The peers' leaders", "ours sticky via sarama adapter", "franz-go cooperative-sticky + kgo's log strings"} {
		if !strings.Contains(md, want) {
			t.Errorf("breakdown lacks %q:\n%s", want, md)
		}
	}
}
