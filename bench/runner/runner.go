package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/bench/internal/machine"
	"github.com/kgroup/assignor/workload"
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
	readme     string // -readme: the file whose headline block to rewrite
	wide       bool   // -wide: every column in the terminal table
	full       bool
	group      bool
	growth     bool
	args       []string // the command line, as given (results.md quotes it)
}

// Main runs the bench on the command line (os.Args) and exits: the
// comparison of every registered contender, or, when this process is one of
// the bench's child processes, one job. Call it from main after
// [Register]; it does not return.
func Main() {
	if os.Getenv(childEnv) == "1" {
		if err := runChild(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(Run(os.Args[1:], os.Stdout, os.Stderr))
}

// Run runs the bench on the command line args (without the program name),
// printing the tables on stdout and progress on stderr, and returns the exit
// status: 0, 1 for a failure, 2 for a bad command line. The flags are
// `go run ./bench`'s (-h lists them). It runs each job in a child process,
// this program re-executed, which must call [Main] (after the same
// [Register] calls) when it starts.
func Run(args []string, stdout, stderr io.Writer) int {
	f, ok := parseFlags(args, stderr)
	if !ok {
		return 2
	}
	switch {
	case f.child:
		if err := runChild(os.Stdin, stdout); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	case f.render != "":
		return render(f.render, f.readme, f.wide, stdout, stderr)
	case f.list:
		for _, c := range contender.All() {
			fmt.Fprintf(stdout, "%-24s %s\n", c.Key, c.Name)
		}
		return 0
	}
	cfg, err := f.config()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	cfg.args = args
	return runAll(cfg, stdout, stderr)
}

// render redraws dir's outputs and the table from dir/results.json.
func render(dir, readme string, wide bool, stdout, stderr io.Writer) int {
	res, err := loadJSON(dir)
	if err == nil {
		writeTable(stdout, res, wide)
		err = writeOutputs(dir, res)
	}
	if err == nil && readme != "" {
		err = updateReadme(readme, res)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// runAll runs cfg in child processes of this executable, prints the table
// and writes the outputs if cfg asks for them.
func runAll(cfg config, stdout, stderr io.Writer) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	cfg.contenders = setUp(cfg.contenders, stderr)
	started, loadBefore := time.Now(), loadAverage()
	res := run(cfg, processSpawner(exe, []string{"-child"}), stderr)
	res.Date, res.Wall = started.UTC(), time.Since(started)
	res.Machine, res.Env = machine.This(), environment(cfg)
	if loadBefore != "" {
		res.Env = append(res.Env, fmt.Sprintf("load average (1, 5, 15 min) at start %s, at end %s (above %d means other work shared the %d CPUs)", loadBefore, loadAverage(), runtime.NumCPU(), runtime.NumCPU()))
	}
	writeTable(stdout, res, cfg.wide)
	if cfg.out != "" {
		if err := writeOutputs(cfg.out, res); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		fmt.Fprintf(stderr, "wrote %s\n", cfg.out)
	}
	if cfg.readme != "" {
		if err := updateReadme(cfg.readme, res); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	return 0
}

// setUp runs the Setup of every contender that has one, once each, and
// returns cs without those whose Setup failed, saying so in one line per
// failure.
func setUp(cs []contender.Contender, stderr io.Writer) []contender.Contender {
	var kept []contender.Contender
	failed := map[string][]string{} // error → keys
	var order []string
	for _, c := range cs {
		if c.Setup != nil {
			if err := c.Setup(stderr); err != nil {
				msg := err.Error()
				if _, seen := failed[msg]; !seen {
					order = append(order, msg)
				}
				failed[msg] = append(failed[msg], c.Key)
				continue
			}
		}
		kept = append(kept, c)
	}
	for _, msg := range order {
		fmt.Fprintf(stderr, "bench: not running %s: %s\n", strings.Join(failed[msg], ", "), msg)
	}
	return kept
}

// spawner runs one job in a child and returns its result.
type spawner func(j job) result

// processSpawner runs each job in a fresh process: exe with args, the job as
// JSON on stdin, the result as JSON on stdout. The child enforces the cap
// itself; the parent kills it if it outlives a generous backstop.
//
// Why a process per job: a run over the cap can only be stopped by ending
// its process, and a job in a process that ran other jobs is measured
// differently. Measured on 1k mixed (with sarama-coop's 390 MB per Lead in
// the same process, and without) and 10k join, nine repetitions of each
// contender, child and in-process interleaved, the in-process medians of
// ours-sarama-coop, ours-franz-coop, ours-coop-core, franz-coop and the
// floor were 0.80 to 1.00 of the child ones, unevenly (ours-sarama-coop
// 0.84 to 1.00, ours-franz-coop 0.80 in every cell), and sarama-coop's
// 1.00: within the repetitions' spread (interquartile range 3 to 46% of the
// median) but a skew of up to 20% between rows measured one way and the
// other, so every row is measured the same way.
func processSpawner(exe string, args []string) spawner {
	return func(j job) result {
		backstop := 4*j.Cap + time.Minute
		if c, ok := contender.Lookup(j.Contender); ok && c.Setup != nil {
			// A JVM contender's job starts a JVM per round (history,
			// measured, follow-up), each bounded by selfTimedLimit.
			backstop = 3*selfTimedLimit(j.Cap) + time.Minute
		}
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
