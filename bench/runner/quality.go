package runner

import (
	"fmt"
	"slices"
	"strings"
)

// The plan's judgement, against what is possible for the group and never
// against whichever contenders ran: balance against the optimum
// (measure.Optimum), moves against the fewest from the contender's own
// history (measure.Quality.MinMoves), validity by assignor.CheckPlan.

// qualityHeader are the plan's columns.
var qualityHeader = []string{"valid", "balance", "moves (fewest)", "withheld", "after the follow-up", "rack-local"}

// quality renders a row's plan columns (qualityHeader); "–" where one does
// not apply, empty when the row has no plan.
func (r *row) quality(cl *cell) []string {
	q := r.Q
	if q == nil {
		return make([]string, len(qualityHeader))
	}
	valid := "ok"
	if !q.Valid {
		valid = fmt.Sprintf("INVALID (%d): %s", q.NumViolations, q.Violations[0])
	}
	if r.C.Floor { // the floor's plan is a placeholder of the right size
		return []string{valid, "–", "–", "–", "–", "–"}
	}
	out := []string{valid, balance(cl, r), r.moves(cl), "–", "–", "–"}
	if r.C.Cooperative {
		out[3] = fmt.Sprint(q.Withheld)
	}
	if s := r.Settle; s != nil {
		v := ""
		if !s.Valid {
			v = ", INVALID"
		}
		out[4] = fmt.Sprintf("spread %d, +%d moves, %d withheld%s", s.Spread, s.Moves, s.Withheld, v)
	}
	if q.RackTotal > 0 {
		out[5] = fmt.Sprintf("%.1f%%", 100*float64(q.RackLocal)/float64(q.RackTotal))
	}
	return out
}

// balance renders a row's spread and its verdict against the cell's
// optimum: "optimal" when the plan's sum of squared loads is the least any
// complete plan reaches, "NOT optimal" with the optimum's spread
// otherwise, "(withholding)" for a cooperative first round that holds
// partitions back for the follow-up.
func balance(cl *cell, r *row) string {
	q := r.Q
	s := fmt.Sprint(q.Spread)
	switch {
	case q.Withheld > 0:
		s += " (withholding)"
	case cl.Opt == nil:
	case q.SumSq == cl.Opt.SumSq:
		s += " optimal"
	default:
		s += fmt.Sprintf(" NOT optimal (optimum %d)", cl.Opt.Spread)
	}
	if q.Empty > 0 {
		s += fmt.Sprintf(", %d empty", q.Empty)
	}
	return s
}

// moves renders the partitions a row's plan took from their owners and
// the fewest possible, "–" in a scenario without history.
func (r *row) moves(cl *cell) string {
	q := r.Q
	switch {
	case !hasHistory(cl.Scenario):
		return "–"
	case q.MinMoves < 0:
		return fmt.Sprint(q.Moves)
	}
	return fmt.Sprintf("%d (%d)", q.Moves, q.MinMoves)
}

// qualityReport renders results.md's one report on the plans: per cell,
// one line per distinct judgement, naming the contenders that share it.
func qualityReport(res *results) string {
	var b strings.Builder
	for _, cl := range res.Cells {
		var outcomes [][]string // the plan columns
		var who [][]string      // the contenders with each
		for _, r := range cl.Rows {
			if r.Q == nil || r.C.Floor {
				continue
			}
			cols := r.quality(cl)
			i := slices.IndexFunc(outcomes, func(o []string) bool { return slices.Equal(o, cols) })
			if i < 0 {
				i = len(outcomes)
				outcomes, who = append(outcomes, cols), append(who, nil)
			}
			who[i] = append(who[i], "`"+r.C.Key+"`")
		}
		for i, cols := range outcomes {
			head := []string{"", "", "", strings.Join(who[i], ", ")}
			if i == 0 {
				head[0], head[1], head[2] = cl.Shape.String(), string(cl.Scenario), best(cl)
			}
			b.WriteString(mdRow(append(head, cols...)))
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "\n## Plan quality\n\n" +
		"Every plan judged against what is possible for its group, never against the other contenders: balance against the optimum (the least sum of squared loads of any plan, computed for the group: see Columns), moves against the fewest any optimally balanced plan needs from the contender's own history, validity by assignor.CheckPlan. Contenders with the same judgement share a line; the floors, which make no plan, are left out.\n\n" +
		mdHeader(append([]string{"shape", "scenario", "best possible", "contenders"}, qualityHeader...)) + b.String()
}

// best renders the cell's optimum.
func best(cl *cell) string {
	if cl.Opt == nil {
		return "–"
	}
	return fmt.Sprintf("spread %d", cl.Opt.Spread)
}
