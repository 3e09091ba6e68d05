package runner

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/bench/internal/measure"
	"github.com/kgroup/assignor/workload"
)

// job is what the parent asks one child process to do: one repetition of one
// contender on one shape and scenario, or one script.
type job struct {
	Contender string            `json:"contender"`
	Shape     workload.Shape    `json:"shape"`
	Scenario  workload.Scenario `json:"scenario,omitempty"`
	Script    string            `json:"script,omitempty"`
	Group     string            `json:"group,omitempty"` // a real-group script (-group)
	Kind      string            `json:"kind,omitempty"`  // its member kind
	Seed      uint64            `json:"seed"`
	Cap       time.Duration     `json:"cap"`
}

// result is a child's answer, one JSON object on stdout.
type result struct {
	Capped bool   `json:"capped,omitempty"`
	Phase  string `json:"phase,omitempty"` // where the cap hit
	Err    string `json:"err,omitempty"`

	Nanos      int64  `json:"nanos"` // the median timed Lead
	AllocBytes uint64 `json:"alloc_bytes"`
	Allocs     uint64 `json:"allocs"`
	// GCs are the garbage collection cycles that ended during timed
	// Leads, per Lead; AllocBytes and Allocs are per Lead too.
	GCs float64 `json:"gcs"`
	// Leads is how many Leads were timed.
	Leads int `json:"leads,omitempty"`
	// Phases are the steps of the reported Lead, for a runner that times
	// them (contender.Phased), then the steps its Split timed apart.
	Phases  []contender.Phase `json:"phases,omitempty"`
	Quality *measure.Quality  `json:"quality,omitempty"`
	// Settled judges the follow-up round of a cooperative plan that
	// withheld partitions: every member rejoins owning what it was given.
	Settled *measure.Quality `json:"settled,omitempty"`

	Script *scriptStats `json:"script,omitempty"`
	Group  *groupStats  `json:"group,omitempty"`
}

// scriptStats sums a script's rounds.
type scriptStats struct {
	Events    int    `json:"events"`
	Rounds    int    `json:"rounds"`     // rebalances after the initial assignment
	MaxRounds int    `json:"max_rounds"` // most rebalances one event took to settle
	Unsettled int    `json:"unsettled"`  // events that did not settle within maxRounds
	Moved     int    `json:"moved"`      // partitions revoked from a member, summed over rounds
	Withheld  int    `json:"withheld"`   // partitions withheld, summed over rounds
	Invalid   int    `json:"invalid"`    // rounds whose plan failed CheckPlan
	FirstBad  string `json:"first_bad,omitempty"`
	LeadNanos int64  `json:"lead_nanos"` // time in Lead, summed over rounds
	Spread    int    `json:"spread"`     // of the final plan
}

// maxRounds bounds the rebalances one script event may take.
const maxRounds = 10

// watchdog ends the child with a "capped" answer when one phase outlasts its
// cap; the phase's work cannot be interrupted otherwise.
type watchdog struct {
	mu   sync.Mutex
	out  io.Writer
	done bool
	exit func(int)
}

func (w *watchdog) write(r result) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	w.done = true
	_ = json.NewEncoder(w.out).Encode(r)
}

// within runs f, and if f has not returned after d, writes a capped result
// and exits.
func (w *watchdog) within(d time.Duration, phase string, f func() error) error {
	t := time.AfterFunc(d, func() {
		w.write(result{Capped: true, Phase: phase})
		w.exit(0)
	})
	defer t.Stop()
	return f()
}

// runChild reads a job from in, runs it and writes the result to out; a
// phase over the cap ends the process.
func runChild(in io.Reader, out io.Writer) error {
	var j job
	if err := json.NewDecoder(in).Decode(&j); err != nil {
		return fmt.Errorf("bench: child: reading job: %w", err)
	}
	runJob(j, &watchdog{out: out, exit: os.Exit})
	return nil
}

// runJob runs j and writes its result through w.
func runJob(j job, w *watchdog) {
	var r result
	var err error
	switch {
	case j.Group != "":
		r, err = runGroup(j, w)
	case j.Script != "":
		r, err = runScript(j, w)
	default:
		r, err = runCell(j, w)
	}
	switch {
	case errors.Is(err, contender.ErrOverCap):
		r = result{Capped: true, Phase: "timed"}
	case err != nil:
		r = result{Err: err.Error()}
	}
	w.write(r)
}

