package runner

import (
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/kgroup/assignor/workload"
)

// timePlot draws median time against partitions, log-log, one line per
// contender, for scenario sc: each family in its own hue, the legend right
// of the data, runs killed at the cap marked at the cap and labelled with
// the contender, the x axis in the shapes' notation, the y axis fitted to
// the data. It reports whether there was anything to draw.
func timePlot(res *results, sc workload.Scenario, path string) (bool, error) {
	p := plot.New()
	p.Title.Text = "Leader time vs partitions: " + string(sc)
	shapes := shapesOf(res, sc)
	p.X.Label.Text = membersNote(shapes)
	p.Y.Label.Text = "median time (ms)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = shapeTicks(shapes), plot.LogTicks{Prec: -1}
	leg := plot.NewLegend()
	st := styles(res.Cfg.contenders)
	lo, hi := math.Inf(1), 0.0
	fit := func(y float64) { lo, hi = min(lo, y), max(hi, y) }
	drawn := 0
	for _, c := range res.Cfg.contenders {
		var xys plotter.XYs
		for _, cl := range res.Cells {
			if cl.Scenario != sc {
				continue
			}
			if r := find(cl, c.Key); r != nil && r.Median > 0 {
				xys = append(xys, plotter.XY{X: float64(cl.Shape.Total()), Y: float64(r.Median) / 1e6})
				fit(float64(r.Median) / 1e6)
			}
		}
		if len(xys) == 0 {
			continue
		}
		l, s, err := plotter.NewLinePoints(xys)
		if err != nil {
			return false, err
		}
		style := st[c.Key]
		l.Color, l.Dashes = style.color, style.dashes
		s.Color, s.Shape = style.color, style.shape
		p.Add(l, s)
		leg.Add(c.Name, l, s)
		drawn++
	}
	if drawn == 0 {
		return false, nil
	}
	if err := addCapped(p, &leg, res, sc, st, fit); err != nil {
		return false, err
	}
	p.Y.Min, p.Y.Max = lo/1.6, hi*1.6
	return true, save(p, leg, 8*vg.Inch, 6*vg.Inch, path)
}

// addCapped marks the runs of scenario sc killed at the cap: at the cap,
// in the contender's colour, labelled with its key.
func addCapped(p *plot.Plot, leg *plot.Legend, res *results, sc workload.Scenario, st map[string]lineStyle, fit func(float64)) error {
	var pts plotter.XYs
	var labels []string
	for _, cl := range res.Cells {
		if cl.Scenario != sc {
			continue
		}
		for _, r := range cl.Rows {
			if r.Status != statusCapped || r.Median != 0 || r.Cap <= 0 {
				continue
			}
			xy := plotter.XY{X: float64(cl.Shape.Total()), Y: float64(r.Cap) / 1e6}
			s, err := plotter.NewScatter(plotter.XYs{xy})
			if err != nil {
				return err
			}
			s.Shape, s.Radius, s.Color = draw.PyramidGlyph{}, vg.Points(5), st[r.C.Key].color
			p.Add(s)
			if len(pts) == 0 {
				leg.Add("killed at the cap (drawn at the cap, labelled)", s)
			}
			pts = append(pts, xy)
			labels = append(labels, r.C.Key)
			fit(xy.Y)
		}
	}
	// One label per point, stacked downwards where runs share a point.
	for i, xy := range pts {
		ls, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{xy}, Labels: labels[i : i+1]})
		if err != nil {
			return err
		}
		below := slices.Index(pts, xy) // the first label at this point
		ls.Offset = vg.Point{X: vg.Points(7), Y: -vg.Points(3 + 9*float64(i-below))}
		ls.TextStyle[0].Font.Size = vg.Points(7)
		p.Add(ls)
	}
	return nil
}

// movesPlot draws each contender's moves in the join and leave scenarios
// on the largest shape up to 10k partitions that ran them (plus one, on a
// log scale, so that zero shows), against the fewest moves possible. It
// reports whether there was anything to draw.
func movesPlot(res *results, path string) (bool, error) {
	var shape workload.Shape
	for _, cl := range res.Cells {
		if (hasHistory(cl.Scenario)) && cl.Shape.Total() <= 10_000 && cl.Shape.Total() > shape.Total() {
			shape = cl.Shape
		}
	}
	if shape.Total() == 0 {
		return false, nil
	}
	var names []string
	var keys []string
	for _, c := range res.Cfg.contenders {
		if !c.Floor && !c.Core {
			names = append(names, strings.NewReplacer("cooperative-sticky", "coop-sticky", " via sarama adapter", " (sarama adapter)").Replace(c.Name))
			keys = append(keys, c.Key)
		}
	}
	if len(keys) == 0 { // only core rows and floors: nothing to compare
		return false, nil
	}
	p := plot.New()
	p.Title.Text = "Moves after one member joins or leaves, " + shape.String() + " (topics x partitions / members)"
	p.Y.Label.Text = "partitions moved + 1 (log)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.NominalX(names...)
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign = draw.XRight
	leg := plot.NewLegend()
	hi := 1.0
	drawn := 0
	for i, sc := range []workload.Scenario{workload.Join, workload.Leave} {
		var cl *cell
		for _, c := range res.Cells {
			if c.Shape == shape && c.Scenario == sc {
				cl = c
			}
		}
		if cl == nil {
			continue
		}
		var pts, mins plotter.XYs
		for x, key := range keys {
			r := find(cl, key)
			if r == nil || r.Q == nil {
				continue
			}
			pts = append(pts, plotter.XY{X: float64(x), Y: float64(r.Q.Moves) + 1})
			hi = max(hi, float64(r.Q.Moves)+1)
			if r.Q.MinMoves >= 0 {
				mins = append(mins, plotter.XY{X: float64(x), Y: float64(r.Q.MinMoves) + 1})
			}
		}
		if len(pts) == 0 {
			continue
		}
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return false, err
		}
		s.Color, s.Shape, s.Radius = plotutil.Color(i), plotutil.Shape(i), vg.Points(5)
		p.Add(s)
		leg.Add(string(sc)+": moves", s)
		if len(mins) > 0 {
			m, err := plotter.NewScatter(mins)
			if err != nil {
				return false, err
			}
			m.Color, m.Shape, m.Radius = plotutil.Color(i), draw.CrossGlyph{}, vg.Points(6)
			p.Add(m)
			leg.Add(string(sc)+": fewest possible", m)
		}
		drawn++
	}
	if drawn == 0 {
		return false, nil
	}
	p.Y.Min, p.Y.Max = 0.8, hi*1.6
	return true, save(p, leg, 8*vg.Inch, 6*vg.Inch, path)
}
