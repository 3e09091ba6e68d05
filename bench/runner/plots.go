package runner

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/bench/internal/plotkit"
	"github.com/kgroup/assignor/workload"
)

// The plots: per scenario, time-SCENARIO.png shows the path users run,
// ours through each adapter against each client's own leader and the
// floor (plotKeys, with your contenders), and time-SCENARIO-variants.png
// every other contender of the run (eager sticky, our codec and core
// rows, kgo's log strings, the other floors, Kafka's assignors);
// moves.png the moves after a join and a leave.

// plotKeys are the default time plots' contenders, in legend order, with
// their styles: ours solid, the clients' own dashed, the floor dotted.
var plotKeys = []struct {
	key   string
	style plotkit.Style
}{
	{"ours-sarama-coop", plotkit.Style{Color: plotkit.Color(0), Shape: draw.CircleGlyph{}}},
	{"ours-franz-coop", plotkit.Style{Color: plotkit.Color(5), Shape: draw.TriangleGlyph{}}},
	{"sarama-coop", plotkit.Style{Color: plotkit.Color(1), Dashes: plotkit.Dashed, Shape: draw.SquareGlyph{}}},
	{"franz-coop", plotkit.Style{Color: plotkit.Color(2), Dashes: plotkit.Dashed, Shape: draw.CrossGlyph{}}},
	{floorKey, plotkit.Style{Color: plotkit.Color(9), Dashes: plotkit.Dotted, Shape: draw.RingGlyph{}}},
}

// yoursColors are the colours of your contenders (Register) on the
// default plots, none of plotKeys'.
var yoursColors = []int{4, 3, 6, 7, 8}

// splitContenders returns the default plots' contenders of cs with their
// styles, and the variants' (every other one, styles by rank). A run
// with none of plotKeys (Kafka's assignors against our core rows, say)
// draws every contender on the default plot and has no variants plot.
func splitContenders(cs []contender.Contender) (main []contender.Contender, variants []contender.Contender, styles map[string]plotkit.Style) {
	styles = map[string]plotkit.Style{}
	for _, pk := range plotKeys {
		if i := slices.IndexFunc(cs, func(c contender.Contender) bool { return c.Key == pk.key }); i >= 0 {
			main, styles[pk.key] = append(main, cs[i]), pk.style
		}
	}
	for _, c := range cs {
		if c.Family == familyYours && !c.Core {
			styles[c.Key] = plotkit.Style{Color: plotkit.Color(yoursColors[len(main)%len(yoursColors)]), Shape: draw.PyramidGlyph{}}
			main = append(main, c)
		}
	}
	for _, c := range cs {
		if _, drawn := styles[c.Key]; !drawn {
			variants = append(variants, c)
		}
	}
	if len(main) == 0 {
		main, variants = variants, nil
	}
	for i, c := range variants {
		styles[c.Key] = plotkit.Style{Color: plotkit.Nth(i).Color, Shape: plotkit.Nth(i).Shape, Dashes: familyDashes(c)}
	}
	for i, c := range main {
		if _, ok := styles[c.Key]; !ok { // a run with none of plotKeys
			styles[c.Key] = plotkit.Style{Color: plotkit.Nth(i).Color, Shape: plotkit.Nth(i).Shape, Dashes: familyDashes(c)}
		}
	}
	return main, variants, styles
}

// familyDashes: ours solid, floors dotted, everyone else's dashed.
func familyDashes(c contender.Contender) []vg.Length {
	switch {
	case c.Floor || strings.Contains(c.Key, "floor"):
		return plotkit.Dotted
	case c.Family == "ours" || c.Family == familyYours:
		return plotkit.Solid
	}
	return plotkit.Dashed
}

// timePlots draws scenario sc's time plots into dir: the default one and,
// when the run has other contenders, the variants; it returns the names
// of the files written.
func timePlots(res *results, sc workload.Scenario, dir string) ([]string, error) {
	main, variants, styles := splitContenders(res.Cfg.contenders)
	var names []string
	for _, p := range []struct {
		suffix, title string
		cs            []contender.Contender
	}{
		{"", "ours through each adapter, each client's own, the floor", main},
		{"-variants", "the other contenders", variants},
	} {
		name := "time-" + string(sc) + p.suffix + ".png"
		ok, err := timePlot(res, sc, p.title, p.cs, styles, dir+"/"+name)
		if err != nil {
			return nil, fmt.Errorf("bench: plot %s: %w", name, err)
		}
		if ok {
			names = append(names, name)
		}
	}
	return names, nil
}

