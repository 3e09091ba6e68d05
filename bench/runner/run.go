package runner

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/bench/internal/measure"
	"github.com/kgroup/assignor/workload"
)

// Row statuses.
const (
	statusOK      = "ok"
	statusCapped  = "capped"  // over the cap on this shape: killed
	statusSkipped = "skipped" // over the cap on a smaller shape: not run
	statusNA      = "n/a"     // the contender cannot run the scenario
	statusError   = "error"
)

// row is one contender on one shape and scenario.
type row struct {
	C      contender.Contender
	Status string
	Note   string        // why capped, skipped, n/a or failed
	Cap    time.Duration // the cap it hit
	Times  []time.Duration
	Allocs []uint64  // bytes allocated per repetition
	GCs    []float64 // GC cycles per timed Lead, per repetition
	// Phases are each repetition's phases (see result.Phases).
	Phases [][]contender.Phase `json:",omitempty"`
	Q      *measure.Quality
	Settle *measure.Quality
	// Filled by finish:
	Median, Min time.Duration
	AllocMed    uint64
	GCMed       float64
	XRef        float64 // median / franz-go cooperative-sticky median, 0 if unknown
	XFloor      float64 // median / floor median, 0 if unknown
}

type cell struct {
	Shape    workload.Shape
	Scenario workload.Scenario
	// Opt is the best balance any complete plan reaches for the cell's
	// group (measure.Optimum), the reference of every row's balance;
	// nil when the group could not be built.
	Opt  *measure.Balance `json:",omitempty"`
	Rows []*row
}

// optimum returns the best balance of scenario sc's group on shape s, or
// nil if it cannot be built.
func optimum(s workload.Shape, sc workload.Scenario, seed uint64) *measure.Balance {
	cs, err := workload.Build(s, sc, seed)
	if err != nil {
		return nil
	}
	subs := make([][]string, len(cs.After))
	for i, m := range cs.After {
		subs[i] = m.Topics
	}
	b := measure.Optimum(cs.Topics, subs)
	return &b
}

type scriptRow struct {
	Shape  workload.Shape
	Script string
	C      contender.Contender
	Status string
	Note   string
	Stats  *scriptStats
}

type results struct {
	Cells   []*cell
	Scripts []*scriptRow
	Groups  []*groupRow
	Cfg     config    `json:"-"`
	Date    time.Time // when the run started
	Wall    time.Duration
	// Machine is the computer the run was measured on (see machine).
	Machine string `json:",omitempty"`
	Env     []string
}

// refKey and floorKey name the contenders ratios are taken against.
const refKey, floorKey = "franz-coop", "floor"

// run runs every job of cfg through spawn, interleaving repetitions across
// contenders (repetition r of every contender before repetition r+1, the
// contender order rotated each repetition), and prints its progress on progressOut.
func run(cfg config, spawn spawner, progressOut io.Writer) *results {
	rn := &runner{cfg: cfg, spawn: spawn, res: &results{Cfg: cfg}, cappedOn: map[string]string{}}
	rn.progress = newProgress(jobCount(cfg), progressOut)
	defer rn.progress.close()
	for _, s := range cfg.shapes {
		for _, sc := range cfg.scenarios {
			rn.cell(s, sc)
		}
	}
	for _, s := range cfg.shapes {
		if s.Total() > cfg.scriptMax {
			continue
		}
		for _, name := range cfg.scripts {
			for _, c := range cooperativeContenders(cfg.contenders) {
				rn.script(s, name, c)
			}
		}
	}
	if cfg.group {
		rn.res.Groups = runGroups(spawn, cfg.seed, func() { rn.progress.add(1) })
	}
	return rn.res
}

