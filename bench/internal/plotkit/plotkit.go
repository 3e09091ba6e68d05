// Package plotkit draws the bench's PNG plots one way (gonum/plot): lines
// broken where a point is missing, distinct styles, the legend in a strip
// right of the data sized to fit its widest entry, the PNG written once.
// `go run ./bench` (package bench/runner) and `go run ./bench/weighted`
// both draw with it.
package plotkit

import (
	"fmt"
	"image/color"
	"math"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Style is how one series is drawn.
type Style struct {
	Color  color.Color
	Dashes []vg.Length // nil: solid
	Shape  draw.GlyphDrawer
}

// The dash patterns of Style.Dashes.
var (
	Solid  []vg.Length
	Dashed = []vg.Length{vg.Points(6), vg.Points(3)}
	Dotted = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
)

// palette is ten colours told apart at a glance (Tableau 10, with a darker
// grey last).
var palette = []color.RGBA{
	{R: 31, G: 119, B: 180, A: 255},  // blue
	{R: 214, G: 39, B: 40, A: 255},   // red
	{R: 44, G: 160, B: 44, A: 255},   // green
	{R: 255, G: 127, B: 14, A: 255},  // orange
	{R: 148, G: 103, B: 189, A: 255}, // purple
	{R: 23, G: 190, B: 207, A: 255},  // cyan
	{R: 140, G: 86, B: 75, A: 255},   // brown
	{R: 227, G: 119, B: 194, A: 255}, // pink
	{R: 188, G: 189, B: 34, A: 255},  // olive
	{R: 80, G: 80, B: 80, A: 255},    // grey
}

// shapes are the markers, in the order styles use them.
var shapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.CrossGlyph{}, draw.RingGlyph{}, draw.PlusGlyph{}, draw.BoxGlyph{}}

// Color returns the i-th colour of the palette, cycling.
func Color(i int) color.RGBA { return palette[i%len(palette)] }

// Nth returns the i-th of a sequence of styles in which no two of the
// first 70 share both colour and marker: colours cycle every 10, markers
// every 7.
func Nth(i int) Style {
	return Style{Color: Color(i), Shape: shapes[i%len(shapes)]}
}

// AddSeries adds xys to p as a line with markers in style st, broken
// where a Y is NaN (a missing point leaves a gap, never a line drawn
// across it), and one entry name to leg. Points are drawn in the order
// given.
func AddSeries(p *plot.Plot, leg *plot.Legend, name string, xys plotter.XYs, st Style) error {
	var legendLine *plotter.Line
	var legendDots *plotter.Scatter
	for _, run := range runs(xys) {
		l, s, err := plotter.NewLinePoints(run)
		if err != nil {
			return fmt.Errorf("plotkit: %s: %w", name, err)
		}
		l.Color, l.Dashes, l.Width = st.Color, st.Dashes, vg.Points(1.5)
		s.Color, s.Shape, s.Radius = st.Color, st.Shape, vg.Points(3.5)
		if len(run) == 1 { // a lone point: its marker alone
			p.Add(s)
		} else {
			p.Add(l, s)
		}
		legendLine, legendDots = l, s
	}
	if legendLine == nil {
		return nil
	}
	leg.Add(name, legendLine, legendDots)
	return nil
}

// runs splits xys at NaN Ys into the runs of points between them.
func runs(xys plotter.XYs) []plotter.XYs {
	var out []plotter.XYs
	var cur plotter.XYs
	for _, xy := range xys {
		if math.IsNaN(xy.Y) {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, xy)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// Marker returns a scatter of xys with glyph shape in colour c: points
// marked on their own (a run stopped at the cap, a bound), for p.Add and
// a legend entry.
func Marker(xys plotter.XYs, c color.Color, shape draw.GlyphDrawer, radius vg.Length) (*plotter.Scatter, error) {
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, fmt.Errorf("plotkit: %w", err)
	}
	s.Color, s.Shape, s.Radius = c, shape, radius
	return s, nil
}

// margin separates the data from the legend strip, and the strip from
// the canvas's edge.
const margin = 10 * vg.Millimeter / 4

// Save writes p as a PNG to path: w × h for the plot and, when leg has
// entries, a strip to its right as wide as the legend's widest entry, so
// that the legend is never cut and never covers data.
func Save(p *plot.Plot, leg plot.Legend, w, h vg.Length, path string) error {
	leg.Top, leg.Left = true, true
	leg.Padding = vg.Points(3)
	size := leg.Rectangle(draw.Canvas{}).Size()
	strip := vg.Length(0)
	if size.X > 0 {
		strip = size.X + 2*margin
	}
	height := max(h, size.Y+2*margin+p.Title.TextStyle.Height(p.Title.Text))
	img := vgimg.New(w+strip, height)
	dc := draw.New(img)
	p.Draw(draw.Crop(dc, 0, -strip, 0, 0))
	if strip > 0 {
		top := p.Title.TextStyle.Height(p.Title.Text) + margin
		leg.Draw(draw.Crop(dc, w+margin, -margin, 0, -top))
	}
	return write(img, path)
}

// SaveGrid writes rows of plots as one PNG of w × h to path, aligned so
// that their axes line up; each plot keeps its own legend.
func SaveGrid(plots [][]*plot.Plot, w, h vg.Length, path string) error {
	img := vgimg.New(w, h)
	dc := draw.New(img)
	rows, cols := len(plots), 0
	if rows > 0 {
		cols = len(plots[0])
	}
	canvases := plot.Align(plots, draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Inch / 4, PadY: vg.Inch / 4}, dc)
	for i := range plots {
		for j := range plots[i] {
			plots[i][j].Draw(canvases[i][j])
		}
	}
	return write(img, path)
}

// write encodes img as a PNG file at path.
func write(img *vgimg.Canvas, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("plotkit: %w", err)
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("plotkit: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("plotkit: %w", err)
	}
	return nil
}
