package runner

import (
	"fmt"
	"image/color"
	"os"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/workload"
)

// familyBase is each contender family's colour; the contenders of one
// family share its hue, told apart by shade, dashes and marker.
var familyBase = map[string]color.RGBA{
	"ours":      {R: 31, G: 119, B: 180, A: 255},  // blue
	"franz-go":  {R: 44, G: 160, B: 44, A: 255},   // green
	"sarama":    {R: 214, G: 39, B: 40, A: 255},   // red
	"floor":     {R: 90, G: 90, B: 90, A: 255},    // grey
	"kafka":     {R: 255, G: 127, B: 14, A: 255},  // orange
	familyYours: {R: 148, G: 103, B: 189, A: 255}, // purple
}

// otherFamily is the colour of a family with none of its own (tests').
var otherFamily = color.RGBA{R: 140, G: 140, B: 20, A: 255} // olive

// lineStyle is how one contender is drawn.
type lineStyle struct {
	color  color.Color
	dashes []vg.Length
	shape  draw.GlyphDrawer
}

// styles gives each contender of cs its style: its family's hue, darker
// or lighter by its rank in the family, dashes and marker by rank.
func styles(cs []contender.Contender) map[string]lineStyle {
	rank := map[string]int{}
	out := make(map[string]lineStyle, len(cs))
	for _, c := range cs {
		k := rank[c.Family]
		rank[c.Family]++
		base, ok := familyBase[c.Family]
		if !ok {
			base = otherFamily
		}
		out[c.Key] = lineStyle{color: shade(base, k), dashes: plotutil.Dashes(k % 4), shape: plotutil.Shape(k)}
	}
	return out
}

// shade returns base darkened (even k) or lightened (odd k), further with
// each step: k = 0 is base itself.
func shade(base color.RGBA, k int) color.RGBA {
	f := 0.14 * float64((k+1)/2)
	mix := func(v uint8) uint8 {
		if k%2 == 1 {
			return uint8(float64(v) + (255-float64(v))*min(f, 0.9))
		}
		return uint8(float64(v) * (1 - min(f, 0.9)))
	}
	return color.RGBA{R: mix(base.R), G: mix(base.G), B: mix(base.B), A: 255}
}

// shapeTicks marks the shapes' partition counts in the shapes' own
// notation (1k, 10k, 1M), and nothing else, so the axis has one notation.
type shapeTicks []workload.Shape

func (s shapeTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for _, sh := range s {
		if x := float64(sh.Total()); x >= lo && x <= hi {
			ts = append(ts, plot.Tick{Value: x, Label: sh.Short()})
		}
	}
	return ts
}

// shapesOf returns the distinct shapes of res's cells in scenario sc
// (every scenario when sc is empty), smallest first.
func shapesOf(res *results, sc workload.Scenario) []workload.Shape {
	var out []workload.Shape
	for _, cl := range res.Cells {
		if (sc == "" || cl.Scenario == sc) && !containsShape(out, cl.Shape) {
			out = append(out, cl.Shape)
		}
	}
	slices.SortFunc(out, func(a, b workload.Shape) int { return a.Total() - b.Total() })
	return out
}

// membersNote says on the plot how members change across the shapes.
func membersNote(shapes []workload.Shape) string {
	var parts []string
	same := true
	for _, s := range shapes {
		parts = append(parts, fmt.Sprintf("%s: %d", s.Short(), s.Members))
		same = same && s.Members == shapes[0].Members
	}
	if same && len(shapes) > 0 {
		return fmt.Sprintf("partitions (%d members on every shape)", shapes[0].Members)
	}
	return "partitions; members grow with partitions (" + strings.Join(parts, ", ") + ")"
}

// legendWidth is the strip right of the data that holds the legend.
const legendWidth = 3.6 * vg.Inch

// save draws p with leg in a strip to its right, outside the data, and
// writes the PNG to path.
func save(p *plot.Plot, leg plot.Legend, w, h vg.Length, path string) error {
	img := vgimg.New(w+legendWidth, h)
	dc := draw.New(img)
	p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	leg.Top, leg.Left = true, true
	leg.Padding = vg.Points(4)
	leg.Draw(draw.Crop(dc, w+vg.Points(6), 0, 0, -vg.Points(30)))
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
