package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kgroup/assignor/bench/internal/e2e"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "kip848:", err)
		os.Exit(1)
	}
}

type config struct {
	broker         string
	timings        []e2e.Timing
	runs           int
	scripts, kinds []string
	out, render    string
	kafkaScript    string
	interval       time.Duration
}

func parse(args []string) (config, error) {
	fs := flag.NewFlagSet("kip848", flag.ContinueOnError)
	var c config
	var timings, scripts, kinds string
	fs.StringVar(&c.broker, "broker", "kfake", "kfake (in-process, fresh per run) or kafka (Apache Kafka 4.4 started with -kafka-sh)")
	fs.StringVar(&timings, "timings", "short", "comma-separated: short, defaults")
	fs.IntVar(&c.runs, "runs", 5, "runs of every script with every contender, interleaved")
	fs.StringVar(&scripts, "scripts", "", "comma-separated script names (default every one of e2e.KIP848Scripts)")
	fs.StringVar(&kinds, "kinds", "", "comma-separated contender names (default every one of e2e.KIP848Kinds)")
	fs.StringVar(&c.out, "out", "docs/kip848", "directory for <broker>-<timing>.json and results.md (empty: print the table only)")
	fs.StringVar(&c.render, "render", "", "render DIR/results.md from DIR/*.json without running")
	fs.DurationVar(&c.interval, "assignment-interval", 0, "with -broker kafka: the consumer groups' consumer.assignment.interval.ms (0: the broker's default, 1s; negative: 0)")
	fs.StringVar(&c.kafkaScript, "kafka-sh", "bench/interop/kafka.sh", "the script that starts and stops Apache Kafka")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if c.broker != "kfake" && c.broker != "kafka" {
		return config{}, fmt.Errorf("-broker %q: want kfake or kafka", c.broker)
	}
	for _, t := range split(timings) {
		if t != string(e2e.Short) && t != string(e2e.Defaults) {
			return config{}, fmt.Errorf("-timings: unknown timing %q", t)
		}
		c.timings = append(c.timings, e2e.Timing(t))
	}
	if c.runs < 1 {
		return config{}, fmt.Errorf("-runs %d: want at least 1", c.runs)
	}
	c.scripts, c.kinds = split(scripts), split(kinds)
	return c, nil
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func run(args []string) error {
	c, err := parse(args)
	if err != nil {
		return err
	}
	if c.render != "" {
		return render(c.render)
	}
	scripts, err := pick(e2e.KIP848Scripts, c.scripts, func(s e2e.Script) string { return s.Name })
	if err != nil {
		return err
	}
	kinds, err := pick(e2e.KIP848Kinds, c.kinds, func(k e2e.Kind) string { return k.Name })
	if err != nil {
		return err
	}
	broker, label := []string(nil), "kfake"
	if c.broker == "kafka" {
		addr, stop, err := startKafka(c.kafkaScript)
		if err != nil {
			return err
		}
		defer stop()
		broker, label = []string{addr}, "Apache Kafka 4.4.0"
		if c.interval != 0 {
			label += fmt.Sprintf(", consumer.assignment.interval.ms=%d", max(0, c.interval.Milliseconds()))
		}
	}
	for _, t := range c.timings {
		var runs []e2e.Run
		for r := range c.runs {
			for _, s := range scripts {
				for _, k := range kinds {
					group := ""
					if broker != nil {
						group = fmt.Sprintf("kip848-%s-%s-%s-%d-%d", t, s.Name, k.Name, r, time.Now().UnixNano())
					}
					start := time.Now()
					rep, err := e2e.RunKIP848(s, k, t, e2e.Target{Brokers: broker, Group: group, AssignmentInterval: c.interval})
					run := e2e.RunOf(label, t, rep, err)
					run.Script, run.Kind = s.Name, k.Name
					runs = append(runs, run)
					fmt.Fprintf(os.Stderr, "%s %s run %d/%d %s %s: %s (%v)\n", label, t, r+1, c.runs, s.Name, k.Name, summary(run), time.Since(start).Round(time.Second))
				}
			}
		}
		if c.out == "" {
			fmt.Print(e2e.MarkdownKIP848(e2e.SummarizeKIP848(runs)))
			continue
		}
		name := fmt.Sprintf("%s-%s", c.broker, t)
		if c.interval != 0 {
			name += fmt.Sprintf("-interval%d", max(0, c.interval.Milliseconds()))
		}
		if err := save(filepath.Join(c.out, name+".json"), runs); err != nil {
			return err
		}
	}
	if c.out == "" {
		return nil
	}
	return render(c.out)
}

func summary(r e2e.Run) string {
	if r.Err != "" {
		return "FAILED: " + r.Err
	}
	return fmt.Sprintf("settle %.2fs over %d events, unowned %.1f p-s, paused %d, pause %.2fs, overlaps %d, lost %d, duplicates %d, consumer group %v",
		r.SettleMedian.Seconds(), r.Events, r.Unowned, r.Paused, r.LongestPause.Seconds(), r.Overlaps, r.Lost, r.Duplicates, r.ConsumerGroup)
}

// pick keeps the elements named in only (every one when only is empty),
// in xs's order; a name that matches none is an error.
func pick[T any](xs []T, only []string, name func(T) string) ([]T, error) {
	if len(only) == 0 {
		return xs, nil
	}
	var out []T
	for _, n := range only {
		i := slices.IndexFunc(xs, func(x T) bool { return name(x) == n })
		if i < 0 {
			return nil, fmt.Errorf("unknown name %q", n)
		}
		out = append(out, xs[i])
	}
	slices.SortFunc(out, func(a, b T) int {
		return slices.IndexFunc(xs, func(x T) bool { return name(x) == name(a) }) - slices.IndexFunc(xs, func(x T) bool { return name(x) == name(b) })
	})
	return out, nil
}

// save writes runs to path, keeping the runs already there of every script
// and kind pair that runs does not have (a run of some contenders replaces
// only theirs).
func save(path string, runs []e2e.Run) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	type pair struct{ script, kind string }
	fresh := map[pair]bool{}
	for _, r := range runs {
		fresh[pair{r.Script, r.Kind}] = true
	}
	var all []e2e.Run
	if old, err := os.ReadFile(path); err == nil {
		var kept []e2e.Run
		if err := json.Unmarshal(old, &kept); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		for _, r := range kept {
			if !fresh[pair{r.Script, r.Kind}] {
				all = append(all, r)
			}
		}
	}
	all = append(all, runs...)
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// render writes dir/results.md from every dir/*.json, kfake's before
// Kafka's, short timings before defaults.
func render(dir string) error {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	order := func(p string) int {
		base := filepath.Base(p)
		n := 0
		if strings.HasPrefix(base, "kafka-") {
			n += 2
		}
		if strings.Contains(base, "-defaults") {
			n++
		}
		if strings.Contains(base, "-interval") {
			n += 4
		}
		return n
	}
	slices.SortFunc(paths, func(a, b string) int { return order(a) - order(b) })
	var all []e2e.Run
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var runs []e2e.Run
		if err := json.Unmarshal(b, &runs); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		// Scripts and contenders in their lists' order, whichever run
		// measured them.
		slices.SortStableFunc(runs, func(a, b e2e.Run) int {
			return cmp.Or(cmp.Compare(scriptIndex(a.Script), scriptIndex(b.Script)), cmp.Compare(kindIndex(a.Kind), kindIndex(b.Kind)))
		})
		all = append(all, runs...)
	}
	if len(all) == 0 {
		return fmt.Errorf("no runs in %s/*.json", dir)
	}
	var b strings.Builder
	b.WriteString("<!-- Generated by go run ./bench/kip848 (see its doc); do not edit. -->\n\n")
	b.WriteString("### In-group figures: KIP-848 beside classic\n\n")
	b.WriteString("Medians over runs, the range (min–max) in brackets where runs differ; overlaps, lost and duplicates summed over runs. ")
	b.WriteString("kfake's figures come from kfake's own simplified `uniform` assignor and group coordinator, not Kafka's; ")
	b.WriteString("Apache Kafka 4.4.0's from a single-node broker on the same machine.\n\n")
	rows := e2e.SummarizeKIP848(all)
	b.WriteString(e2e.MarkdownKIP848(rows))
	b.WriteString("\n### Against issue 25's targets\n\n")
	b.WriteString("Ours on franz-go (ours-kgo) against kgo's eager sticky (kgo-sticky) and kgo on the consumer protocol (kgo-848), lower is better: ")
	b.WriteString("*better* when every run of ours beat every run of the peer, *worse* when every run of the peer beat every run of ours (with the ratio of the medians), ")
	b.WriteString("otherwise *within spread* (no worse); medians shown.\n\n")
	b.WriteString(e2e.MarkdownKIP848Targets(rows))
	return os.WriteFile(filepath.Join(dir, "results.md"), []byte(b.String()), 0o644)
}

func scriptIndex(name string) int {
	return slices.IndexFunc(e2e.KIP848Scripts, func(s e2e.Script) bool { return s.Name == name })
}

func kindIndex(name string) int {
	return slices.IndexFunc(e2e.KIP848Kinds, func(k e2e.Kind) bool { return k.Name == name })
}

// startKafka starts Apache Kafka with script (kafka.sh start DIR) and
// returns its address and a function that stops it.
func startKafka(script string) (string, func(), error) {
	dir, err := os.MkdirTemp("", "kip848-kafka-")
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(script, "start", dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", nil, fmt.Errorf("%s start: %w", script, err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	addr := ""
	for sc.Scan() {
		addr = strings.TrimSpace(sc.Text())
	}
	if addr == "" {
		return "", nil, errors.New(script + " start printed no address")
	}
	stop := func() {
		if err := exec.Command(script, "stop", dir).Run(); err != nil {
			fmt.Fprintf(os.Stderr, "kip848: %s stop %s: %v\n", script, dir, err)
		}
	}
	return addr, stop, nil
}
