package runner

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kgroup/assignor/bench/internal/machine"
	"github.com/kgroup/assignor/workload"
)

// tableHeader are the columns of the wide table: the time columns, then
// the plan's (qualityHeader).
var tableHeader = append([]string{"shape", "scenario", "contender", "median", "min", "×franz-coop", "×floor", "MB/op", "GCs"}, qualityHeader...)

// cells renders one row's columns.
func (r *row) cells(cl *cell) []string {
	out := []string{cl.Shape.String(), string(cl.Scenario), r.C.Name}
	switch r.Status {
	case statusNA:
		return append(out, "n/a: "+r.Note, "", "", "", "", "", "", "", "", "", "", "")
	case statusSkipped, statusError:
		note := r.Note
		if r.Status == statusError {
			note = "ERROR: " + note
		}
		return append(out, note, "", "", "", "", "", "", "", "", "", "", "")
	case statusCapped:
		if len(r.Times) == 0 {
			return append(out, r.Note, "", atLeast(r.capRatio(cl, refKey)), atLeast(r.capRatio(cl, floorKey)), "", "", "", "", "", "", "", "")
		}
	}
	out = append(out, r.timeCells()...)
	return append(out, r.quality(cl)...)
}

// timeCells are a measured row's time columns: median, min, ×franz-coop,
// ×floor, MB/op, GCs.
func (r *row) timeCells() []string {
	return []string{dur(r.Median), dur(r.Min), ratio(r.XRef), ratio(r.XFloor), fmt.Sprintf("%.1f", float64(r.AllocMed)/1e6), fmt.Sprintf("%.2g", r.GCMed)}
}

// capRatio is cap / the reference's median: a capped row is at least that
// much slower.
func (r *row) capRatio(cl *cell, key string) float64 {
	ref := find(cl, key)
	if ref == nil || ref.Median == 0 {
		return 0
	}
	return float64(r.Cap) / float64(ref.Median)
}

// atLeast renders a lower bound on a ratio, or "–" when there is none.
func atLeast(x float64) string {
	if x == 0 {
		return "–"
	}
	return ">" + ratio(x)
}

func ratio(x float64) string {
	if x == 0 {
		return "–"
	}
	if x >= 100 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// dur renders d with three significant digits.
func dur(d time.Duration) string {
	switch {
	case d == 0:
		return "–"
	case d < time.Millisecond:
		return fmt.Sprintf("%.3gµs", float64(d)/1e3)
	case d < time.Second:
		return fmt.Sprintf("%.3gms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.3gs", d.Seconds())
}

var scriptHeader = []string{"shape", "script", "contender", "events", "rounds", "max rounds/event", "unsettled", "moved", "withheld", "invalid rounds", "final spread", "time in Lead"}

func (sr *scriptRow) cells() []string {
	out := []string{sr.Shape.String(), sr.Script, sr.C.Name}
	if sr.Stats == nil {
		note := sr.Note
		if sr.Status == statusError {
			note = "ERROR: " + note
		}
		return append(out, note, "", "", "", "", "", "", "", "")
	}
	st := sr.Stats
	invalid := fmt.Sprint(st.Invalid)
	if st.Invalid > 0 {
		invalid = fmt.Sprintf("INVALID %d: %s", st.Invalid, st.FirstBad)
	}
	return append(out, fmt.Sprint(st.Events), fmt.Sprint(st.Rounds), fmt.Sprint(st.MaxRounds), fmt.Sprint(st.Unsettled),
		fmt.Sprint(st.Moved), fmt.Sprint(st.Withheld), invalid, fmt.Sprint(st.Spread), dur(time.Duration(st.LeadNanos)))
}

// writeTable prints the results as aligned text tables, with every invalid
// plan listed afterwards: the compact table and its legend, or with wide,
// every column.
func writeTable(w io.Writer, res *results, wide bool) {
	if wide {
		writeWideTable(w, res)
	} else {
		writeCompactTable(w, res)
	}
	var tw *tabwriter.Writer
	if len(res.Scripts) > 0 && wide {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(scriptHeader, "\t"))
		for _, sr := range res.Scripts {
			fmt.Fprintln(tw, strings.Join(sr.cells(), "\t"))
		}
		tw.Flush()
	}
	if len(res.Groups) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(groupHeader, "\t"))
		for _, gr := range res.Groups {
			fmt.Fprintln(tw, strings.Join(gr.cells(), "\t"))
		}
		tw.Flush()
	}
	if bad := invalidPlans(res); len(bad) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "!!! INVALID PLANS !!!")
		for _, b := range bad {
			fmt.Fprintln(w, b)
		}
	}
	fmt.Fprintln(w)
	for _, e := range res.Env {
		fmt.Fprintln(w, e)
	}
	fmt.Fprintf(w, "wall %s\n", res.Wall.Round(time.Second))
}