// timePlot draws median time against partitions, log-log, one line per
// contender of cs in scenario sc: a shape the contender did not run leaves
// a gap in its line; a run stopped at the cap is marked at the cap, in the
// contender's colour, with a marker of its own. It reports whether there
// was anything to draw.
func timePlot(res *results, sc workload.Scenario, subtitle string, cs []contender.Contender, styles map[string]plotkit.Style, path string) (bool, error) {
	shapes := shapesOf(res, sc)
	if len(cs) == 0 || len(shapes) == 0 {
		return false, nil
	}
	p := plot.New()
	p.Title.Text = "Leader time, " + string(sc) + ": " + subtitle
	xAxis(p, shapes)
	p.Y.Label.Text = "median time (ms, log scale)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	leg := plot.NewLegend()
	lo, hi := math.Inf(1), 0.0
	var capped plotter.XYs
	var cappedColors []color.Color
	drawn := 0
	for _, c := range cs {
		var xys plotter.XYs
		for _, s := range shapes {
			y := math.NaN()
			if r := rowAt(res, s, sc, c.Key); r != nil {
				switch {
				case r.Median > 0:
					y = float64(r.Median) / 1e6
				case r.Status == statusCapped && r.Cap > 0:
					capped = append(capped, plotter.XY{X: float64(s.Total()), Y: float64(r.Cap) / 1e6})
					cappedColors = append(cappedColors, styles[c.Key].Color)
					lo, hi = min(lo, float64(r.Cap)/1e6), max(hi, float64(r.Cap)/1e6)
				}
			}
			if !math.IsNaN(y) {
				lo, hi = min(lo, y), max(hi, y)
				drawn++
			}
			xys = append(xys, plotter.XY{X: float64(s.Total()), Y: y})
		}
		if err := plotkit.AddSeries(p, &leg, c.Name, xys, styles[c.Key]); err != nil {
			return false, err
		}
	}
	if drawn == 0 && len(capped) == 0 {
		return false, nil
	}
	for i, xy := range capped {
		m, err := plotkit.Marker(plotter.XYs{xy}, cappedColors[i], draw.PyramidGlyph{}, vg.Points(7))
		if err != nil {
			return false, err
		}
		p.Add(m)
		if i == 0 {
			legendMark, _ := plotkit.Marker(plotter.XYs{xy}, color.Black, draw.PyramidGlyph{}, vg.Points(5))
			leg.Add(fmt.Sprintf("stopped at the cap (%s), drawn at the cap", res.Cfg.cap), legendMark)
		}
	}
	p.Y.Min, p.Y.Max = lo/1.6, hi*1.6
	if len(shapes) == 1 { // one shape: a decade around it
		x := float64(shapes[0].Total())
		p.X.Min, p.X.Max = x/3, x*3
	}
	return true, plotkit.Save(p, leg, 6.5*vg.Inch, 4.5*vg.Inch, path)
}

// rowAt returns the row of contender key on shape s in scenario sc.
func rowAt(res *results, s workload.Shape, sc workload.Scenario, key string) *row {
	for _, cl := range res.Cells {
		if cl.Shape == s && cl.Scenario == sc {
			return find(cl, key)
		}
	}
	return nil
}