// joinsFor returns the members' joins given their history.
func joinsFor(specs []workload.Member, hist map[string]contender.Assignment, generation int32) []contender.MemberJoin {
	joins := make([]contender.MemberJoin, len(specs))
	for i, s := range specs {
		j := contender.MemberJoin{ID: s.ID, Topics: s.Topics, Rack: s.Rack, Generation: assignor.NoGeneration}
		if h, ok := hist[s.ID]; ok {
			j.Owned = h.Partitions
			j.Generation = generation
			j.AssignmentUserData = h.UserData
		}
		joins[i] = j
	}
	return joins
}

func protocolOf(c contender.Contender) assignor.Protocol {
	if c.Cooperative {
		return assignor.Cooperative
	}
	return assignor.Eager
}

// lead prepares a fresh runner and runs Lead once within the cap; it
// returns the plan and the time Lead took.
func lead(w *watchdog, j job, c contender.Contender, phase string, topics []assignor.Topic, joins []contender.MemberJoin, generation int32) ([]contender.Assignment, time.Duration, error) {
	r := c.New()
	if err := r.Prepare(topics, joins, generation); err != nil {
		return nil, 0, err
	}
	limit := j.Cap
	if _, ok := r.(contender.SelfTimed); ok {
		limit = selfTimedLimit(j.Cap) // the cap is for the run, not the JVM's start
	}
	start := time.Now()
	if err := w.within(limit, phase, r.Lead); err != nil {
		return nil, 0, err
	}
	took := time.Since(start)
	as, err := r.Result()
	return as, took, err
}

// selfTimedLimit bounds one call of a self-timed contender (a JVM: its
// start, the group's setup, warm-up and timed runs) given the cap on one
// run: twice the cap and two minutes.
func selfTimedLimit(cap time.Duration) time.Duration { return 2*cap + 2*time.Minute }

func byMember(as []contender.Assignment) map[string]contender.Assignment {
	m := make(map[string]contender.Assignment, len(as))
	for _, a := range as {
		m[a.Member] = a
	}
	return m
}

// runCell measures one repetition: the history round (join, leave) or a
// warm-up Lead (other scenarios), then the timed Leads, then the judgement,
// then for a cooperative plan that withheld partitions the follow-up round.
func runCell(j job, w *watchdog) (result, error) {
	c, ok := contender.Lookup(j.Contender)
	if !ok {
		return result{}, fmt.Errorf("bench: unknown contender %q", j.Contender)
	}
	cs, err := workload.Build(j.Shape, j.Scenario, j.Seed)
	if err != nil {
		return result{}, err
	}
	var hist map[string]contender.Assignment
	var warm time.Duration // the history round's Lead, the warm-up
	generation := int32(1)
	if cs.Before != nil {
		var as []contender.Assignment
		as, warm, err = lead(w, j, c, "history", cs.Topics, joinsFor(cs.Before, nil, 0), generation)
		if err != nil {
			return result{}, fmt.Errorf("bench: history round: %w", err)
		}
		hist = byMember(as)
		generation++
	}
	joins := joinsFor(cs.After, hist, generation-1)
	r, res, err := timeLeads(w, j, c, cs.Topics, joins, generation, warm)
	if err != nil {
		return result{}, err
	}
	as, err := r.Result()
	if err != nil {
		return result{}, err
	}
	q := measure.Evaluate(cs.Topics, joins, as, protocolOf(c))
	res.Quality = &q
	if c.Cooperative && q.Withheld > 0 && q.Valid {
		follow := joinsFor(cs.After, byMember(as), generation)
		as2, _, err := lead(w, j, c, "follow-up", cs.Topics, follow, generation+1)
		if err != nil {
			return result{}, fmt.Errorf("bench: follow-up round: %w", err)
		}
		q2 := measure.Evaluate(cs.Topics, follow, as2, protocolOf(c))
		res.Settled = &q2
	}
	return res, nil
}

// Timed Leads per child: a leader is a long-running process, so after a
// warm-up Lead (or the history round) each child times n Leads, each on a
// fresh runner prepared and after a GC with the timer stopped, n chosen
// from the warm-up's time w: as many as fit in timedBudget, from 1 to
// timedLeads, or up to quickLeads while they fit in quickBudget (times of
// a fraction of a millisecond, where five samples varied by a fifth from
// run to run). The JVM harness follows the same rule (bench/kafka).
const (
	timedLeads  = 5
	timedBudget = 300 * time.Millisecond
	quickLeads  = 15
	quickBudget = 30 * time.Millisecond
)