// writeWideTable prints every column of every row.
func writeWideTable(w io.Writer, res *results) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "shape: topics x partitions per topic / members (partitions in all)")
	fmt.Fprintln(tw, strings.Join(tableHeader, "\t"))
	for i, cl := range res.Cells {
		if i > 0 && res.Cells[i-1].Shape != cl.Shape {
			fmt.Fprintln(tw)
		}
		for _, r := range cl.Rows {
			fmt.Fprintln(tw, strings.Join(r.cells(cl), "\t"))
		}
	}
	tw.Flush()
}

func invalidPlans(res *results) []string {
	var out []string
	for _, cl := range res.Cells {
		for _, r := range cl.Rows {
			if r.Q != nil && !r.Q.Valid {
				out = append(out, fmt.Sprintf("%s %s %s: %d violations:\n  %s", cl.Shape, cl.Scenario, r.C.Name, r.Q.NumViolations, strings.Join(r.Q.Violations, "\n  ")))
			}
			if r.Settle != nil && !r.Settle.Valid {
				out = append(out, fmt.Sprintf("%s %s %s (follow-up round): %d violations:\n  %s", cl.Shape, cl.Scenario, r.C.Name, r.Settle.NumViolations, strings.Join(r.Settle.Violations, "\n  ")))
			}
		}
	}
	for _, sr := range res.Scripts {
		if sr.Stats != nil && sr.Stats.Invalid > 0 {
			out = append(out, fmt.Sprintf("%s script %s %s: %d invalid rounds, first: %s", sr.Shape, sr.Script, sr.C.Name, sr.Stats.Invalid, sr.Stats.FirstBad))
		}
	}
	return out
}

// environment describes the machine, the toolchain and the peers' versions.
func environment(cfg config) []string {
	env := []string{fmt.Sprintf("%s (GOMAXPROCS %d); each child process runs with the same GOMAXPROCS, one child at a time", machine.This(), runtime.GOMAXPROCS(0))}
	if bi, ok := debug.ReadBuildInfo(); ok {
		var deps []string
		for _, d := range bi.Deps {
			switch d.Path {
			case "github.com/IBM/sarama", "github.com/twmb/franz-go", "github.com/twmb/franz-go/pkg/kmsg":
				deps = append(deps, d.Path+" "+d.Version)
			}
		}
		if len(deps) > 0 {
			env = append(env, strings.Join(deps, ", "))
		}
	}
	env = append(env, fmt.Sprintf("%d repetitions, cap %s per run (%s per script), seed %d", cfg.reps, cfg.cap, 2*cfg.cap, cfg.seed))
	env = append(env, goGC())
	seen := map[string]bool{}
	for _, c := range cfg.contenders {
		if c.About != nil {
			if line := c.About(); line != "" && !seen[line] {
				seen[line] = true
				env = append(env, line)
			}
		}
	}
	return env
}

// goGC states the Go contenders' garbage collector settings.
func goGC() string {
	gogc, limit := os.Getenv("GOGC"), os.Getenv("GOMEMLIMIT")
	if gogc == "" {
		gogc = "100 (default)"
	}
	if limit == "" {
		limit = "unset"
	}
	return fmt.Sprintf("Go contenders: GOGC=%s, GOMEMLIMIT %s; a runtime.GC() before each timed Lead, one warm-up Lead (or the history round) before the first", gogc, limit)
}

// hasHistory reports whether members carry their contender's previous plan
// in scenario sc.
func hasHistory(sc workload.Scenario) bool {
	return sc == workload.Join || sc == workload.Leave || sc == workload.MixedJoin
}

// loadAverage returns the first three fields of /proc/loadavg, or "".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
