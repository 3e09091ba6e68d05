package runner

import (
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/kgroup/assignor/workload"
)

// timePlot draws median time against partitions, log-log, one line per
// contender, for scenario sc. It reports whether there was anything to draw.
func timePlot(res *results, sc workload.Scenario, path string) (bool, error) {
	p := plot.New()
	p.Title.Text = "Leader time vs partitions: " + string(sc)
	p.X.Label.Text = "partitions"
	p.Y.Label.Text = "median time (ms)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	drawn := 0
	for i, c := range res.Cfg.contenders {
		var xys plotter.XYs
		for _, cl := range res.Cells {
			if cl.Scenario != sc {
				continue
			}
			if r := find(cl, c.Key); r != nil && r.Median > 0 {
				xys = append(xys, plotter.XY{X: float64(cl.Shape.Total()), Y: float64(r.Median) / 1e6})
			}
		}
		if len(xys) == 0 {
			continue
		}
		l, s, err := plotter.NewLinePoints(xys)
		if err != nil {
			return false, err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i / 7)
		s.Color = l.Color
		s.Shape = plotutil.Shape(i)
		p.Add(l, s)
		p.Legend.Add(c.Name, l, s)
		drawn++
	}
	if drawn == 0 {
		return false, nil
	}
	var capped plotter.XYs
	for _, cl := range res.Cells {
		if cl.Scenario != sc {
			continue
		}
		for _, r := range cl.Rows {
			if r.Status == statusCapped && r.Median == 0 && r.Cap > 0 {
				capped = append(capped, plotter.XY{X: float64(cl.Shape.Total()), Y: float64(r.Cap) / 1e6})
			}
		}
	}
	if len(capped) > 0 {
		s, err := plotter.NewScatter(capped)
		if err != nil {
			return false, err
		}
		s.Shape, s.Radius = draw.PyramidGlyph{}, vg.Points(5)
		p.Add(s)
		p.Legend.Add("over the cap: killed (drawn at the cap)", s)
	}
	p.Y.Max *= 30 // room for the legend above the data
	return true, p.Save(9*vg.Inch, 6*vg.Inch, path)
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
	p := plot.New()
	p.Title.Text = "Moves after one member joins or leaves, " + shape.String()
	p.Y.Label.Text = "partitions moved + 1 (log)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.NominalX(names...)
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign = draw.XRight
	p.Legend.Top, p.Legend.Left = true, true
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
		p.Legend.Add(string(sc)+": moves", s)
		if len(mins) > 0 {
			m, err := plotter.NewScatter(mins)
			if err != nil {
				return false, err
			}
			m.Color, m.Shape, m.Radius = plotutil.Color(i), draw.CrossGlyph{}, vg.Points(6)
			p.Add(m)
			p.Legend.Add(string(sc)+": fewest possible", m)
		}
		drawn++
	}
	if drawn == 0 {
		return false, nil
	}
	p.Y.Max *= 30 // room for the legend above the data
	return true, p.Save(9*vg.Inch, 6*vg.Inch, path)
}
