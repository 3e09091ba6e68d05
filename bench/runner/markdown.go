package runner

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/workload"
)

// mdRow renders one markdown table row, escaping pipes in cols (in place).
func mdRow(cols []string) string {
	for i, c := range cols {
		cols[i] = strings.ReplaceAll(c, "|", `\|`)
	}
	return "| " + strings.Join(cols, " | ") + " |\n"
}

// mdHeader renders a markdown table header of cols.
func mdHeader(cols []string) string {
	sep := make([]string, len(cols))
	for i := range sep {
		sep[i] = "---"
	}
	return mdRow(cols) + "|" + strings.Join(sep, "|") + "|\n"
}

// mdTable renders a markdown table of header and one row per item.
func mdTable[T any](header []string, items []T, cells func(T) []string) string {
	var b strings.Builder
	b.WriteString(mdHeader(slices.Clone(header)))
	for _, it := range items {
		b.WriteString(mdRow(cells(it)))
	}
	return b.String()
}

// markdown renders results.md: the setting, the headline table, every row,
// the scripts, the plots and the definitions.
func markdown(res *results, plots []string) string {
	var b strings.Builder
	b.WriteString("# Benchmark results\n\n")
	fmt.Fprintf(&b, "Produced by `go run ./bench%s` on %s, wall time %s.\n\n", flagsOf(res.Cfg), res.Date.Format("2006-01-02 15:04 MST"), res.Wall.Round(time.Second))
	for _, e := range res.Env {
		fmt.Fprintf(&b, "- %s\n", e)
	}
	b.WriteString("\nTimes are the leader's unit of work, the members' encoded JoinGroup metadata in and the encoded assignments out, each repetition in a fresh process, repetitions interleaved across contenders. Absolute times depend on the machine and on what else ran on it; the ratios in the same cell are what count.\n\n")

	b.WriteString(headlines(res))
	b.WriteString(kafkaSection(res))
	if t := pathTable(res, codecPairings); t != "" {
		b.WriteString("## Secondary: ours through our codec\n\n")
		b.WriteString("Ours with the members' bytes decoded and the assignments encoded by our codec directly (package wire), no client's types in between; the core rows (Assign alone on a decoded group) are in Every contender's time. Targets: at 1k partitions never slower than franz-go, from 10k at most 0.5× its median; cooperative-sticky within 3× of the floor, eager sticky allocating no more than franz-go.\n\n")
		b.WriteString(t)
	}
	if slopes := slopeTable(res); slopes != "" {
		b.WriteString("\n## Growth: log-log slope of the median against partitions\n\n")
		if res.Cfg.growth {
			b.WriteString("Least-squares slope of log(median) over log(partitions) across the growth series (1,000 members subscribed to 100 topics; only the partition count changes, 10k to 1M; 1 = linear). Target: at most 1.15 for our core rows, mixed subscriptions included.\n\n")
		} else {
			b.WriteString("Least-squares slope of log(median) over log(partitions) across the shapes each contender ran (1 = linear). In the default shape series members grow with partitions, so this is the growth over that series, not a controlled sweep; -growth runs the controlled one (1,000 members, only partitions change).\n\n")
		}
		b.WriteString(slopes)
	}

	b.WriteString(qualityReport(res))
	b.WriteString("\n## Every contender's time\n\n")
	b.WriteString(mdHeader(slices.Clone(tableHeader[:len(tableHeader)-len(qualityHeader)])))
	for _, cl := range res.Cells {
		for _, r := range cl.Rows {
			cols := r.cells(cl)
			b.WriteString(mdRow(cols[:len(cols)-len(qualityHeader)]))
		}
	}
	b.WriteString(breakdown(res))
	if len(res.Scripts) > 0 {
		b.WriteString("\n## Multi-round scripts (cooperative contenders, round by round)\n\n")
		b.WriteString("`roll`: every member in turn leaves, then rejoins with a new member ID and nothing owned (two events per member). `scale`: one member, doubled event by event up to the shape's member count, then halved back to one. After each event the group rebalances until no partition is withheld; every member rejoins each round owning what it was given. rounds: rebalances after the initial assignment; moved: partitions revoked from their owner, summed over rounds; withheld: partitions assigned to nobody, summed over rounds.\n\n")
		b.WriteString(mdTable(scriptHeader, res.Scripts, (*scriptRow).cells))
	}
	if len(res.Groups) > 0 {
		b.WriteString("\n## Real groups on an in-process broker (-group)\n\n")
		b.WriteString("The sarama adapter's end-to-end scripts (package bench/internal/e2e): real sarama v1.61.1 or franz-go members on franz-go's kfake (three brokers on 127.0.0.1), records produced throughout. rolling-restart: 4 members over 2 topics of 12 partitions, each restarted in turn; scale-out-in: 1 member, one at a time up to 6, then back to 1. moved: partitions given to another member than the last plan's; unowned partition-s: partition-seconds with no member holding the partition; pause: each member's longest time without a record. Wall-clock figures depend on kfake's timers and the members' session settings.\n\n")
		b.WriteString(mdTable(groupHeader, res.Groups, (*groupRow).cells))
	}
	if bad := invalidPlans(res); len(bad) > 0 {
		b.WriteString("\n## INVALID PLANS\n\n```\n" + strings.Join(bad, "\n") + "\n```\n")
	} else {
		b.WriteString("\nEvery plan produced was valid (assignor.CheckPlan, as the contender's protocol).\n")
	}
	if len(plots) > 0 {
		b.WriteString("\n## Plots\n\n")
		for _, p := range plots {
			fmt.Fprintf(&b, "![%s](plots/%s)\n\n", strings.TrimSuffix(p, ".png"), p)
		}
	}
	b.WriteString(timedSections(res))
	b.WriteString(definitions)
	return b.String()
}

