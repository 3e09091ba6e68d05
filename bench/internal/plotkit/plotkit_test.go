package plotkit

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// A missing point (NaN) splits a series into the runs around it: a gap,
// never a line drawn across it.
func TestRuns(t *testing.T) {
	nan := math.NaN()
	xy := func(ys ...float64) plotter.XYs {
		var out plotter.XYs
		for i, y := range ys {
			out = append(out, plotter.XY{X: float64(i), Y: y})
		}
		return out
	}
	tests := []struct {
		name string
		in   plotter.XYs
		want []int // the lengths of the runs
	}{
		{"no gap", xy(1, 2, 3), []int{3}},
		{"a gap in the middle", xy(1, nan, 3, 4), []int{1, 2}},
		{"gaps at the ends", xy(nan, 2, 3, nan), []int{2}},
		{"every point missing", xy(nan, nan), nil},
		{"two gaps in a row", xy(1, nan, nan, 4), []int{1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			for _, r := range runs(tt.in) {
				got = append(got, len(r))
				for _, p := range r {
					if math.IsNaN(p.Y) {
						t.Errorf("a run holds a missing point: %v", r)
					}
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("runs %v, want lengths %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("runs %v, want lengths %v", got, tt.want)
				}
			}
		})
	}
}

// Save widens the canvas by the legend's widest entry: a long entry is
// never cut.
func TestSaveFitsTheLegend(t *testing.T) {
	dir := t.TempDir()
	width := func(entry string) int {
		p := plot.New()
		leg := plot.NewLegend()
		if err := AddSeries(p, &leg, entry, plotter.XYs{{X: 1, Y: 1}, {X: 2, Y: math.NaN()}, {X: 3, Y: 2}}, Nth(0)); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "p.png")
		if err := Save(p, leg, 4*vg.Inch, 3*vg.Inch, path); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cfg, err := png.DecodeConfig(f)
		if err != nil {
			t.Fatal(err)
		}
		return cfg.Width
	}
	short, long := width("a"), width(strings.Repeat("a long legend entry ", 8))
	if data := int(4 * vg.Inch / vg.Inch * 96); short <= data || long <= short+500 {
		t.Errorf("canvas %d px wide for a one-letter entry, %d for 160 letters; the data take %d", short, long, data)
	}
}

// No two of the first 70 styles share colour and marker.
func TestNth(t *testing.T) {
	seen := map[[2]any]int{}
	for i := range 70 {
		st := Nth(i)
		k := [2]any{st.Color, st.Shape}
		if j, ok := seen[k]; ok {
			t.Fatalf("styles %d and %d are alike", j, i)
		}
		seen[k] = i
	}
}
