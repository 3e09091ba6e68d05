package runner

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/workload"
)

// TestUpdateReadme: -readme replaces what is between the markers, keeps
// the rest, and refuses a file without the markers.
func TestUpdateReadme(t *testing.T) {
	var cs []contender.Contender
	for _, key := range []string{"ours-sarama-coop", "ours-franz-coop", "franz-coop", "floor"} {
		c, _ := contender.Lookup(key)
		cs = append(cs, c)
	}
	cfg := config{shapes: tiny[:1], scenarios: []workload.Scenario{workload.Join}, contenders: cs, reps: 1, cap: 10 * time.Second, seed: 1}
	res := run(cfg, inProcess, &bytes.Buffer{})

	dir := t.TempDir()
	path := filepath.Join(dir, "README.md")
	before := "# title\n\n" + readmeBegin + "\nstale figures\n" + readmeEnd + "\n\nafter\n"
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := updateReadme(path, res); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	s := string(got)
	for _, want := range []string{"# title\n\n" + readmeBegin, readmeEnd + "\n\nafter\n", "**sarama users**", "**franz-go users**", tiny[0].String()} {
		if !strings.Contains(s, want) {
			t.Errorf("README lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "stale figures") {
		t.Errorf("the old block is still there:\n%s", s)
	}

	bare := filepath.Join(dir, "bare.md")
	if err := os.WriteFile(bare, []byte("# no markers\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := updateReadme(bare, res); err == nil {
		t.Error("a file without the markers was accepted")
	}
	if b, _ := os.ReadFile(bare); string(b) != "# no markers\n" {
		t.Errorf("a file without the markers was changed: %q", b)
	}
}

// The README names the machine as measured and the command as run, with
// -out as the docs directory it is copied to.
func TestReadmeMachineAndCommand(t *testing.T) {
	res := &results{Cfg: config{args: []string{"-quick", "-contenders", "ours-coop,franz-coop", "-out", "/tmp/x", "-readme", "README.md"}, out: "/tmp/x"},
		Machine: "Some CPU, 8 CPUs, go1.99 linux/amd64"}
	block := readmeBlock(res)
	for _, want := range []string{"`go run ./bench -quick -contenders ours-coop,franz-coop -out docs -readme README.md`", "on Some CPU, 8 CPUs, go1.99 linux/amd64;"} {
		if !strings.Contains(block, want) {
			t.Errorf("block lacks %q:\n%s", want, block)
		}
	}
	if strings.Contains(block, "2 cores") {
		t.Errorf("block names a machine it did not measure:\n%s", block)
	}
	// Results saved before they named the machine: their setting lines.
	old := &results{Env: []string{"go1.26.8 linux/amd64, 2 CPUs (GOMAXPROCS 2); each child process runs with the same GOMAXPROCS, one child at a time", "AMD EPYC"}}
	if got, want := old.machine(), "AMD EPYC, 2 CPUs, go1.26.8 linux/amd64"; got != want {
		t.Errorf("machine of old results = %q, want %q", got, want)
	}
}

// results.md quotes the command line as run, whatever its flags.
func TestResultsQuoteTheCommand(t *testing.T) {
	for _, args := range [][]string{
		{"-quick"},
		{"-quick", "-contenders", "ours-coop,franz-coop", "-out", "x"},
		{"-shapes", "1k,10k", "-scenarios", "join", "-reps", "1", "-out", "x"},
	} {
		md := markdown(&results{Cfg: config{args: args}}, nil)
		if want := "`go run ./bench " + strings.Join(args, " ") + "`"; !strings.Contains(md, want) {
			t.Errorf("results.md lacks %s:\n%s", want, md[:min(len(md), 300)])
		}
	}
}
