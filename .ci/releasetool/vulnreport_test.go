package main

import (
	"strings"
	"testing"
)

// A govulncheck JSON stream: one vulnerability of a required module reached
// from the code (two traces, and a module-level finding of the same),
// one of the standard library reached, one package imported but not
// called, one module only required.
const govulncheckJSON = `{"config":{"protocol_version":"v1.0.0","scanner_name":"govulncheck","scanner_version":"v1.9.0","db":"file:///db","go_version":"go1.26.8","scan_level":"symbol"}}
{"progress":{"message":"Scanning your code..."}}
{"osv":{"id":"GO-2026-4962","summary":"Excessive memory allocation in golang.org/x/image"}}
{"osv":{"id":"GO-2026-6809","summary":"Distrust intermediates in crypto/x509"}}
{"osv":{"id":"GO-2026-5032","summary":"Panic in x/image/tiff"}}
{"osv":{"id":"GO-2026-6866","summary":"x/net html"}}
{"finding":{"osv":"GO-2026-4962","fixed_version":"v0.39.0","trace":[{"module":"golang.org/x/image","version":"v0.30.0"}]}}
{"finding":{"osv":"GO-2026-4962","fixed_version":"v0.39.0","trace":[{"module":"golang.org/x/image","version":"v0.30.0","package":"golang.org/x/image/font/sfnt","function":"GlyphAdvance","receiver":"*Font"},{"module":"gonum.org/v1/plot","package":"gonum.org/v1/plot","function":"NominalX","receiver":"*Plot"},{"module":"example.com/cmd","package":"example.com/cmd/cli","function":"plotWhatIf","position":{"filename":"cli/plot.go","line":57,"column":12}}]}}
{"finding":{"osv":"GO-2026-6809","fixed_version":"v1.26.10","trace":[{"module":"stdlib","version":"v1.26.8","package":"crypto/x509","function":"Verify","receiver":"*Certificate"},{"module":"example.com/cmd","package":"example.com/cmd/demo","function":"Start","position":{"filename":"demo/demo.go","line":137,"column":29}}]}}
{"finding":{"osv":"GO-2026-5032","fixed_version":"v0.41.0","trace":[{"module":"golang.org/x/image","version":"v0.30.0","package":"golang.org/x/image/tiff"}]}}
{"finding":{"osv":"GO-2026-6866","fixed_version":"v0.62.0","trace":[{"module":"golang.org/x/net","version":"v0.59.0"}]}}
`

func TestVulnReport(t *testing.T) {
	findings, goVersion, err := readVulnFindings(strings.NewReader(govulncheckJSON))
	if err != nil {
		t.Fatal(err)
	}
	if goVersion != "go1.26.8" {
		t.Errorf("go version %q", goVersion)
	}
	var got []string
	for _, f := range findings {
		got = append(got, f.Level+" "+f.ID+" "+f.Module)
	}
	want := "called GO-2026-4962 golang.org/x/image|called GO-2026-6809 stdlib|imported GO-2026-5032 golang.org/x/image|required GO-2026-6866 golang.org/x/net"
	if strings.Join(got, "|") != want {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	if tr := findings[0].Trace; tr != "cli/plot.go:57: cli.plotWhatIf -> plot.Plot.NominalX -> ... -> sfnt.Font.GlyphAdvance" {
		t.Errorf("trace %q", tr)
	}

	var out strings.Builder
	err = vulnReport(&out, "cmd", goVersion, findings, false)
	if err == nil || !strings.Contains(err.Error(), "GO-2026-4962 (golang.org/x/image)") || strings.Contains(err.Error(), "GO-2026-6809") {
		t.Errorf("error %v: want the x/image finding only", err)
	}
	for _, line := range []string{
		"FAIL called: GO-2026-4962 in golang.org/x/image@v0.30.0 (fixed in v0.39.0)",
		"WARNING toolchain go1.26.8: called: GO-2026-6809 (fixed in go1.26.10)",
		"imported, not called: GO-2026-5032 in golang.org/x/image@v0.30.0 (fixed in v0.41.0)",
		"required, package not imported: golang.org/x/net@v0.59.0: GO-2026-6866",
		"cmd: 2 called, 1 imported but not called, 1 only required",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("report lacks %q:\n%s", line, out.String())
		}
	}

	// Only the standard library reached: a warning, unless -fail-stdlib.
	std := []vulnFinding{findings[1], findings[3]}
	if err := vulnReport(&strings.Builder{}, "cmd", goVersion, std, false); err != nil {
		t.Errorf("stdlib only: %v", err)
	}
	if err := vulnReport(&strings.Builder{}, "cmd", goVersion, std, true); err == nil {
		t.Error("stdlib only with failStdlib: passed")
	}
}
