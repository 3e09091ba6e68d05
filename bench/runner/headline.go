package runner

import (
	"fmt"
	"strings"
)

// The headline of results.md is the path users run: ours through the
// sarama adapter against sarama's and franz-go's own leaders, and ours
// through the franz-go adapter against kgo's built-in balancers, each
// cooperative-sticky and eager sticky; ours through our codec and the core
// alone come second.

// pairing is one comparison of the headline: ours against the peers' rows
// (by key), with its target.
type pairing struct {
	protocol string
	ours     string
	peers    []string // the first is the reference of ÷ and MB
	// limit is the most ours may take as a multiple of the reference
	// median on a shape of n partitions (0: no target there).
	limit func(n int) float64
	// mbFrom: from this many partitions on, ours may allocate no more
	// than the reference (0: no such target).
	mbFrom int
	// floorLimit is the most ours may take as a multiple of the floor on a
	// shape of n partitions (0: no target).
	floorLimit func(n int) float64
}

func from(n0 int, x float64) func(int) float64 {
	return func(n int) float64 {
		if n >= n0 {
			return x
		}
		return 0
	}
}

var (
	saramaPairings = []pairing{
		{protocol: "cooperative-sticky", ours: "ours-sarama-coop", peers: []string{"franz-coop", "franz-coop-log", "sarama-coop"}, mbFrom: 40_000,
			limit: func(n int) float64 {
				switch {
				case n >= 40_000:
					return 0.35
				case n >= 10_000:
					return 0.5
				}
				return 0
			}},
		{protocol: "sticky (eager)", ours: "ours-sarama-sticky", peers: []string{"franz-sticky", "franz-sticky-log", "sarama-sticky"}, mbFrom: 40_000, limit: from(40_000, 0.75)},
	}
	codecPairings = []pairing{
		{protocol: "cooperative-sticky", ours: "ours-coop", peers: []string{"franz-coop", "franz-coop-log", "sarama-coop"}, limit: peerLimit, floorLimit: from(0, 3)},
		{protocol: "sticky (eager)", ours: "ours-sticky", peers: []string{"franz-sticky", "franz-sticky-log", "sarama-sticky"}, limit: peerLimit, mbFrom: 1},
	}
	franzPairings = []pairing{
		{protocol: "cooperative-sticky", ours: "ours-franz-coop", peers: []string{"franz-coop", "franz-coop-log"}, limit: from(0, 0.2), floorLimit: floorTarget},
		{protocol: "sticky (eager)", ours: "ours-franz-sticky", peers: []string{"franz-sticky", "franz-sticky-log"}, limit: from(0, 0.5), floorLimit: floorTarget},
	}
)

// peerLimit: never slower than franz-go below 10k partitions, half its
// time from 10k.
func peerLimit(n int) float64 {
	if n < 10_000 {
		return 1
	}
	return 0.5
}

// floorTarget: within 3× the floor from 10k partitions, 2× from 100k.
func floorTarget(n int) float64 {
	switch {
	case n >= 100_000:
		return 2
	case n >= 10_000:
		return 3
	}
	return 0
}

var headlineHeader = []string{"shape", "scenario", "protocol", "ours", "franz-go", "franz-go + log strings", "sarama", "ours ÷ franz-go", "ours ÷ franz-go + logs", "ours MB ÷ franz-go MB", "ours ×floor", "target"}