// jobCount is how many child jobs cfg asks for at most, its progress's
// total.
func jobCount(cfg config) int {
	total := 0
	for range cfg.shapes {
		for _, sc := range cfg.scenarios {
			for _, c := range cfg.contenders {
				if sc != workload.Racks || c.Racks {
					total += cfg.reps
				}
			}
		}
	}
	for _, s := range cfg.shapes {
		if s.Total() <= cfg.scriptMax {
			total += len(cfg.scripts) * len(cooperativeContenders(cfg.contenders))
		}
	}
	if cfg.group {
		total += len(groupScripts) * len(groupKinds())
	}
	return total
}

// runner is one run in progress: its results so far, and where each
// contender hit the cap.
type runner struct {
	cfg      config
	spawn    spawner
	progress *progress
	res      *results
	// cappedOn maps a contender key and "/" and a scenario or "script "
	// and a script name to the shape on which it hit the cap: larger shapes
	// skip it.
	cappedOn map[string]string
}

// cell runs every repetition of every contender on shape s and scenario
// sc, interleaved, and finishes the cell.
func (rn *runner) cell(s workload.Shape, sc workload.Scenario) {
	cl := &cell{Shape: s, Scenario: sc, Opt: optimum(s, sc, rn.cfg.seed)}
	rn.res.Cells = append(rn.res.Cells, cl)
	var active []*row
	for _, c := range rn.cfg.contenders {
		r := &row{C: c, Status: statusOK}
		cl.Rows = append(cl.Rows, r)
		switch {
		case sc == workload.Racks && !c.Racks:
			r.Status, r.Note = statusNA, "cannot take racks"
		case rn.cappedOn[c.Key+"/"+string(sc)] != "":
			r.Status, r.Note = statusSkipped, "not run: over the cap on "+rn.cappedOn[c.Key+"/"+string(sc)]
			rn.progress.add(rn.cfg.reps)
		default:
			active = append(active, r)
		}
	}
	for rep := range rn.cfg.reps {
		for k := range active {
			r := active[(k+rep)%len(active)]
			if r.Status != statusOK {
				continue
			}
			out := rn.spawn(job{Contender: r.C.Key, Shape: s, Scenario: sc, Seed: rn.cfg.seed, Cap: rn.cfg.cap})
			rn.progress.add(1)
			rn.record(r, out, s, sc, rn.cfg.reps-rep-1)
		}
	}
	finish(cl)
}

// record adds one repetition's result out to r; a capped or failed
// repetition ends the row, and the bar skips its remaining repetitions.
func (rn *runner) record(r *row, out result, s workload.Shape, sc workload.Scenario, remaining int) {
	switch {
	case out.Capped:
		r.Status, r.Note, r.Cap = statusCapped, "> cap "+rn.cfg.cap.String()+" ("+out.Phase+")", rn.cfg.cap
		rn.cappedOn[r.C.Key+"/"+string(sc)] = s.Short()
		rn.progress.add(remaining)
	case out.Err != "":
		r.Status, r.Note = statusError, out.Err
		rn.progress.add(remaining)
	default:
		r.Times = append(r.Times, time.Duration(out.Nanos))
		r.Allocs = append(r.Allocs, out.AllocBytes)
		r.GCs = append(r.GCs, out.GCs)
		if out.Phases != nil {
			r.Phases = append(r.Phases, out.Phases)
		}
		if r.Q == nil {
			r.Q, r.Settle = out.Quality, out.Settled
		}
	}
}

// script runs script name through contender c on shape s, unless c hit the
// cap on a smaller shape or its join median predicts it will.
func (rn *runner) script(s workload.Shape, name string, c contender.Contender) {
	sr := &scriptRow{Shape: s, Script: name, C: c, Status: statusOK}
	rn.res.Scripts = append(rn.res.Scripts, sr)
	key := c.Key + "/script " + name
	if on := rn.cappedOn[key]; on != "" {
		sr.Status, sr.Note = statusSkipped, "not run: over the cap on "+on
		rn.progress.add(1)
		return
	}
	if why := predictOverCap(rn.res, s, name, c, 2*rn.cfg.cap, rn.cfg.seed); why != "" {
		sr.Status, sr.Note = statusSkipped, why
		rn.cappedOn[key] = s.Short()
		rn.progress.add(1)
		return
	}
	out := rn.spawn(job{Contender: c.Key, Shape: s, Script: name, Seed: rn.cfg.seed, Cap: rn.cfg.cap})
	rn.progress.add(1)
	switch {
	case out.Capped:
		sr.Status, sr.Note = statusCapped, "> cap "+(2*rn.cfg.cap).String()
		rn.cappedOn[key] = s.Short()
	case out.Err != "":
		sr.Status, sr.Note = statusError, out.Err
	default:
		sr.Stats = out.Script
	}
}

