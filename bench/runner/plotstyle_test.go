package runner

import (
	"strings"
	"testing"

	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/workload"
)

// TestPlotStyles: no two contenders share a colour, and the colour says
// the family: ours and sarama's cooperative-sticky once were both salmon.
func TestPlotStyles(t *testing.T) {
	st := styles(contender.All())
	seen := map[string]string{}
	for _, c := range contender.All() {
		col := st[c.Key].color
		k := colorKey(col)
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s share the colour %v", c.Key, other, col)
		}
		seen[k] = c.Key
	}
	if st["ours-coop"].color == st["sarama-coop"].color {
		t.Error("ours and sarama's cooperative-sticky share a colour")
	}
}

func colorKey(c interface{ RGBA() (r, g, b, a uint32) }) string {
	r, g, b, _ := c.RGBA()
	return string(rune(r>>8)) + string(rune(g>>8)) + string(rune(b>>8))
}

// TestShapeTicksAndNote: the x axis is labelled in the shapes' notation
// only, and the label says how members change.
func TestShapeTicksAndNote(t *testing.T) {
	shapes := workload.Shapes()
	ticks := shapeTicks(shapes).Ticks(1, 1e9)
	if len(ticks) != len(shapes) {
		t.Fatalf("%d ticks for %d shapes", len(ticks), len(shapes))
	}
	for i, tk := range ticks {
		if tk.Label != shapes[i].Short() {
			t.Errorf("tick %d labelled %q, want %q", i, tk.Label, shapes[i].Short())
		}
	}
	if note := membersNote(shapes); !strings.Contains(note, "members grow with partitions") {
		t.Errorf("default shapes: note %q does not say members grow", note)
	}
	if note := membersNote(workload.GrowthShapes()); !strings.Contains(note, "1000 members on every shape") {
		t.Errorf("growth shapes: note %q", note)
	}
}