// pathTable renders one user path's table, or "" when the run has none of
// its rows.
func pathTable(res *results, ps []pairing) string {
	var b strings.Builder
	for _, cl := range res.Cells {
		for _, p := range ps {
			ours := find(cl, p.ours)
			if ours == nil {
				continue
			}
			peer := func(i int) *row {
				if i < len(p.peers) {
					return find(cl, p.peers[i])
				}
				return nil
			}
			ref, logged := peer(0), peer(1)
			var sarama *row
			for _, k := range p.peers {
				if strings.HasPrefix(k, "sarama") {
					sarama = find(cl, k)
				}
			}
			x, _ := divide(ours, ref)
			xLog, _ := divide(ours, logged)
			mb := allocRatio(ours, ref)
			b.WriteString(mdRow([]string{cl.Shape.String(), string(cl.Scenario), p.protocol, short(ours), short(ref), short(logged), short(sarama),
				x, xLog, ratio(mb), ratio(ours.XFloor), p.verdict(cl, ours, ref)}))
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return mdHeader(headlineHeader) + b.String()
}

// divide renders a's median over b's, or over b's cap ("<") when b was
// capped, and returns it (0 when unknown).
func divide(a, b *row) (string, float64) {
	switch {
	case a == nil || b == nil || a.Median == 0:
		return "–", 0
	case b.Status == statusCapped && b.Cap > 0:
		x := float64(a.Median) / float64(b.Cap)
		return fmt.Sprintf("< %.2g", x), x
	case b.Status != statusOK || b.Median == 0:
		return "–", 0
	}
	x := float64(a.Median) / float64(b.Median)
	return ratio(x), x
}

// allocRatio is a's median allocated bytes over b's, 0 when unknown.
func allocRatio(a, b *row) float64 {
	if a == nil || b == nil || b.Status != statusOK || a.AllocMed == 0 || b.AllocMed == 0 {
		return 0
	}
	return float64(a.AllocMed) / float64(b.AllocMed)
}

// verdict says whether ours meets p's targets in cell cl against ref
// (timed without kgo's log strings, the stricter comparison).
func (p pairing) verdict(cl *cell, ours, ref *row) string {
	n := cl.Shape.Total()
	limit, floor := p.limit(n), 0.0
	if p.floorLimit != nil {
		floor = p.floorLimit(n)
	}
	mbTarget := p.mbFrom > 0 && n >= p.mbFrom
	if limit == 0 && floor == 0 && !mbTarget {
		return "–"
	}
	if ours.Median == 0 {
		return "–"
	}
	var missed []string
	if _, x := divide(ours, ref); limit > 0 && x > limit {
		missed = append(missed, fmt.Sprintf("÷franz-go %.2f > %.2g", x, limit))
	}
	if m := allocRatio(ours, ref); mbTarget && m > 1 {
		missed = append(missed, fmt.Sprintf("MB %.2f× franz-go's", m))
	}
	if floor > 0 && ours.XFloor > floor {
		missed = append(missed, fmt.Sprintf("×floor %.1f > %.0f", ours.XFloor, floor))
	}
	if len(missed) == 0 {
		return "met"
	}
	return "missed: " + strings.Join(missed, "; ")
}

// headlines renders the headline sections of results.md.
func headlines(res *results) string {
	var b strings.Builder
	b.WriteString("## Headline: the path users run\n\n")
	b.WriteString("A sarama application's leader runs our assignor through the sarama adapter, inside sarama's own leader code; a franz-go application's, through the franz-go adapter, inside kgo's. Each is compared with the peers' own leaders on the inputs their members really send, every time from the members' encoded JoinGroup metadata to the encoded assignments (see \"What each contender times\" below). franz-go is timed both without and with the log strings kgo's leader builds for its built-in balancers whatever the log level; the ratios and targets use the faster, without. Shapes are `topics x partitions per topic / members (total partitions)`; members grow with partitions across the shapes.\n\n")
	if t := pathTable(res, saramaPairings); t != "" {
		b.WriteString("### sarama users: ours via the sarama adapter\n\n")
		b.WriteString("Targets: cooperative-sticky at most 0.5× franz-go's at 10k partitions and 0.35× from 40k; eager sticky at most 0.75× franz-go's from 40k; from 40k, allocated bytes no more than franz-go's.\n\n")
		b.WriteString(t + "\n")
	}
	if t := pathTable(res, franzPairings); t != "" {
		b.WriteString("### franz-go users: ours via the franz-go adapter\n\n")
		b.WriteString("Targets: cooperative-sticky at most 0.2× kgo's, eager sticky at most 0.5× kgo's sticky; within 3× the floor from 10k partitions and 2× from 100k.\n\n")
		b.WriteString(t + "\n")
	}
	if t := floorTable(res); t != "" {
		b.WriteString("### Floors\n\n")
		b.WriteString("The floor is the fastest known way to do the work no leader avoids: decode every subscription, encode every assignment (decided beforehand), no assignment logic. With our codec (package wire, which never aliases its input) and with kmsg: `ReadFrom` copies as wire does; `UnsafeReadFrom` points the decoded strings into the input bytes, so the caller must keep those unchanged. **×floor uses the floor with our codec.**\n\n")
		b.WriteString(t + "\n")
	}
	return b.String()
}

// floorTable renders the floors side by side.
func floorTable(res *results) string {
	var b strings.Builder
	for _, cl := range res.Cells {
		w, k, u := find(cl, floorKey), find(cl, "floor-kmsg"), find(cl, "floor-kmsg-unsafe")
		if w == nil || (k == nil && u == nil) {
			continue
		}
		xk, _ := divide(k, w)
		xu, _ := divide(u, w)
		b.WriteString(mdRow([]string{cl.Shape.String(), string(cl.Scenario), short(w), short(k), short(u), xk, xu}))
	}
	if b.Len() == 0 {
		return ""
	}
	return mdHeader([]string{"shape", "scenario", "floor, our codec", "kmsg ReadFrom", "kmsg UnsafeReadFrom (aliases)", "ReadFrom ÷ ours", "UnsafeReadFrom ÷ ours"}) + b.String()
}
