package runner

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/kgroup/assignor/workload"
)

// The README's headline block, between these markers, is written from a
// run by -readme FILE, so that the figures people quote are those of the
// committed run.
const (
	readmeBegin = "<!-- bench:headline: written by go run ./bench -readme README.md (with -out or -render); edits inside are overwritten -->"
	readmeEnd   = "<!-- /bench:headline -->"
)

// readmeScenarios are the scenarios the README shows; results.md has all.
var readmeScenarios = []workload.Scenario{workload.Join, workload.Mixed}

// brief renders a row's median, or a short status: the README's cells.
func brief(r *row) string {
	switch {
	case r == nil:
		return "–"
	case r.Status == statusCapped || r.Status == statusSkipped:
		return "> cap"
	}
	return short(r)
}

// withLogs renders a franz-go row's median with the log-string row's in
// parentheses.
func withLogs(r, logged *row) string {
	if logged == nil || logged.Median == 0 {
		return brief(r)
	}
	return brief(r) + " (" + brief(logged) + ")"
}

// readmeBlock renders the headline block: the sarama path, the franz-go
// path, and ours alone.
func readmeBlock(res *results) string {
	var sar, fr, alone strings.Builder
	for _, cl := range res.Cells {
		if !slices.Contains(readmeScenarios, cl.Scenario) {
			continue
		}
		head := []string{cl.Shape.String(), string(cl.Scenario)}
		fc, fcl, fs, fsl := find(cl, "franz-coop"), find(cl, "franz-coop-log"), find(cl, "franz-sticky"), find(cl, "franz-sticky-log")
		if coop, stick := find(cl, "ours-sarama-coop"), find(cl, "ours-sarama-sticky"); coop != nil || stick != nil {
			xc, _ := divide(coop, fc)
			xs, _ := divide(stick, fs)
			sar.WriteString(mdRow(append(slices.Clone(head), brief(coop), brief(find(cl, "sarama-coop")), withLogs(fc, fcl), xc, brief(stick), brief(find(cl, "sarama-sticky")), withLogs(fs, fsl), xs)))
		}
		if coop, stick := find(cl, "ours-franz-coop"), find(cl, "ours-franz-sticky"); coop != nil || stick != nil {
			xc, _ := divide(coop, fc)
			xs, _ := divide(stick, fs)
			floor := find(cl, floorKey)
			fr.WriteString(mdRow(append(slices.Clone(head), brief(coop), withLogs(fc, fcl), xc, brief(stick), withLogs(fs, fsl), xs, brief(floor))))
		}
		if codec, core := find(cl, "ours-coop"), find(cl, "ours-coop-core"); codec != nil || core != nil {
			xc, _ := divide(codec, fc)
			xk, _ := divide(core, fc)
			alone.WriteString(mdRow(append(slices.Clone(head), brief(codec), brief(core), brief(fc), xc, xk)))
		}
	}
	var b strings.Builder
	b.WriteString(readmeBegin + "\n\n")
	fmt.Fprintf(&b, "From `go run ./bench%s` (%s, on %s; medians of each contender's runs in separate processes, interleaved). Each time is a leader's whole unit of work as that client's leader runs it: the members' encoded JoinGroup metadata in, the encoded assignments out. Shapes: `topics x partitions per topic / members (total partitions)`. *join*: one member joins a balanced group; *mixed*: odd members subscribe to half the topics. franz-go's times in parentheses include the log strings kgo's leader builds for its built-in balancers at any log level; the ratios use the times without.\n\n", readmeFlags(res.Cfg), res.Date.Format("2006-01-02"), res.machine())
	if sar.Len() > 0 {
		b.WriteString("**sarama users**: ours through the sarama adapter, inside sarama's leader code, against sarama's own strategies and franz-go's.\n\n")
		b.WriteString(mdHeader([]string{"shape", "scenario", "ours coop-sticky", "sarama coop-sticky", "franz-go coop-sticky", "ours ÷ franz-go", "ours sticky", "sarama sticky", "franz-go sticky", "ours ÷ franz-go"}))
		b.WriteString(sar.String() + "\n")
	}
	if fr.Len() > 0 {
		b.WriteString("**franz-go users**: ours through the franz-go adapter, inside kgo's leader code, against kgo's built-in balancers; the floor decodes and encodes the same bytes with no assignment logic.\n\n")
		b.WriteString(mdHeader([]string{"shape", "scenario", "ours coop-sticky", "kgo coop-sticky", "ours ÷ kgo", "ours sticky", "kgo sticky", "ours ÷ kgo", "floor"}))
		b.WriteString(fr.String() + "\n")
	}
	if alone.Len() > 0 {
		b.WriteString("Ours alone, cooperative-sticky: through our codec with no client's types in between, and the core (`Assign` on a decoded group).\n\n")
		b.WriteString(mdHeader([]string{"shape", "scenario", "ours, our codec", "ours, core", "franz-go", "codec ÷ franz-go", "core ÷ franz-go"}))
		b.WriteString(alone.String() + "\n")
	}
	b.WriteString(readmeEnd)
	return b.String()
}

// machine is the computer the results were measured on; for results saved
// before they named it, what their setting lines say.
func (res *results) machine() string {
	if res.Machine != "" {
		return res.Machine
	}
	if len(res.Env) >= 2 && strings.Contains(res.Env[0], " CPUs") {
		// "go1.26.8 linux/amd64, 2 CPUs (GOMAXPROCS 2); …", then the model.
		goVersion, cpus, _ := strings.Cut(res.Env[0], ", ")
		cpus, _, _ = strings.Cut(cpus, " (")
		return res.Env[1] + ", " + cpus + ", " + goVersion
	}
	return "a machine the results do not name"
}

// readmeFlags is the run's command line, with -out naming the
// repository's docs directory (a run written or rendered elsewhere and
// copied there names where it was written).
func readmeFlags(cfg config) string {
	args := slices.Clone(cfg.args)
	for i, a := range args {
		switch {
		case (a == "-out" || a == "--out") && i+1 < len(args):
			args[i+1] = "docs"
		case strings.HasPrefix(a, "-out=") || strings.HasPrefix(a, "--out="):
			args[i] = "-out=docs"
		}
	}
	cfg.args = args
	if cfg.out != "" {
		cfg.out = "docs"
	}
	return flagsOf(cfg)
}

// updateReadme replaces the headline block of the file at path with res's.
// It fails, changing nothing, when the file lacks either marker.
func updateReadme(path string, res *results) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("bench: -readme: %w", err)
	}
	i := bytes.Index(old, []byte(readmeBegin))
	j := bytes.Index(old, []byte(readmeEnd))
	if i < 0 || j < i {
		return fmt.Errorf("bench: -readme %s: no headline block (a line %q, then a line %q)", path, readmeBegin, readmeEnd)
	}
	var out bytes.Buffer
	out.Write(old[:i])
	out.WriteString(readmeBlock(res))
	out.Write(old[j+len(readmeEnd):])
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		return fmt.Errorf("bench: -readme: %w", err)
	}
	return nil
}
