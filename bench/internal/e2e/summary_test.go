package e2e

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestSummarizeKIP848 pins the comparison's summary: medians with the
// range over successful runs, failures counted apart, safety counts summed.
func TestSummarizeKIP848(t *testing.T) {
	run := func(kind string, settleMS int, unowned float64, paused, overlaps int) Run {
		return RunOf("kfake", Short, Report{Script: "scale-out-in", Kind: kind, Settles: []time.Duration{time.Duration(settleMS) * time.Millisecond},
			UnownedSeconds: unowned, PausedRecords: paused, Overlaps: make([]Overlap, overlaps)}, nil)
	}
	evicted := RunOf("kfake", Short, Report{Script: "scale-out-in", Kind: "b", Settles: []time.Duration{50 * time.Millisecond},
		UnownedSeconds: 2, PausedRecords: 20, Overlaps: []Overlap{{Evicted: true}, {Evicted: true}}, Rejoined: []string{"b-0"}}, nil)
	runs := []Run{
		run("a", 100, 1, 10, 0), run("b", 50, 2, 20, 1), run("a", 300, 3, 30, 0),
		RunOf("kfake", Short, Report{Script: "scale-out-in", Kind: "a"}, errors.New("e2e: group not stable")),
		run("a", 200, 2, 20, 0), evicted,
	}
	rows := SummarizeKIP848(runs)
	if len(rows) != 2 || rows[0].Kind != "a" || rows[1].Kind != "b" {
		t.Fatalf("rows %+v, want a then b", rows)
	}
	a := rows[0]
	if a.Runs != 3 || a.Failed != 1 || len(a.Errors) != 1 {
		t.Errorf("runs %d failed %d errors %v", a.Runs, a.Failed, a.Errors)
	}
	if a.Settle != (Spread{0.2, 0.1, 0.3}) || a.Unowned != (Spread{2, 1, 3}) || a.Paused != (Spread{20, 10, 30}) {
		t.Errorf("settle %+v unowned %+v paused %+v", a.Settle, a.Unowned, a.Paused)
	}
	if b := rows[1]; b.Overlaps != 1 || b.EvictedOverlaps != 2 || b.Fenced != 1 {
		t.Errorf("b's overlaps %d, evicted %d, fenced %d; want 1, 2, 1", b.Overlaps, b.EvictedOverlaps, b.Fenced)
	}
	md := MarkdownKIP848(rows)
	for _, want := range []string{"#### kfake, short timings", "| scale-out-in | a | 3 (+1 failed) | 0.20 (0.10–0.30) | 2.0 (1.0–3.0) | 20 (10–30) |", "| scale-out-in | b | 2 | 0.05 | 2.0 | 20 | 0.00 | 1 (+2 after an eviction) | 1 | 0 | 0 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// TestCompareKIP848 pins "no worse": within the runs' spread unless every
// run of one side beat every run of the other.
func TestCompareKIP848(t *testing.T) {
	for _, tc := range []struct {
		name       string
		ours, peer Spread
		want       Verdict
	}{
		{"disjoint, ours lower", Spread{1, 0.9, 1.1}, Spread{2, 1.5, 2.5}, Better},
		{"disjoint, ours higher", Spread{3, 2.6, 3.1}, Spread{2, 1.5, 2.5}, Worse},
		{"overlapping ranges", Spread{2.4, 2.2, 2.6}, Spread{2, 1.5, 2.5}, WithinSpread},
		{"equal single runs", Spread{2, 2, 2}, Spread{2, 2, 2}, WithinSpread},
	} {
		if got := Compare(tc.ours, tc.peer); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	rows := []KIP848Row{
		{Broker: "kfake", Timing: Short, Script: "s", Kind: OursKgo.Name, Runs: 3, Settle: Spread{0.3, 0.25, 0.35}, Unowned: Spread{1, 1, 1}, Paused: Spread{10, 9, 11}},
		{Broker: "kfake", Timing: Short, Script: "s", Kind: KgoSticky.Name, Runs: 3, Settle: Spread{0.1, 0.1, 0.2}, Unowned: Spread{3, 2, 4}},
	}
	md := MarkdownKIP848Targets(rows)
	for _, want := range []string{"| kfake, short | s | worse: 0.30 vs 0.10 (3.00×) | better: 1.0 vs 3.0 | – | – |"} {
		if !strings.Contains(md, want) {
			t.Errorf("targets lack %q:\n%s", want, md)
		}
	}
}
