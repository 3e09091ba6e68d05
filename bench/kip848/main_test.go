package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kgroup/assignor/bench/internal/e2e"
)

// TestSaveKeepsOtherRuns: a run of some contenders replaces only their
// runs in the broker and timing's file.
func TestSaveKeepsOtherRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kfake-short.json")
	run := func(script, kind string, paused int) e2e.Run {
		return e2e.Run{Broker: "kfake", Timing: e2e.Short, Script: script, Kind: kind, Paused: paused}
	}
	if err := save(path, []e2e.Run{run("s", "a", 1), run("s", "b", 2), run("t", "a", 3)}); err != nil {
		t.Fatal(err)
	}
	if err := save(path, []e2e.Run{run("s", "a", 10), run("s", "a", 11)}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []e2e.Run
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	var paused []int
	for _, r := range got {
		paused = append(paused, r.Paused)
	}
	if want := []int{2, 3, 10, 11}; !slices.Equal(paused, want) {
		t.Errorf("kept runs with paused %v, want %v", paused, want)
	}
	if err := render(filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(filepath.Dir(path), "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| s | a | 2 |") || !strings.Contains(string(md), "#### kfake, short timings") {
		t.Errorf("results.md:\n%s", md)
	}
}

func TestParseAndPick(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		ok   bool
	}{
		{"defaults", nil, true},
		{"both timings", []string{"-timings", "short,defaults"}, true},
		{"unknown timing", []string{"-timings", "slow"}, false},
		{"unknown broker", []string{"-broker", "redpanda"}, false},
		{"no runs", []string{"-runs", "0"}, false},
	} {
		if _, err := parse(tc.args); (err == nil) != tc.ok {
			t.Errorf("%s: error %v, want ok %v", tc.name, err, tc.ok)
		}
	}
	name := func(k e2e.Kind) string { return k.Name }
	got, err := pick(e2e.KIP848Kinds, []string{"kgo-sticky", "ours-kgo"}, name)
	if err != nil || len(got) != 2 || got[0].Name != "ours-kgo" || got[1].Name != "kgo-sticky" {
		t.Errorf("pick: %v, %v; want ours-kgo then kgo-sticky (the list's order)", got, err)
	}
	if _, err := pick(e2e.KIP848Kinds, []string{"nobody"}, name); err == nil {
		t.Error("pick of an unknown name: no error")
	}
}
