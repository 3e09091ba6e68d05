package runner

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/workload"
)

// flags is the command line.
type flags struct {
	child, full, quick, growth, list, scripts, group, wide bool
	shapes, scenarios, contenders, out, render, readme     string
	reps                                                   int
	cap                                                    time.Duration
	seed                                                   uint64
}

// parseFlags parses args; on a bad command line it has written the usage to
// stderr and returns false.
func parseFlags(args []string, stderr io.Writer) (flags, bool) {
	var f flags
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&f.child, "child", false, "run one job read from stdin (internal)")
	fs.BoolVar(&f.full, "full", false, "add the 1M-partition shape and raise the cap to 20s")
	fs.BoolVar(&f.quick, "quick", false, "smoke test: 1k shape, 1 repetition, 2s cap, no JVM contenders unless named with -contenders")
	fs.BoolVar(&f.growth, "growth", false, "run the growth series instead (1,000 members, 100 topics of 100 to 10,000 partitions; 10k to 1M) for the log-log slope; with -scenarios fresh,mixed by default")
	fs.StringVar(&f.shapes, "shapes", "", "comma-separated shapes to run: 1k,10k,40k,100k,1M (default all but 1M)")
	fs.StringVar(&f.scenarios, "scenarios", "", "comma-separated scenarios (default: fresh,join,leave,mixed,racks; also mixed-join)")
	fs.StringVar(&f.contenders, "contenders", "", "comma-separated contender keys (default: all); see -list")
	fs.BoolVar(&f.list, "list", false, "list the contenders and exit")
	fs.BoolVar(&f.scripts, "scripts", true, "run the multi-round scripts (roll, scale) on the 1k and 10k shapes")
	fs.IntVar(&f.reps, "reps", 3, "repetitions per contender, shape and scenario")
	fs.DurationVar(&f.cap, "cap", 0, "time cap per contender run (default 5s; 20s with -full; a script gets twice the cap)")
	fs.Uint64Var(&f.seed, "seed", workload.DefaultSeed, "seed of every input")
	fs.StringVar(&f.out, "out", "", "directory to write results.md and plots/*.png to")
	fs.StringVar(&f.render, "render", "", "redraw DIR/results.md, DIR/plots and the table from DIR/results.json (written by -out) without running")
	fs.StringVar(&f.readme, "readme", "", "with -out or -render, also rewrite the headline block of FILE (README.md) from the results")
	fs.BoolVar(&f.wide, "wide", false, "print every column of the table (about 240 columns wide; the default fits about 120)")
	fs.BoolVar(&f.group, "group", false, "also run the real-group scripts (rolling restart, scale out and in) on an in-process kfake broker")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./bench [flags]\n\nRuns every contender on the same inputs, each in its own child process, and prints a table.\n\n")
		fs.PrintDefaults()
	}
	return f, fs.Parse(args) == nil
}

// config returns the run the flags ask for, or an error naming the unknown
// shape, scenario or contender.
func (f flags) config() (config, error) {
	cfg := config{reps: max(f.reps, 1), cap: 5 * time.Second, seed: f.seed, out: f.out, readme: f.readme, wide: f.wide, full: f.full, group: f.group, scriptMax: 10_000}
	cfg.shapes = workload.Shapes()
	if f.full {
		cfg.shapes = append(cfg.shapes, workload.FullShape())
		cfg.cap = 20 * time.Second
	}
	if f.growth {
		cfg.shapes, cfg.growth = workload.GrowthShapes(), true
		cfg.scenarios = []workload.Scenario{workload.Fresh, workload.Mixed}
		cfg.scriptMax = 0
	}
	if f.quick {
		cfg.shapes = cfg.shapes[:1]
		cfg.reps = 1
		cfg.cap = 2 * time.Second
	}
	if f.cap > 0 {
		cfg.cap = f.cap
	}
	if f.scripts {
		cfg.scripts = workload.Scripts()
	}
	var err error
	if f.shapes != "" {
		if cfg.shapes, err = pick(f.shapes, shapeByName, "bench: unknown shape %q (want 1k, 10k, 40k, 100k or 1M)"); err != nil {
			return config{}, err
		}
	}
	if cfg.scenarios == nil {
		cfg.scenarios = defaultScenarios()
	}
	if f.scenarios != "" {
		if cfg.scenarios, err = pick(f.scenarios, scenarioByName, "bench: unknown scenario %q"); err != nil {
			return config{}, err
		}
	}
	cfg.contenders = contender.All()
	if f.quick {
		// The smoke test stays in this program: contenders that need
		// something outside it (a JVM) run only when named.
		cfg.contenders = slices.DeleteFunc(cfg.contenders, func(c contender.Contender) bool { return c.Setup != nil })
	}
	if f.contenders != "" {
		if cfg.contenders, err = pick(f.contenders, contender.Lookup, "bench: unknown contender %q (see -list)"); err != nil {
			return config{}, err
		}
	}
	return cfg, nil
}

// pick looks up each name of the comma-separated list, failing with
// unknown (a format for the name) on the first it does not find.
func pick[T any](list string, lookup func(string) (T, bool), unknown string) ([]T, error) {
	var out []T
	for _, name := range strings.Split(list, ",") {
		v, ok := lookup(strings.TrimSpace(name))
		if !ok {
			return nil, fmt.Errorf(unknown, name)
		}
		out = append(out, v)
	}
	return out, nil
}

// defaultScenarios are the scenarios of a run without -scenarios: all but
// mixed-join.
func defaultScenarios() []workload.Scenario {
	return slices.DeleteFunc(workload.Scenarios(), func(sc workload.Scenario) bool { return sc == workload.MixedJoin })
}

func scenarioByName(name string) (workload.Scenario, bool) {
	sc := workload.Scenario(name)
	return sc, slices.Contains(workload.Scenarios(), sc)
}

func shapeByName(name string) (workload.Shape, bool) {
	for _, s := range append(workload.Shapes(), workload.FullShape()) {
		if strings.EqualFold(s.Short(), name) {
			return s, true
		}
	}
	return workload.Shape{}, false
}