// timedSections renders what each contender of the run times.
func timedSections(res *results) string {
	var cs []contender.Contender
	seen := map[string]bool{}
	for _, cl := range res.Cells {
		for _, r := range cl.Rows {
			if !seen[r.C.Key] {
				seen[r.C.Key] = true
				cs = append(cs, r.C)
			}
		}
	}
	if len(cs) == 0 {
		return ""
	}
	return "\n## What each contender times\n\nEach row's time is its timed section alone; preparing the members' bytes (what each client's members send) and reading the result are untimed.\n\n" +
		mdTable([]string{"key", "contender", "timed section"}, cs, func(c contender.Contender) []string { return []string{"`" + c.Key + "`", c.Name, c.Timed} })
}

const definitions = `
## Columns

- **median, min**: over the repetitions (each a child process) of the child's median timed Lead: after one warm-up Lead (or the history round in join and leave), each child times Leads with testing.Benchmark, each on a fresh runner prepared and after a GC with the timer stopped, as many as fit in 300 ms, one to five (up to 15 while they fit in 30 ms), as a long-running leader would run them.
- **×franz-coop, ×floor**: median ÷ the median of franz-go's cooperative-sticky (without kgo's log strings), or of the floor with our codec ("floor"), in the same shape and scenario; "> cap" rows show the cap ÷ that median.
- **floor**: the work no leader can avoid, with our codec: decode every member's subscription, then encode an assignment decided beforehand (one member per partition, untimed), which means grouping it by member and topic into the lists the encoder takes and writing each member's bytes. Like every other contender, it holds only the members' raw metadata and the topics between Leads, so its Lead meets the garbage collector in the same state.
- **MB/op**: bytes allocated per timed Lead (testing's B/op), median over the repetitions.
- **GCs**: garbage collection cycles that ended during timed Leads, per Lead, median over the repetitions. Each timed Lead starts right after a forced collection, in a process that holds little besides the members' metadata, so a contender that allocates more than that heap's headroom pays for a cycle or two inside its Lead. Up to 10k partitions ours, franz-go's and the floor's rows show none; from 40k on most bytes-in rows show one or more (the floor's too, in most cells), while the core rows, whose process also holds the decoded group and so has more headroom, mostly show none.
- **valid**: assignor.CheckPlan on the decoded assignments, as the contender's protocol; an invalid plan names the partition.
- **balance**: spread = most − fewest partitions per member; "optimal" when the plan's sum of squared loads is the least any complete plan of the group reaches, "NOT optimal (optimum N)" otherwise, N being the least spread possible. The optimum is computed exactly for the group (a min-cost flow over classes of members with the same subscriptions; package bench/internal/measure), never taken from the contenders that ran: with identical subscriptions it is ⌈P/M⌉ or ⌊P/M⌋ partitions per member (spread 0 or 1). "(withholding)" marks a cooperative first round that holds partitions back for the follow-up.
- **moves (fewest)**: partitions a member owned in its contender's previous plan and is not given now, withheld ones included, a departed member's excluded; fewest = the fewest any optimally balanced plan needs from that history (identical subscriptions: each member keeps at most its share, the largest owners the larger shares; one member joining a balanced group of M members owning P partitions needs at least ⌊P/(M+1)⌋).
- **withheld**: cooperative only, subscribed partitions assigned to nobody this round (handed over in the follow-up).
- **after the follow-up**: cooperative only, the follow-up round after every member rejoins owning what it was given: its spread, its extra moves, what it still withholds.
- **rack-local**: racks scenario, the share of partitions given to a member in one of the partition's replica racks (three racks, two replicas per partition).
`

