package main

import (
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/bench/internal/measure"
	"github.com/kgroup/assignor/workload"
)

// load is one workload of the table: a skew on identical subscriptions, or
// Zipf (s = 1.1) on mixed ones.
type load struct {
	Name  string
	Skew  workload.Skew
	Mixed bool
}

func loads() []load {
	var out []load
	for _, k := range workload.Skews() {
		out = append(out, load{Name: string(k), Skew: k})
	}
	return append(out, load{Name: "mixed-subs", Skew: workload.Zipf11, Mixed: true})
}

// phase is one contender's rebalance: fresh, or after one member joins.
type phase struct {
	Heaviest int64   `json:"heaviest"`
	Bound    int64   `json:"bound"`
	Ratio    float64 `json:"ratio"` // Heaviest / Bound
	// Limited is the bound under weighted's default count limit (see
	// countBound), 0 with mixed subscriptions; LimitedRatio is Heaviest
	// over the larger of the two bounds.
	Limited      int64   `json:"limited"`
	LimitedRatio float64 `json:"limited_ratio"`
	Invalid      string  `json:"invalid,omitempty"`
	Median       time.Duration
	Allocs       uint64 `json:"allocs"` // per Lead
	Bytes        uint64 `json:"bytes"`  // per Lead
	Reps         int    `json:"reps"`
}

// row is one contender on one cell.
type row struct {
	Key, Name string
	Skipped   string `json:"skipped,omitempty"`
	Fresh     phase
	Join      phase
	// Moves counts the partitions the join took from their owners, and
	// MovedWeight their weight; Total is the cell's total weight.
	Moves       int
	MovedWeight int64
	Total       int64
	// Joiner is the load the joining member holds after the join: the
	// least weight any plan must move to it, if it moves nothing else.
	Joiner int64
}

// cell is one workload on one shape.
type cell struct {
	Load  load
	Shape workload.Shape
	Rows  []row
}

// budget bounds the timed Leads of one phase: at most reps of them, and no
// more once spent has passed (at least one always runs). quick skips the
// warm-up Lead and the slowest peers on mixed subscriptions.
type budget struct {
	reps  int
	spent time.Duration
	quick bool
}

// runCell measures every entrant on one workload and shape.
func runCell(ld load, sh workload.Shape, es []entrant, b budget, seed uint64) (cell, error) {
	sc := workload.Join
	if ld.Mixed {
		sc = workload.MixedJoin
	}
	c, err := workload.Build(sh, sc, seed)
	if err != nil {
		return cell{}, err
	}
	if c, err = c.Weigh(ld.Skew, seed); err != nil {
		return cell{}, err
	}
	out := cell{Load: ld, Shape: sh}
	for _, e := range es {
		if why := e.skip(sh, ld.Mixed, b.quick); why != "" {
			out.Rows = append(out.Rows, row{Key: e.Key, Name: e.Name, Skipped: why})
			continue
		}
		r, err := runEntrant(e, c, b)
		if err != nil {
			return cell{}, fmt.Errorf("%s on %s %v: %w", e.Name, ld.Name, sh, err)
		}
		out.Rows = append(out.Rows, r)
	}
	return out, nil
}

// runEntrant runs e fresh on c's members before the join, then on the
// members after it, who own what e's fresh plan gave them.
func runEntrant(e entrant, c workload.Case, b budget) (row, error) {
	r := row{Key: e.Key, Name: e.Name}
	fresh := joins(c.Before, nil)
	as, p, err := lead(e, c.Topics, fresh, 1, b)
	if err != nil {
		return r, err
	}
	r.Fresh = p
	after := joins(c.After, as)
	joined, p, err := lead(e, c.Topics, after, 2, b)
	if err != nil {
		return r, err
	}
	r.Join = p
	r.Moves, r.MovedWeight, r.Total = moved(c.Topics, after, joined)
	loads := workload.Loads(c.Topics, measure.Plan(after, joined))
	for _, m := range after {
		if m.Generation == assignor.NoGeneration {
			r.Joiner = loads[m.ID]
		}
	}
	return r, nil
}

// joins returns the members as they join: owning what as gave them at
// generation 1, or nothing.
func joins(ms []workload.Member, as []contender.Assignment) []contender.MemberJoin {
	given := make(map[string]contender.Assignment, len(as))
	for _, a := range as {
		given[a.Member] = a
	}
	out := make([]contender.MemberJoin, len(ms))
	for i, m := range ms {
		out[i] = contender.MemberJoin{ID: m.ID, Topics: m.Topics, Rack: m.Rack, Generation: assignor.NoGeneration}
		if a, ok := given[m.ID]; ok {
			out[i].Owned, out[i].Generation, out[i].AssignmentUserData = a.Partitions, 1, a.UserData
		}
	}
	return out
}