// predictOverCap says why a script need not run when the contender's own
// join median on the shape already shows it cannot finish within the cap:
// every event takes at least one round. It returns "" when the script should
// run (or there is no join measurement to go by).
func predictOverCap(res *results, s workload.Shape, name string, c contender.Contender, cap time.Duration, seed uint64) string {
	for _, cl := range res.Cells {
		if cl.Shape != s || cl.Scenario != workload.Join {
			continue
		}
		r := find(cl, c.Key)
		if r == nil {
			return ""
		}
		if r.Status == statusCapped || r.Status == statusSkipped {
			return "not run: over the cap in the join scenario on " + s.Short()
		}
		sc, err := workload.NewScript(name, s, seed)
		if err != nil || r.Median == 0 {
			return ""
		}
		if predicted := time.Duration(len(sc.Events)) * r.Median; predicted > cap {
			return fmt.Sprintf("not run: > cap %s predicted (%d events × join median %s)", cap, len(sc.Events), dur(r.Median))
		}
	}
	return ""
}

// cooperativeContenders are the contenders the scripts run: cooperative,
// through bytes (not core rows, not the floor).
func cooperativeContenders(cs []contender.Contender) []contender.Contender {
	var out []contender.Contender
	for _, c := range cs {
		if c.Cooperative && !c.Core && !c.Floor {
			out = append(out, c)
		}
	}
	return out
}

// finish computes the medians and ratios of a cell.
func finish(cl *cell) {
	for _, r := range cl.Rows {
		if len(r.Times) > 0 {
			ts := slices.Clone(r.Times)
			slices.Sort(ts)
			r.Min = ts[0]
			r.Median = median(ts)
			as := slices.Clone(r.Allocs)
			slices.Sort(as)
			r.AllocMed = as[len(as)/2]
			if len(r.GCs) > 0 { // results.json files from before the count have none
				gs := slices.Clone(r.GCs)
				slices.Sort(gs)
				r.GCMed = gs[len(gs)/2]
			}
		}
	}
	ref, floor := find(cl, refKey), find(cl, floorKey)
	for _, r := range cl.Rows {
		if r.Median == 0 {
			continue
		}
		if ref != nil && ref.Median > 0 {
			r.XRef = float64(r.Median) / float64(ref.Median)
		}
		if floor != nil && floor.Median > 0 {
			r.XFloor = float64(r.Median) / float64(floor.Median)
		}
	}
}

func find(cl *cell, key string) *row {
	for _, r := range cl.Rows {
		if r.C.Key == key {
			return r
		}
	}
	return nil
}

// phase returns the median over the repetitions of r's phase name, or 0
// if r has none.
func (r *row) phase(name string) time.Duration {
	var ts []time.Duration
	for _, ps := range r.Phases {
		for _, p := range ps {
			if p.Name == name {
				ts = append(ts, time.Duration(p.Nanos))
			}
		}
	}
	if len(ts) == 0 {
		return 0
	}
	slices.Sort(ts)
	return median(ts)
}

// median of sorted ts: the middle one, or the mean of the two middle ones.
func median(ts []time.Duration) time.Duration {
	n := len(ts)
	if n%2 == 1 {
		return ts[n/2]
	}
	return (ts[n/2-1] + ts[n/2]) / 2
}
