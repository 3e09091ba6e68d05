package e2e

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Row is the medians of one script run with one kind, over several runs.
type Row struct {
	Script, Kind string
	Runs         int
	Failed       int // runs that returned an error (left out of the medians)

	Duplicates, Rebalances, Moved, Withheld, Lost float64
	UnownedSeconds                                float64
	// MedianPause is the median over runs of the median member's longest
	// pause; MaxPause the median over runs of the largest.
	MedianPause, MaxPause time.Duration
	// MedianSettle is the median over runs of each run's median settle time
	// per event, MaxSettle the median over runs of each run's largest.
	MedianSettle, MaxSettle time.Duration
	Overlaps                float64
	Errors                  []string
}

// figures runs each script with each kind runs times, interleaved (run 1 of
// every kind, then run 2, …) so that machine noise spreads evenly, and
// returns one row of medians per script and kind. Scripts that are not
// Single run only with the kinds their Run accepts (every kind given is
// tried; a script returns an error for a kind it cannot run). progress, if
// set, sees each run's report.
func figures(scripts []Script, kinds []Kind, runs int, opts Options, progress func(Report, error)) []Row {
	type key struct{ script, kind string }
	reports := map[key][]Report{}
	failed := map[key][]string{}
	for run := 0; run < runs; run++ {
		for _, s := range scripts {
			for _, k := range kinds {
				o := opts
				o.Group = fmt.Sprintf("figures-%s-%s-%d", s.Name, k.Name, run)
				rep, err := RunScript(s, k, o, 30*time.Second)
				if progress != nil {
					progress(rep, err)
				}
				kk := key{s.Name, k.Name}
				if err != nil {
					failed[kk] = append(failed[kk], err.Error())
					continue
				}
				reports[kk] = append(reports[kk], rep)
			}
		}
	}
	var rows []Row
	for _, s := range scripts {
		for _, k := range kinds {
			kk := key{s.Name, k.Name}
			rs := reports[kk]
			row := Row{Script: s.Name, Kind: k.Name, Runs: len(rs), Failed: len(failed[kk]), Errors: failed[kk]}
			med := func(f func(Report) float64) float64 {
				vs := make([]float64, len(rs))
				for i, r := range rs {
					vs[i] = f(r)
				}
				return medianFloat(vs)
			}
			row.Duplicates = med(func(r Report) float64 { return float64(r.Duplicates) })
			row.Rebalances = med(func(r Report) float64 { return float64(r.Rebalances) })
			row.Moved = med(func(r Report) float64 { return float64(r.Moved) })
			row.Withheld = med(func(r Report) float64 { return float64(r.Withheld) })
			row.Lost = med(func(r Report) float64 { return float64(r.Lost) })
			row.Overlaps = med(func(r Report) float64 { return float64(len(r.Overlaps)) })
			row.UnownedSeconds = med(func(r Report) float64 { return r.UnownedSeconds })
			row.MedianPause = time.Duration(med(func(r Report) float64 { return float64(r.MedianPause()) }))
			row.MaxPause = time.Duration(med(func(r Report) float64 { return float64(r.MaxPause()) }))
			row.MedianSettle = time.Duration(med(func(r Report) float64 { return float64(r.MedianSettle()) }))
			row.MaxSettle = time.Duration(med(func(r Report) float64 { return float64(r.MaxSettle()) }))
			rows = append(rows, row)
		}
	}
	return rows
}

func medianFloat(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	slices.Sort(vs)
	if len(vs)%2 == 1 {
		return vs[len(vs)/2]
	}
	return (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
}

// Markdown renders rows as a Markdown table.
func Markdown(rows []Row) string {
	var b strings.Builder
	b.WriteString("| script | kind | runs | overlaps | duplicates | lost | rebalances | moved | withheld | unowned partition-s | pause (median member) | pause (worst member) |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		runs := fmt.Sprint(r.Runs)
		if r.Failed > 0 {
			runs += fmt.Sprintf(" (+%d failed)", r.Failed)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %g | %g | %g | %g | %g | %g | %.1f | %v | %v |\n",
			r.Script, r.Kind, runs, r.Overlaps, r.Duplicates, r.Lost, r.Rebalances, r.Moved, r.Withheld, r.UnownedSeconds,
			r.MedianPause.Round(time.Millisecond), r.MaxPause.Round(time.Millisecond))
	}
	return b.String()
}

// DefaultFigures runs the figures of docs/sarama.md: every single-kind
// script with Ours, sarama's cooperative-sticky and sarama's eager sticky;
// the migration to Ours and to sarama's cooperative-sticky; the mixed group
// with Ours; runs times each.
func DefaultFigures(runs int, opts Options, progress func(Report, error)) []Row {
	var single, migrate, mixed []Script
	for _, s := range Scripts {
		switch {
		case s.Single:
			single = append(single, s)
		case s.Name == "migrate-from-eager":
			migrate = append(migrate, s)
		case s.Name == "mixed":
			mixed = append(mixed, s)
		}
	}
	rows := figures(single, []Kind{Ours, SaramaCooperativeSticky, SaramaSticky}, runs, opts, progress)
	rows = append(rows, figures(migrate, []Kind{Ours, SaramaCooperativeSticky}, runs, opts, progress)...)
	return append(rows, figures(mixed, []Kind{Ours}, runs, opts, progress)...)
}
