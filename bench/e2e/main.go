package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/kgroup/assignor/bench/internal/e2e"
	"github.com/kgroup/assignor/bench/internal/machine"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
}

type config struct {
	client string
	runs   int
	timing string
	opts   e2e.Options
	only   []string
}

func parse(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("e2e", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var only string
	var jitter, idle bool
	fs.StringVar(&c.client, "client", "", "sarama (the figures of docs/sarama.md) or franzgo (docs/franzgo.md)")
	fs.IntVar(&c.runs, "runs", 3, "runs of every script with every contender, interleaved")
	fs.StringVar(&c.timing, "timing", "short", "short (the harness's), defaults (each client's own) or HEARTBEAT,SESSION,BACKOFF")
	fs.BoolVar(&jitter, "jitter", false, "start each event at a random point of the heartbeat cycle")
	fs.BoolVar(&idle, "idle", false, "produce no records (rebalances learnt from heartbeats only)")
	fs.StringVar(&only, "only", "", "with -client franzgo: comma-separated script and kind names to keep (default all)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if c.client != "sarama" && c.client != "franzgo" {
		return config{}, fmt.Errorf("-client %q: want sarama or franzgo", c.client)
	}
	if c.runs < 1 {
		return config{}, fmt.Errorf("-runs %d: want at least 1", c.runs)
	}
	switch c.timing {
	case "short":
	case "defaults":
		c.opts = e2e.ClientDefaults()
	default:
		parts := strings.Split(c.timing, ",")
		if len(parts) != 3 {
			return config{}, fmt.Errorf("-timing %q: want short, defaults or HEARTBEAT,SESSION,BACKOFF", c.timing)
		}
		var ds [3]time.Duration
		for i, p := range parts {
			d, err := time.ParseDuration(p)
			if err != nil || d <= 0 {
				return config{}, fmt.Errorf("-timing %q: %q is not a positive duration", c.timing, p)
			}
			ds[i] = d
		}
		c.opts.Heartbeat, c.opts.Session, c.opts.RetryBackoff = ds[0], ds[1], ds[2]
	}
	if jitter {
		c.opts.Jitter = max(c.opts.Heartbeat, c.opts.KgoHeartbeat, 150*time.Millisecond)
	}
	if idle {
		c.opts.Rate = -1
	}
	if only != "" {
		if c.client != "franzgo" {
			return config{}, errors.New("-only: the sarama figures run every script")
		}
		c.only = strings.Split(only, ",")
	}
	return c, nil
}

func run(args []string, stdout, stderr io.Writer) error {
	c, err := parse(args, stderr)
	if err != nil {
		return err
	}
	started := time.Now()
	var broken []string
	progress := func(rep e2e.Report, err error) {
		broken = append(broken, verdict(rep, err)...)
		if err != nil {
			fmt.Fprintf(stderr, "FAILED: %v\n", err)
			return
		}
		fmt.Fprintln(stderr, rep.String())
	}
	var table string
	if c.client == "sarama" {
		table = e2e.Markdown(e2e.DefaultFigures(c.runs, c.opts, progress))
	} else {
		table = e2e.MarkdownSettle(e2e.FranzGoFigures(c.runs, c.opts, c.only, progress))
	}
	fmt.Fprintf(stdout, "go run ./bench/e2e %s\n\n%s; %s, runs of each script with each kind: %d, interleaved; medians; %s timings; %s\n\n%s",
		strings.Join(args, " "), machine.This(), started.UTC().Format("2006-01-02"), c.runs, c.timing, time.Since(started).Round(time.Second), table)
	if len(broken) > 0 {
		return fmt.Errorf("%d runs broke a guarantee:\n  %s", len(broken), strings.Join(broken, "\n  "))
	}
	return nil
}

// verdict lists what a run broke: it failed, two members held a partition
// at once in a generation our assignor planned, or it lost records.
// Overlaps under a peer's plan are the peer's and reported in the table.
func verdict(rep e2e.Report, err error) []string {
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	for _, o := range rep.OverlapsLedBy(e2e.OursLed) {
		out = append(out, fmt.Sprintf("%s/%s: overlap in a generation our assignor planned: %v", rep.Script, rep.Kind, o))
	}
	if rep.Lost != 0 {
		out = append(out, fmt.Sprintf("%s/%s: lost %d records", rep.Script, rep.Kind, rep.Lost))
	}
	return out
}
