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
