package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgroup/assignor/workload"
)

// TestWeightedBeatsCount runs ours weighted and ours count-sticky on a
// 1k-partition group with 20 partitions per member where 5% of the
// partitions carry half the load: both plans valid, the weighted plan
// within the target of the lower bound fresh and after the join, and
// count-sticky's heaviest member well above it.
func TestWeightedBeatsCount(t *testing.T) {
	es := entrants()[:2]
	c, err := runCell(load{Name: "hot5%", Skew: workload.Hot5}, workload.SkewShapes()[1], es, budget{reps: 1, quick: true}, workload.DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	w, s := find(c, "weighted"), find(c, "sticky")
	for _, r := range []*row{w, s} {
		if r.Fresh.Invalid != "" || r.Join.Invalid != "" {
			t.Fatalf("%s: invalid plan: %s %s", r.Name, r.Fresh.Invalid, r.Join.Invalid)
		}
	}
	if w.Fresh.Ratio > target || w.Join.Ratio > target {
		t.Errorf("weighted: heaviest load %.3f (fresh), %.3f (join) of the lower bound, want at most %.2f", w.Fresh.Ratio, w.Join.Ratio, target)
	}
	if s.Fresh.Ratio < 1.5 {
		t.Errorf("count-sticky: heaviest load %.3f of the lower bound; this workload should put it far above the weighted plan's %.3f", s.Fresh.Ratio, w.Fresh.Ratio)
	}
	if w.Moves == 0 || s.Moves == 0 || w.MovedWeight > w.Total {
		t.Errorf("join moves: weighted %d (weight %d of %d), count-sticky %d: want some, and no more weight than there is", w.Moves, w.MovedWeight, w.Total, s.Moves)
	}
}

// TestQuickMode runs the -quick command line and checks its outputs: every
// contender in the markdown, a PNG plot.
func TestQuickMode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every contender on the 1k shapes (a few seconds)")
	}
	dir := t.TempDir()
	md, png := filepath.Join(dir, "r.md"), filepath.Join(dir, "r.png")
	var stdout, stderr bytes.Buffer
	if code := cli([]string{"-quick", "-out", md, "-plot", png}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	text, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entrants() {
		if !strings.Contains(string(text), "| "+e.Name+" |") {
			t.Errorf("the results page has no row for %s", e.Name)
		}
	}
	if strings.Contains(string(text), "INVALID") {
		t.Errorf("a contender made an invalid plan:\n%s", text)
	}
	if b, err := os.ReadFile(png); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Errorf("plot %s: not a PNG (%v)", png, err)
	}
	if code := cli([]string{"-no-such-flag"}, &stdout, &stderr); code != 2 {
		t.Errorf("bad flag: exit %d, want 2", code)
	}
}