// leadsFor is how many Leads of about w each a child times.
func leadsFor(w time.Duration) int {
	fit := func(budget time.Duration, most int) int {
		if w <= 0 {
			return most
		}
		return int(min(max((budget+w-1)/w, 1), time.Duration(most)))
	}
	return max(fit(timedBudget, timedLeads), fit(quickBudget, quickLeads))
}

// timeLeads times the contender's Lead with testing.Benchmark: a b.Loop of
// leadsFor(warm) Leads (-test.benchtime Nx), after a warm-up Lead when warm
// is 0 (a cell with a history round has had one, which took warm). It
// reports the median Lead (b.ReportMetric), the allocations per Lead
// (b.ReportAllocs), the GC cycles that ended during timed Leads per Lead
// and the mean of each phase, and returns the runner of the last Lead, for
// its result.
func timeLeads(w *watchdog, j job, c contender.Contender, topics []assignor.Topic, joins []contender.MemberJoin, generation int32, warm time.Duration) (contender.Runner, result, error) {
	if st, ok := c.New().(contender.SelfTimed); ok {
		return timeSelf(w, j, st, topics, joins, generation)
	}
	prepare := func() (contender.Runner, error) {
		r := c.New()
		return r, r.Prepare(topics, joins, generation)
	}
	if warm == 0 {
		r, err := prepare()
		if err == nil {
			start := time.Now()
			err = w.within(j.Cap, "warm-up", r.Lead)
			warm = time.Since(start)
		}
		if err != nil {
			return nil, result{}, err
		}
	}
	setBenchtime(fmt.Sprintf("%dx", leadsFor(warm)))
	var r contender.Runner
	var err error
	bench := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		var times []time.Duration
		var gcs uint64
		phases := map[string]int64{}
		for b.Loop() {
			b.StopTimer()
			if r, err = prepare(); err != nil {
				b.SkipNow()
			}
			runtime.GC()
			gc := gcCycles()
			b.StartTimer()
			start := time.Now()
			err = w.within(j.Cap, "timed", r.Lead)
			elapsed := time.Since(start)
			b.StopTimer()
			if err != nil {
				b.SkipNow()
			}
			times, gcs = append(times, elapsed), gcs+gcCycles()-gc
			if p, ok := r.(contender.Phased); ok {
				for _, ph := range p.Phases() {
					phases[ph.Name] += ph.Nanos
				}
			}
			b.StartTimer()
		}
		slices.Sort(times)
		b.ReportMetric(float64(times[len(times)/2]), "ns/median-lead")
		b.ReportMetric(float64(gcs)/float64(b.N), "GCs/op")
		for name, ns := range phases {
			b.ReportMetric(float64(ns)/float64(b.N), phaseUnit+name)
		}
	})
	if err != nil {
		return nil, result{}, err
	}
	if bench.N == 0 {
		return nil, result{}, fmt.Errorf("bench: %s: no timed Lead", j.Contender)
	}
	res := result{Nanos: int64(bench.Extra["ns/median-lead"]), AllocBytes: uint64(bench.AllocedBytesPerOp()), Allocs: uint64(bench.AllocsPerOp()),
		GCs: bench.Extra["GCs/op"], Leads: bench.N}
	for _, name := range slices.Sorted(maps.Keys(bench.Extra)) {
		if phase, ok := strings.CutPrefix(name, phaseUnit); ok {
			res.Phases = append(res.Phases, contender.Phase{Name: phase, Nanos: int64(bench.Extra[name])})
		}
	}
	if p, ok := r.(contender.Phased); ok {
		var parts []contender.Phase
		err := w.within(j.Cap, "split", func() error {
			var err error
			parts, err = p.Split()
			return err
		})
		if err != nil {
			return nil, result{}, err
		}
		res.Phases = append(res.Phases, parts...)
	}
	return r, res, nil
}

// phaseUnit prefixes the unit of a phase's b.ReportMetric.
const phaseUnit = "ns/op-phase-"

// setBenchtime sets testing.Benchmark's -test.benchtime.
func setBenchtime(v string) {
	testing.Init() // registers the flag outside `go test`; a no-op in a test binary
	if err := flag.Set("test.benchtime", v); err != nil {
		panic(err) // the flag exists once Init has run, and v is valid
	}
}

