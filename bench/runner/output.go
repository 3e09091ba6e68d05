package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/workload"
)

// writeOutputs writes dir/results.md and dir/plots/*.png.
func writeOutputs(dir string, res *results) error {
	plots := filepath.Join(dir, "plots")
	if err := os.MkdirAll(plots, 0o755); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	var names []string
	for _, sc := range res.Cfg.scenarios {
		written, err := timePlots(res, sc, plots)
		if err != nil {
			return err
		}
		names = append(names, written...)
	}
	if ok, err := movesPlot(res, filepath.Join(plots, "moves.png")); err != nil {
		return fmt.Errorf("bench: plot moves.png: %w", err)
	} else if ok {
		names = append(names, "moves.png")
	}
	if err := saveJSON(filepath.Join(dir, "results.json"), res); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "results.md"), []byte(markdown(res, names)), 0o644); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

// saved is results.json: the raw results and the settings of the run, so
// that -render can redraw the tables and plots without running again.
type saved struct {
	Results    *results
	Contenders []contender.Contender
	Scenarios  []workload.Scenario
	Reps       int
	Cap        time.Duration
	Seed       uint64
	Full       bool
	Group      bool
	Growth     bool
	// Args is the command line of the run (results saved before it have
	// none, and show the flags rebuilt from the settings).
	Args []string `json:",omitempty"`
}

func saveJSON(path string, res *results) error {
	cfg := res.Cfg
	b, err := json.MarshalIndent(saved{Results: res, Contenders: cfg.contenders, Scenarios: cfg.scenarios, Reps: cfg.reps,
		Cap: cfg.cap, Seed: cfg.seed, Full: cfg.full, Group: cfg.group, Growth: cfg.growth, Args: cfg.args}, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// withTimed fills in the description of what c times from the contender
// of that key compiled in, for results saved before contenders had one.
func withTimed(c *contender.Contender) {
	if c.Timed != "" {
		return
	}
	if live, ok := contender.Lookup(c.Key); ok {
		c.Timed = live.Timed
	}
}

// loadJSON reads what saveJSON wrote in dir, for output to dir again.
func loadJSON(dir string) (*results, error) {
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	var s saved
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("bench: %s: %w", filepath.Join(dir, "results.json"), err)
	}
	if s.Results == nil {
		return nil, fmt.Errorf("bench: %s: no results", filepath.Join(dir, "results.json"))
	}
	res := s.Results
	for i := range s.Contenders {
		withTimed(&s.Contenders[i])
	}
	for _, cl := range res.Cells {
		for _, r := range cl.Rows {
			withTimed(&r.C)
		}
	}
	res.Cfg = config{contenders: s.Contenders, scenarios: s.Scenarios, reps: s.Reps, cap: s.Cap, seed: s.Seed, full: s.Full, group: s.Group, growth: s.Growth, out: dir, args: s.Args}
	for _, cl := range res.Cells {
		if cl.Opt == nil { // results saved before cells had their optimum
			cl.Opt = optimum(cl.Shape, cl.Scenario, s.Seed)
		}
		finish(cl)
	}
	return res, nil
}