// slopeTable renders, per contender and scenario, the least-squares slope
// of log(median) against log(partitions) over the shapes it ran.
func slopeTable(res *results) string {
	var scenarios []workload.Scenario
	for _, cl := range res.Cells {
		if !slices.Contains(scenarios, cl.Scenario) {
			scenarios = append(scenarios, cl.Scenario)
		}
	}
	head := []string{"contender"}
	for _, sc := range scenarios {
		head = append(head, string(sc))
	}
	var b strings.Builder
	any := false
	for _, c := range res.Cfg.contenders {
		cols := []string{c.Name}
		for _, sc := range scenarios {
			var xs, ys []float64
			for _, cl := range res.Cells {
				if cl.Scenario != sc {
					continue
				}
				if r := find(cl, c.Key); r != nil && r.Median > 0 {
					xs = append(xs, math.Log(float64(cl.Shape.Total())))
					ys = append(ys, math.Log(float64(r.Median)))
				}
			}
			if len(xs) < 2 {
				cols = append(cols, "–")
				continue
			}
			any = true
			cols = append(cols, fmt.Sprintf("%.2f (%d shapes)", slope(xs, ys), len(xs)))
		}
		b.WriteString(mdRow(cols))
	}
	if !any {
		return ""
	}
	return mdHeader(head) + b.String()
}

func slope(xs, ys []float64) float64 {
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= float64(len(xs))
	my /= float64(len(ys))
	var num, den float64
	for i := range xs {
		num += (xs[i] - mx) * (ys[i] - my)
		den += (xs[i] - mx) * (xs[i] - mx)
	}
	if den == 0 {
		return 0
	}
	return num / den
}

func flagsOf(cfg config) string {
	if len(cfg.args) > 0 {
		return " " + strings.Join(cfg.args, " ")
	}
	var f []string
	if cfg.full {
		f = append(f, "-full")
	}
	if cfg.growth {
		f = append(f, "-growth")
	}
	if cfg.group {
		f = append(f, "-group")
	}
	if cfg.reps != 3 && cfg.reps > 0 { // 3 is the default
		f = append(f, fmt.Sprintf("-reps %d", cfg.reps))
	}
	if cfg.out != "" {
		f = append(f, "-out "+cfg.out)
	}
	if len(f) == 0 {
		return ""
	}
	return " " + strings.Join(f, " ")
}

// short renders a row's median, or its status.
func short(r *row) string {
	switch {
	case r == nil:
		return "–"
	case r.Status == statusCapped && r.Median == 0:
		return "> cap"
	case r.Status == statusCapped:
		return dur(r.Median) + ", then > cap"
	case r.Status == statusSkipped:
		return "not run (> cap on a smaller shape)"
	case r.Status == statusNA:
		return "n/a"
	case r.Status == statusError:
		return "ERROR"
	}
	if r.Q != nil && !r.Q.Valid {
		return dur(r.Median) + " INVALID"
	}
	return dur(r.Median)
}