// gcCycles returns the garbage collection cycles completed so far.
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// timeSelf runs a contender that times itself (in a JVM): its own warm-up
// and timed runs, each within the cap, the whole within selfTimedLimit; it
// reports the median of the runs the JVM reports.
func timeSelf(w *watchdog, j job, r contender.SelfTimed, topics []assignor.Topic, joins []contender.MemberJoin, generation int32) (contender.Runner, result, error) {
	if err := r.Prepare(topics, joins, generation); err != nil {
		return nil, result{}, err
	}
	var runs []contender.TimedRun
	err := w.within(selfTimedLimit(j.Cap), "timed", func() error {
		var err error
		runs, err = r.Measure(j.Cap)
		return err
	})
	if err != nil {
		return nil, result{}, err
	}
	if len(runs) == 0 {
		return nil, result{}, fmt.Errorf("bench: %s: no timed run", j.Contender)
	}
	slices.SortFunc(runs, func(a, b contender.TimedRun) int { return cmp.Compare(a.Nanos, b.Nanos) })
	med := runs[len(runs)/2]
	return r, result{Nanos: med.Nanos, AllocBytes: med.AllocBytes, GCs: float64(med.GCs), Leads: 1}, nil
}

// runScript runs a script through a cooperative contender round by round,
// the whole script within 2×cap.
func runScript(j job, w *watchdog) (result, error) {
	c, ok := contender.Lookup(j.Contender)
	if !ok {
		return result{}, fmt.Errorf("bench: unknown contender %q", j.Contender)
	}
	sc, err := workload.NewScript(j.Script, j.Shape, j.Seed)
	if err != nil {
		return result{}, err
	}
	p := &scriptPlay{c: c, sc: sc, live: slices.Clone(sc.Initial), hist: map[string]contender.Assignment{}}
	if err := w.within(2*j.Cap, "script", p.play); err != nil {
		return result{}, err
	}
	return result{Script: &p.stats, Nanos: p.stats.LeadNanos}, nil
}

// scriptPlay is one script in progress: the live members, what each was
// given last (their history), the generation, and the sums so far.
type scriptPlay struct {
	c          contender.Contender
	sc         workload.Script
	live       []workload.Member
	hist       map[string]contender.Assignment
	generation int32
	last       measure.Quality // of the latest plan
	stats      scriptStats
}

// play settles the initial group, then runs each event and settles again.
func (p *scriptPlay) play() error {
	if _, err := p.settle(false); err != nil {
		return fmt.Errorf("bench: script %s: initial assignment: %w", p.sc.Name, err)
	}
	for i, ev := range p.sc.Events {
		p.apply(ev)
		rounds, err := p.settle(true)
		if err != nil {
			return fmt.Errorf("bench: script %s: event %d: %w", p.sc.Name, i+1, err)
		}
		p.stats.Events++
		if rounds > maxRounds {
			p.stats.Unsettled++
			rounds = maxRounds
		}
		p.stats.MaxRounds = max(p.stats.MaxRounds, rounds)
	}
	p.stats.Spread = p.last.Spread
	return nil
}

// apply removes the event's leavers (and their history) and adds its
// joiners.
func (p *scriptPlay) apply(ev workload.Event) {
	gone := make(map[string]bool, len(ev.Leave))
	for _, id := range ev.Leave {
		gone[id] = true
		delete(p.hist, id)
	}
	kept := p.live[:0]
	for _, m := range p.live {
		if !gone[m.ID] {
			kept = append(kept, m)
		}
	}
	p.live = append(kept, ev.Join...)
}

// settle runs rounds until nothing is withheld, counting them in the stats
// when count is set; it returns the rounds taken (maxRounds+1 when the
// group did not settle), or an error.
func (p *scriptPlay) settle(count bool) (int, error) {
	for round := 1; round <= maxRounds; round++ {
		joins := joinsFor(p.live, p.hist, p.generation)
		p.generation++
		r := p.c.New()
		if err := r.Prepare(p.sc.Topics, joins, p.generation); err != nil {
			return round, err
		}
		start := time.Now()
		if err := r.Lead(); err != nil {
			return round, err
		}
		p.stats.LeadNanos += time.Since(start).Nanoseconds()
		as, err := r.Result()
		if err != nil {
			return round, err
		}
		q := measure.Evaluate(p.sc.Topics, joins, as, protocolOf(p.c))
		p.last = q
		if count {
			p.stats.add(q)
		}
		p.hist = byMember(as)
		if q.Withheld == 0 {
			return round, nil
		}
	}
	return maxRounds + 1, nil
}

// add counts one round judged q.
func (st *scriptStats) add(q measure.Quality) {
	st.Rounds++
	st.Moved += q.Moves
	st.Withheld += q.Withheld
	if !q.Valid {
		st.Invalid++
		if st.FirstBad == "" && len(q.Violations) > 0 {
			st.FirstBad = q.Violations[0]
		}
	}
}

var errChildFailed = errors.New("bench: child failed")
