package runner

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/kgroup/assignor/workload"
)

// The default terminal table fits about 120 columns: one block per shape
// and scenario, contenders by key, the columns people compare. -wide
// prints every column (writeWideTable), as results.md does.

var compactHeader = []string{"cell", "contender", "median", "×franz-coop", "×floor", "MB/op", "spread", "moves (min)", "withheld"}

// compactScriptHeader is scriptHeader in fewer columns of text.
var compactScriptHeader = []string{"shape", "script", "contender", "events", "rounds", "max/event", "unsettled", "moved", "withheld", "invalid", "spread", "in Lead"}

// compactCells renders one row's compact columns; first says whether it
// is the first row of its cell, which names the cell.
func (r *row) compactCells(cl *cell, first bool) []string {
	name := ""
	if first {
		name = cl.Shape.Short() + " " + string(cl.Scenario)
	}
	out := []string{name, r.C.Key}
	// note puts a status in the median column and a short reason in the
	// spread column, or a long one after the last column, where its
	// length widens nothing.
	note := func(status, why string, long bool) []string {
		out = append(out, status, "", "", "")
		if !long {
			return append(out, why, "", "")
		}
		return append(out, "", "", "", why)
	}
	switch r.Status {
	case statusNA:
		return note("n/a", r.Note, len(r.Note) > 24)
	case statusSkipped:
		return note("not run", "> cap on a smaller shape", false)
	case statusError:
		return note("ERROR", r.Note, true)
	case statusCapped:
		if len(r.Times) == 0 {
			out = append(out, "> cap", atLeast(r.capRatio(cl, refKey)), atLeast(r.capRatio(cl, floorKey)))
			for len(out) < len(compactHeader) {
				out = append(out, "")
			}
			return out
		}
	}
	out = append(out, dur(r.Median), ratio(r.XRef), ratio(r.XFloor), fmt.Sprintf("%.1f", float64(r.AllocMed)/1e6))
	q := r.Q
	switch {
	case q == nil:
		return out
	case !q.Valid:
		return append(out, fmt.Sprintf("INVALID (%d violations, see below)", q.NumViolations))
	case r.C.Floor:
		return append(out, "–", "–", "–")
	}
	qc := r.quality(cl) // valid, balance, moves, withheld, …
	return append(out, qc[1], qc[2], qc[3])
}

// writeCompactTable prints the compact table and its legend.
func writeCompactTable(w io.Writer, res *results) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(compactHeader, "\t"))
	for i, cl := range res.Cells {
		if i > 0 && res.Cells[i-1].Shape != cl.Shape {
			fmt.Fprintln(tw, strings.Repeat("\t", len(compactHeader)-1))
		}
		for j, r := range cl.Rows {
			fmt.Fprintln(tw, strings.Join(r.compactCells(cl, j == 0), "\t"))
		}
	}
	tw.Flush()
	if len(res.Scripts) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(compactScriptHeader, "\t"))
		var notes []string // rows without figures, listed under the table
		for _, sr := range res.Scripts {
			cells := sr.cells()
			cells[0], cells[2] = sr.Shape.Short(), sr.C.Key
			if sr.Stats == nil {
				notes = append(notes, strings.Join(cells[:4], " "))
				continue
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		tw.Flush()
		for _, n := range notes {
			fmt.Fprintln(w, n)
		}
	}
	fmt.Fprint(w, legend(res))
}

// legend explains the compact table's shapes and columns in a few lines.
func legend(res *results) string {
	var shapes []string
	var seen []workload.Shape
	for _, cl := range res.Cells {
		if !containsShape(seen, cl.Shape) {
			seen = append(seen, cl.Shape)
			shapes = append(shapes, fmt.Sprintf("%s = %dx%d/%d", cl.Shape.Short(), cl.Shape.Topics, cl.Shape.Partitions, cl.Shape.Members))
		}
	}
	var b strings.Builder
	if len(shapes) > 0 {
		fmt.Fprintf(&b, "\ncell: shape and scenario; shapes (partitions in all = topics x partitions per topic / members): %s.\n", strings.Join(shapes, ", "))
	}
	b.WriteString("median: of the repetitions, each a child process's median timed leader run, bytes in to bytes out.\n")
	b.WriteString("×franz-coop, ×floor: median ÷ franz-go cooperative-sticky's, ÷ the floor's (our codec), same cell. MB/op: allocated.\n")
	b.WriteString("Every plan is valid unless INVALID shows. spread: most − fewest partitions per member; optimal: the least sum of squared loads any plan reaches (computed).\n")
	b.WriteString("moves (min): partitions taken from their owners (least possible). withheld: held back for the follow-up round.\n")
	if len(res.Scripts) > 0 {
		b.WriteString("Scripts: roll restarts every member in turn, scale doubles then halves the group; sums over the rounds.\n")
	}
	b.WriteString("Contenders by key: -list names them. Every column (min, GCs, settled round, racks): -wide.\n")
	return b.String()
}

func containsShape(ss []workload.Shape, s workload.Shape) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