// movesPlot draws the partitions each contender moved in the join and
// leave scenarios on the largest shape up to 10k partitions that ran
// them, on a linear axis from zero, with the fewest moves possible from
// that contender's own history marked beside them. Core rows and floors
// are left out (same plans as their rows through bytes, or no plan), and
// so are kgo's log-string rows (franz-go's plans). It reports whether
// there was anything to draw.
func movesPlot(res *results, path string) (bool, error) {
	var shape workload.Shape
	for _, cl := range res.Cells {
		if (cl.Scenario == workload.Join || cl.Scenario == workload.Leave) && cl.Shape.Total() <= 10_000 && cl.Shape.Total() > shape.Total() {
			shape = cl.Shape
		}
	}
	if shape.Total() == 0 {
		return false, nil
	}
	var cs []contender.Contender
	for _, c := range res.Cfg.contenders {
		if !c.Floor && !c.Core && !strings.HasSuffix(c.Key, "-log") {
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		return false, nil
	}
	p := plot.New()
	p.Title.Text = "Partitions moved when one member joins or leaves, " + shape.String()
	p.Y.Label.Text = "partitions moved (taken from their owner)"
	var names []string
	for _, c := range cs {
		names = append(names, c.Key)
	}
	p.NominalX(names...)
	p.X.Tick.Label.Rotation = math.Pi / 5
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	leg := plot.NewLegend()
	hi, drawn := 1.0, 0
	for i, sc := range []workload.Scenario{workload.Join, workload.Leave} {
		var moved, fewest plotter.XYs
		var labels []string
		var labelled plotter.XYs
		for x, c := range cs {
			r := rowAt(res, shape, sc, c.Key)
			if r == nil || r.Q == nil || !r.Q.Valid {
				continue
			}
			xy := plotter.XY{X: float64(x) + 0.15*float64(2*i-1), Y: float64(r.Q.Moves)}
			moved = append(moved, xy)
			hi = max(hi, xy.Y)
			if m := r.Q.MinMoves; m >= 0 {
				fewest = append(fewest, plotter.XY{X: xy.X, Y: float64(m)})
				if r.Q.Moves > m {
					labelled, labels = append(labelled, xy), append(labels, fmt.Sprintf("%d (fewest %d)", r.Q.Moves, m))
				}
			}
		}
		if len(moved) == 0 {
			continue
		}
		drawn++
		col := plotkit.Color(2 * i)
		if len(fewest) > 0 { // under the moves, which hide it where they equal it
			f, err := plotkit.Marker(fewest, col, draw.SquareGlyph{}, vg.Points(6))
			if err != nil {
				return false, err
			}
			p.Add(f)
			leg.Add(string(sc)+": fewest possible", f)
		}
		m, err := plotkit.Marker(moved, col, draw.CircleGlyph{}, vg.Points(3.5))
		if err != nil {
			return false, err
		}
		p.Add(m)
		leg.Add(string(sc)+": moved", m)
		if len(labelled) > 0 { // join's left of its point, leave's right
			ls, err := plotter.NewLabels(plotter.XYLabels{XYs: labelled, Labels: labels})
			if err != nil {
				return false, err
			}
			for k := range ls.TextStyle {
				ls.TextStyle[k].Font.Size = vg.Points(8)
				if i == 0 {
					ls.TextStyle[k].XAlign = draw.XRight
				}
			}
			ls.Offset = vg.Point{X: vg.Points(float64(12*i - 6)), Y: vg.Points(-3)}
			p.Add(ls)
		}
	}
	if drawn == 0 {
		return false, nil
	}
	p.Y.Min, p.Y.Max = 0, hi*1.1
	p.X.Min, p.X.Max = -0.6, float64(len(cs))-0.4
	return true, plotkit.Save(p, leg, vg.Length(max(6, 0.55*float64(len(cs))))*vg.Inch, 4.5*vg.Inch, path)
}

// shapeTicks marks the shapes' partition counts in the shapes' own
// notation (1k, 10k, 1M), and nothing else, so the axis has one notation;
// with members set, each tick names the shape's members below it.
type shapeTicks struct {
	shapes  []workload.Shape
	members bool
}

func (s shapeTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for _, sh := range s.shapes {
		if x := float64(sh.Total()); x >= lo && x <= hi {
			label := sh.Short()
			if s.members {
				label += fmt.Sprintf("\n(%d)", sh.Members)
			}
			ts = append(ts, plot.Tick{Value: x, Label: label})
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

// xAxis labels the partitions axis of shapes and ticks it: the members
// under each tick when they change with the shapes.
func xAxis(p *plot.Plot, shapes []workload.Shape) {
	grow := slices.ContainsFunc(shapes, func(s workload.Shape) bool { return s.Members != shapes[0].Members })
	p.X.Tick.Marker = shapeTicks{shapes: shapes, members: grow}
	if grow {
		p.X.Label.Text = "partitions (members), log scale"
		return
	}
	p.X.Label.Text = fmt.Sprintf("partitions, log scale (%d members on every shape)", shapes[0].Members)
}