// lead prepares a runner untimed, runs one warm-up Lead (not in quick
// mode), then times up to
// b.reps Leads (each after a GC, on the same prepared runner) and judges
// the last one's plan.
func lead(e entrant, topics []assignor.Topic, members []contender.MemberJoin, generation int32, b budget) ([]contender.Assignment, phase, error) {
	var p phase
	rn := e.New()
	if err := rn.Prepare(topics, members, generation); err != nil {
		return nil, p, err
	}
	if !b.quick {
		if err := rn.Lead(); err != nil {
			return nil, p, err
		}
	}
	var times []time.Duration
	var allocs, bytes uint64
	start := time.Now()
	for len(times) < b.reps && (len(times) == 0 || time.Since(start) < b.spent) {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		t0 := time.Now()
		if err := rn.Lead(); err != nil {
			return nil, p, err
		}
		times = append(times, time.Since(t0))
		runtime.ReadMemStats(&after)
		allocs += after.Mallocs - before.Mallocs
		bytes += after.TotalAlloc - before.TotalAlloc
	}
	slices.Sort(times)
	p.Reps, p.Median = len(times), times[len(times)/2]
	p.Allocs, p.Bytes = allocs/uint64(len(times)), bytes/uint64(len(times))
	as, err := rn.Result()
	if err != nil {
		return nil, p, err
	}
	plan := measure.Plan(members, as)
	if err := assignor.CheckPlan(measure.Group(topics, members), plan, assignor.Eager); err != nil {
		p.Invalid = firstLine(err.Error())
	}
	for _, l := range workload.Loads(topics, plan) {
		p.Heaviest = max(p.Heaviest, l)
	}
	p.Bound = workload.LowerBound(topics, len(members))
	p.Ratio = float64(p.Heaviest) / float64(max(p.Bound, 1))
	p.Limited = countBound(topics, members)
	p.LimitedRatio = float64(p.Heaviest) / float64(max(p.Bound, p.Limited, 1))
	return as, p, nil
}

// moved counts the partitions, and their weight, that the plan as took from
// the owners the members claim.
func moved(topics []assignor.Topic, members []contender.MemberJoin, as []contender.Assignment) (int, int64, int64) {
	weight := make(map[string][]int64, len(topics))
	var total int64
	for _, t := range topics {
		ws := make([]int64, len(t.Partitions))
		for i, p := range t.Partitions {
			if int(p) < len(ws) && t.Weights != nil {
				ws[p] = max(0, t.Weights[i])
				total += ws[p]
			}
		}
		weight[t.Name] = ws
	}
	owner := make(map[partition]string)
	for _, m := range members {
		for _, tp := range m.Owned {
			for _, p := range tp.Partitions {
				owner[partition{tp.Topic, p}] = m.ID
			}
		}
	}
	moves, w := 0, int64(0)
	for _, a := range as {
		for _, tp := range a.Partitions {
			for _, p := range tp.Partitions {
				if o, ok := owner[partition{tp.Topic, p}]; ok && o != a.Member {
					moves++
					w += weight[tp.Topic][p]
				}
			}
		}
	}
	return moves, w, total
}

// countBound is a lower bound on the heaviest load of any plan that keeps
// every member within the weighted assignor's default count limit (one
// partition below the count-balanced band, never down to 0 from above),
// for identical subscriptions (0 otherwise): whoever holds the heaviest
// partition holds at least c−1 others, c the least count allowed, so at
// least the c−1 lightest. O(partitions log partitions).
func countBound(topics []assignor.Topic, members []contender.MemberJoin) int64 {
	var ws []int64
	for _, t := range topics {
		for _, w := range t.Weights {
			ws = append(ws, max(0, w))
		}
	}
	if len(members) == 0 || len(ws) == 0 {
		return 0
	}
	for _, m := range members {
		if !slices.Equal(m.Topics, members[0].Topics) || len(m.Topics) != len(topics) {
			return 0
		}
	}
	lo := len(ws) / len(members)
	least := max(min(1, lo), lo-1)
	slices.Sort(ws)
	bound := ws[len(ws)-1]
	for _, w := range ws[:max(0, least-1)] {
		bound += w
	}
	return bound
}

// partition names one partition.
type partition struct {
	topic string
	id    int32
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}
