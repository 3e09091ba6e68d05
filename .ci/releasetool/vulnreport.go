package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// govulncheck -format json writes a stream of messages; a finding's trace
// starts at the vulnerable symbol (or package, or module, for findings the
// code does not reach) and ends in the scanned code.
type vulnMessage struct {
	Config *struct {
		ScannerVersion string `json:"scanner_version"`
		DB             string `json:"db"`
		GoVersion      string `json:"go_version"`
	} `json:"config"`
	OSV *struct {
		ID      string `json:"id"`
		Summary string `json:"summary"`
	} `json:"osv"`
	Finding *struct {
		OSV          string      `json:"osv"`
		FixedVersion string      `json:"fixed_version"`
		Trace        []vulnFrame `json:"trace"`
	} `json:"finding"`
}

type vulnFrame struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Package  string `json:"package"`
	Function string `json:"function"`
	Receiver string `json:"receiver"`
	Position *struct {
		Filename string `json:"filename"`
		Line     int    `json:"line"`
		Column   int    `json:"column"`
	} `json:"position"`
}

// vulnFinding is one vulnerability in one module, at the most precise
// level govulncheck found it: called (a trace from the code to the
// vulnerable function), imported (a vulnerable package is imported, its
// function not reached) or required (only the module is in the graph).
type vulnFinding struct {
	ID, Summary     string
	Module, Version string
	Fixed           string
	Level           string // "called", "imported", "required"
	Trace           string // for called: one example, code first
}

var levels = map[string]int{"required": 0, "imported": 1, "called": 2}

// readVulnFindings reads a govulncheck JSON stream and returns its
// findings, one per vulnerability and module at the highest level, sorted
// by level (called first), module and ID, and the Go version scanned.
func readVulnFindings(r io.Reader) ([]vulnFinding, string, error) {
	dec := json.NewDecoder(r)
	summaries := map[string]string{}
	byKey := map[string]*vulnFinding{}
	goVersion := ""
	for {
		var m vulnMessage
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, "", fmt.Errorf("vulnreport: reading govulncheck's JSON: %w", err)
		}
		if m.Config != nil {
			goVersion = m.Config.GoVersion
		}
		if m.OSV != nil {
			summaries[m.OSV.ID] = m.OSV.Summary
		}
		if m.Finding == nil || len(m.Finding.Trace) == 0 {
			continue
		}
		sink := m.Finding.Trace[0]
		f := vulnFinding{ID: m.Finding.OSV, Module: sink.Module, Version: sink.Version, Fixed: m.Finding.FixedVersion, Level: "required"}
		switch {
		case sink.Function != "":
			f.Level, f.Trace = "called", traceString(m.Finding.Trace)
		case sink.Package != "":
			f.Level = "imported"
		}
		key := f.ID + " " + f.Module
		if old, ok := byKey[key]; !ok || levels[f.Level] > levels[old.Level] {
			byKey[key] = &f
		}
	}
	var out []vulnFinding
	for _, f := range byKey {
		f.Summary = summaries[f.ID]
		out = append(out, *f)
	}
	slices.SortFunc(out, func(a, b vulnFinding) int {
		if c := levels[b.Level] - levels[a.Level]; c != 0 {
			return c
		}
		if c := strings.Compare(a.Module, b.Module); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, goVersion, nil
}

// traceString renders a trace from the scanned code's entry to the
// vulnerable function: "cli/plot.go:57: cli.plotWhatIf -> ... -> sfnt.Font.Kern".
func traceString(trace []vulnFrame) string {
	name := func(f vulnFrame) string {
		pkg := f.Package[strings.LastIndex(f.Package, "/")+1:]
		if f.Receiver != "" {
			return pkg + "." + strings.TrimPrefix(f.Receiver, "*") + "." + f.Function
		}
		return pkg + "." + f.Function
	}
	entry := trace[len(trace)-1]
	where := ""
	if entry.Position != nil {
		where = fmt.Sprintf("%s:%d: ", entry.Position.Filename, entry.Position.Line)
	}
	if len(trace) == 1 {
		return where + name(entry)
	}
	if len(trace) == 2 {
		return where + name(entry) + " -> " + name(trace[0])
	}
	return where + name(entry) + " -> " + name(trace[len(trace)-2]) + " -> ... -> " + name(trace[0])
}

func runVulnReport(args []string) error {
	fs := flag.NewFlagSet("vulnreport", flag.ContinueOnError)
	label := fs.String("label", "", "the module scanned, for the report's lines")
	strictStd := fs.Bool("fail-stdlib", false, "fail on called vulnerabilities of the standard library too")
	if err := fs.Parse(args); err != nil {
		return err
	}
	findings, goVersion, err := readVulnFindings(os.Stdin)
	if err != nil {
		return err
	}
	return vulnReport(os.Stdout, *label, goVersion, findings, *strictStd)
}

// vulnReport prints the findings and fails on a called vulnerability of a
// module this repository requires (fixable by requiring its fixed
// version). A called vulnerability of the standard library is the Go
// toolchain's that built the scan: it is printed as a warning naming the Go
// release that fixes it, and fails only with failStdlib.
func vulnReport(w io.Writer, label, goVersion string, findings []vulnFinding, failStdlib bool) error {
	var failed []string
	counts := map[string]int{}
	required := map[string][]string{} // module@version -> IDs only required
	var requiredOrder []string
	for _, f := range findings {
		counts[f.Level]++
		at := f.Module + "@" + f.Version
		fixed := f.Fixed
		if f.Module == "stdlib" {
			at = goVersion
			if fixed != "" {
				fixed = "go" + strings.TrimPrefix(fixed, "v")
			}
		}
		if fixed == "" {
			fixed = "no fix yet"
		} else {
			fixed = "fixed in " + fixed
		}
		switch {
		case f.Level == "called" && f.Module == "stdlib" && !failStdlib:
			fmt.Fprintf(w, "govulncheck: %s: WARNING toolchain %s: called: %s (%s) %s\n  %s\n", label, goVersion, f.ID, fixed, f.Summary, f.Trace)
		case f.Level == "called":
			fmt.Fprintf(w, "govulncheck: %s: FAIL called: %s in %s (%s) %s\n  %s\n", label, f.ID, at, fixed, f.Summary, f.Trace)
			failed = append(failed, f.ID+" ("+f.Module+")")
		case f.Level == "imported":
			fmt.Fprintf(w, "govulncheck: %s: imported, not called: %s in %s (%s) %s\n", label, f.ID, at, fixed, f.Summary)
		default:
			if _, ok := required[at]; !ok {
				requiredOrder = append(requiredOrder, at)
			}
			required[at] = append(required[at], f.ID)
		}
	}
	for _, at := range requiredOrder {
		fmt.Fprintf(w, "govulncheck: %s: required, package not imported: %s: %s\n", label, at, strings.Join(required[at], " "))
	}
	fmt.Fprintf(w, "govulncheck: %s: %d called, %d imported but not called, %d only required\n", label, counts["called"], counts["imported"], counts["required"])
	if len(failed) > 0 {
		return fmt.Errorf("govulncheck: %s: the code calls %d vulnerable function(s) of required modules: %s; require the fixed versions", label, len(failed), strings.Join(failed, ", "))
	}
	return nil
}
