package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/kgroup/assignor/workload"
)

func main() { os.Exit(cli(os.Args[1:], os.Stdout, os.Stderr)) }

// cli runs the command line and returns the exit status: 0, 1 for a
// failure, 2 for a bad command line.
func cli(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("weighted", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "the 1k-partition shapes only, one timed Lead each (CI smoke, under 20 s)")
	seed := fs.Uint64("seed", workload.DefaultSeed, "workload seed")
	out := fs.String("out", "docs/weighted-results.md", "markdown results page (empty: none)")
	plotPath := fs.String("plot", "docs/plots/weighted-ratio.png", "plot of the heaviest-load ratio (empty: none)")
	maxTotal := fs.Int("max-partitions", 0, "skip shapes above this many partitions (0: every shape)")
	real := fs.Bool("real", false, "run the real-group experiment on kfake instead (about 2 minutes)")
	realPlotPath := fs.String("real-plot", "docs/plots/weighted-real.png", "with -real: plot of lag and throughput")
	realFor := fs.Duration("real-duration", defaultReal().Duration, "with -real: traffic time")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *real {
		return runRealCLI(*out, *realPlotPath, *realFor, stdout, stderr)
	}
	shapes, b := workload.SkewShapes(), budget{reps: 5, spent: 2 * time.Second}
	if *quick {
		shapes, b = shapes[:2], budget{reps: 1, quick: true}
	}
	es := entrants()
	start := time.Now()
	var cells []cell
	for _, sh := range shapes {
		if *maxTotal > 0 && sh.Total() > *maxTotal {
			continue
		}
		for _, ld := range loads() {
			c, err := runCell(ld, sh, es, b, *seed)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return 1
			}
			cells = append(cells, c)
			printCell(stdout, c)
		}
	}
	mode := "full"
	switch {
	case *quick:
		mode = "-quick"
	case *maxTotal > 0:
		mode = fmt.Sprintf("-max-partitions %d", *maxTotal)
	}
	header := fmt.Sprintf("Mode %s, seed %d, %s, GOMAXPROCS %d; wall time %s. Times are from a machine shared with other work: read the ratios, not the absolute times.",
		mode, *seed, runtime.Version(), runtime.GOMAXPROCS(0), time.Since(start).Round(time.Second))
	if *out != "" {
		section := keepReal(*out)
		if err := writeFile(*out, func(w io.Writer) error {
			if err := writeMarkdown(w, cells, es, header); err != nil {
				return err
			}
			_, err := io.WriteString(w, section)
			return err
		}); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	if *plotPath != "" {
		if err := ratioPlot(cells, es, *plotPath); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "done in %s\n", time.Since(start).Round(time.Millisecond))
	return 0
}

func printCell(w io.Writer, c cell) {
	for _, r := range c.Rows {
		if r.Skipped != "" {
			continue
		}
		fmt.Fprintf(w, "%-12s %-24v %-18s fresh %.3f join %.3f moves %6d (%.1f%% weight) fresh %s join %s\n",
			c.Load.Name, c.Shape, r.Name, r.Fresh.Ratio, r.Join.Ratio, r.Moves,
			100*ratio(float64(r.MovedWeight), float64(r.Total)), dur(r.Fresh.Median), dur(r.Join.Median))
	}
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// runRealCLI runs the real-group experiment and writes its section of the
// results page at out and its plot.
func runRealCLI(out, plotPath string, d time.Duration, stdout, stderr io.Writer) int {
	cfg := defaultReal()
	cfg.Duration = d
	rs, err := runReal(cfg, func(f string, a ...any) { fmt.Fprintf(stdout, f+"\n", a...) })
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	for _, r := range rs {
		fmt.Fprintf(stdout, "%s: load %.2f, peak lag %d, final lag %d, overlaps %d, lost %d, duplicates %d\n",
			r.Name, maxOf(r.Load), maxOf(r.PeakLag), maxOf(r.FinalLag), len(r.Overlaps), r.Lost, r.Dups)
	}
	if plotPath != "" {
		if err := realPlot(rs, plotPath); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	if out != "" {
		rel := plotPath
		if i := strings.Index(rel, "plots/"); i >= 0 {
			rel = rel[i:]
		}
		if err := replaceReal(out, realMarkdown(cfg, rs, rel)); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	return 0
}
