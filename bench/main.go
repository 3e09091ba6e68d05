package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/workload"
	"github.com/schollz/progressbar/v3"
)

// childEnv marks a child process (the test binary uses it; the bench binary
// also takes the hidden -child flag).
const childEnv = "ASSIGNOR_BENCH_CHILD"

type config struct {
	shapes     []workload.Shape
	scenarios  []workload.Scenario
	contenders []contender.Contender
	scripts    []string
	scriptMax  int // scripts run on the shapes with at most this many partitions
	reps       int
	cap        time.Duration
	seed       uint64
	out        string
	full       bool
	group      bool
	growth     bool
}

func main() {
	if os.Getenv(childEnv) == "1" {
		if err := runChild(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	os.Exit(cli(os.Args[1:], os.Stdout, os.Stderr))
}

func cli(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		child      = fs.Bool("child", false, "run one job read from stdin (internal)")
		full       = fs.Bool("full", false, "add the 1M-partition shape and raise the cap to 20s")
		quick      = fs.Bool("quick", false, "smoke test: 1k shape, 1 repetition, 2s cap")
		growth     = fs.Bool("growth", false, "run the growth series instead (1,000 members, 100 topics of 100 to 10,000 partitions; 10k to 1M) for the log-log slope; with -scenarios fresh,mixed by default")
		shapes     = fs.String("shapes", "", "comma-separated shapes to run: 1k,10k,40k,100k,1M (default all but 1M)")
		scenarios  = fs.String("scenarios", "", "comma-separated scenarios (default: fresh,join,leave,mixed,racks; also mixed-join)")
		contenders = fs.String("contenders", "", "comma-separated contender keys (default: all); see -list")
		list       = fs.Bool("list", false, "list the contenders and exit")
		scripts    = fs.Bool("scripts", true, "run the multi-round scripts (roll, scale) on the 1k and 10k shapes")
		reps       = fs.Int("reps", 3, "repetitions per contender, shape and scenario")
		capFlag    = fs.Duration("cap", 0, "time cap per contender run (default 5s; 20s with -full; a script gets twice the cap)")
		seed       = fs.Uint64("seed", workload.DefaultSeed, "seed of every input")
		out        = fs.String("out", "", "directory to write results.md and plots/*.png to")
		render     = fs.String("render", "", "redraw DIR/results.md, DIR/plots and the table from DIR/results.json (written by -out) without running")
		group      = fs.Bool("group", false, "also run the real-group scripts (rolling restart, scale out and in) on an in-process kfake broker")
	)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./bench [flags]\n\nRuns every contender on the same inputs, each in its own child process, and prints a table.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *child {
		if err := runChild(os.Stdin, stdout); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
	if *render != "" {
		res, err := loadJSON(*render)
		if err == nil {
			writeTable(stdout, res)
			err = writeOutputs(*render, res)
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
	if *list {
		for _, c := range contender.All() {
			fmt.Fprintf(stdout, "%-20s %s\n", c.Key, c.Name)
		}
		return 0
	}
	cfg := config{reps: *reps, cap: 5 * time.Second, seed: *seed, out: *out, full: *full, group: *group, scriptMax: 10_000}
	cfg.shapes = workload.Shapes()
	if *full {
		cfg.shapes = append(cfg.shapes, workload.FullShape())
		cfg.cap = 20 * time.Second
	}
	if *growth {
		cfg.shapes, cfg.growth = workload.GrowthShapes(), true
		cfg.scenarios = []workload.Scenario{workload.Fresh, workload.Mixed}
		cfg.scriptMax = 0
	}
	if *quick {
		cfg.shapes = cfg.shapes[:1]
		cfg.reps = 1
		cfg.cap = 2 * time.Second
	}
	if *capFlag > 0 {
		cfg.cap = *capFlag
	}
	if *shapes != "" {
		cfg.shapes = nil
		for _, name := range strings.Split(*shapes, ",") {
			s, ok := shapeByName(strings.TrimSpace(name))
			if !ok {
				fmt.Fprintf(stderr, "bench: unknown shape %q (want 1k, 10k, 40k, 100k or 1M)\n", name)
				return 2
			}
			cfg.shapes = append(cfg.shapes, s)
		}
	}
	if cfg.scenarios == nil {
		cfg.scenarios = defaultScenarios()
	}
	if *scenarios != "" {
		cfg.scenarios = nil
		for _, name := range strings.Split(*scenarios, ",") {
			sc := workload.Scenario(strings.TrimSpace(name))
			if !slices.Contains(workload.Scenarios(), sc) {
				fmt.Fprintf(stderr, "bench: unknown scenario %q\n", name)
				return 2
			}
			cfg.scenarios = append(cfg.scenarios, sc)
		}
	}
	cfg.contenders = contender.All()
	if *contenders != "" {
		cfg.contenders = nil
		for _, key := range strings.Split(*contenders, ",") {
			c, ok := contender.Lookup(strings.TrimSpace(key))
			if !ok {
				fmt.Fprintf(stderr, "bench: unknown contender %q (see -list)\n", key)
				return 2
			}
			cfg.contenders = append(cfg.contenders, c)
		}
	}
	if *scripts {
		cfg.scripts = workload.Scripts()
	}
	if cfg.reps < 1 {
		cfg.reps = 1
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	started, loadBefore := time.Now(), loadAverage()
	res := run(cfg, processSpawner(exe, []string{"-child"}), stderr)
	res.Date, res.Wall = started.UTC(), time.Since(started)
	res.Env = environment(cfg)
	if loadBefore != "" {
		res.Env = append(res.Env, "load average (1, 5, 15 min) at start "+loadBefore+", at end "+loadAverage()+" (above 2 means other work shared the 2 cores)")
	}
	writeTable(stdout, res)
	if cfg.out != "" {
		if err := writeOutputs(cfg.out, res); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		fmt.Fprintf(stderr, "wrote %s\n", cfg.out)
	}
	return 0
}

// defaultScenarios are the scenarios of a run without -scenarios: all but
// mixed-join.
func defaultScenarios() []workload.Scenario {
	return slices.DeleteFunc(workload.Scenarios(), func(sc workload.Scenario) bool { return sc == workload.MixedJoin })
}

func shapeByName(name string) (workload.Shape, bool) {
	for _, s := range append(workload.Shapes(), workload.FullShape()) {
		if strings.EqualFold(s.Short(), name) {
			return s, true
		}
	}
	return workload.Shape{}, false
}

// spawner runs one job in a child and returns its result.
type spawner func(j job) result

// processSpawner runs each job in a fresh process: exe with args, the job as
// JSON on stdin, the result as JSON on stdout. The child enforces the cap
// itself; the parent kills it if it outlives a generous backstop.
func processSpawner(exe string, args []string) spawner {
	return func(j job) result {
		backstop := 4*j.Cap + time.Minute
		ctx, cancel := context.WithTimeout(context.Background(), backstop)
		defer cancel()
		cmd := exec.CommandContext(ctx, exe, args...)
		cmd.Env = append(os.Environ(), childEnv+"=1")
		in, _ := json.Marshal(j)
		cmd.Stdin = bytes.NewReader(in)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if ctx.Err() != nil {
			return result{Capped: true, Phase: "killed by the parent after " + backstop.String()}
		}
		var r result
		if jerr := json.Unmarshal(stdout.Bytes(), &r); jerr != nil {
			msg := strings.TrimSpace(stderr.String())
			if err != nil {
				msg = err.Error() + ": " + msg
			}
			return result{Err: fmt.Sprintf("%v: no result (%v): %s", errChildFailed, jerr, lastLines(msg, 5))}
		}
		return r
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// newBar returns the progress bar on w.
func newBar(total int, w io.Writer) *progressbar.ProgressBar {
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("bench"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetWidth(30),
		progressbar.OptionClearOnFinish(),
	)
}
