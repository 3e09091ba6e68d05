package cli

import (
	"fmt"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

var (
	colorBefore = color.RGBA{R: 150, G: 150, B: 150, A: 255}
	colorAfter  = color.RGBA{R: 31, G: 119, B: 180, A: 255}
)

// plotWhatIf draws each member's load now and after the plan, side by
// side, to a PNG file.
func plotWhatIf(path string, w whatIf) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("group %s: load per member, %s now and %s after", w.Group, orDash(w.Current), w.Assignor)
	p.Y.Label.Text = "records/s"
	before, after := make(plotter.Values, len(w.Members)), make(plotter.Values, len(w.Members))
	names := make([]string, len(w.Members))
	for i, m := range w.Members {
		before[i], after[i], names[i] = m.LoadBefore, m.LoadAfter, m.Name
	}
	width := vg.Points(max(6, min(24, 400/float64(2*max(len(w.Members), 1)))))
	b0, err := plotter.NewBarChart(before, width)
	if err != nil {
		return err
	}
	b1, err := plotter.NewBarChart(after, width)
	if err != nil {
		return err
	}
	b0.Color, b0.LineStyle.Width = colorBefore, 0
	b1.Color, b1.LineStyle.Width = colorAfter, 0
	b0.Offset, b1.Offset = -width/2, width/2
	p.Add(b0, b1)
	mean := w.Before.LoadMean
	if line, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: mean}, {X: float64(len(w.Members)) - 0.5, Y: mean}}); err == nil {
		line.Color, line.Dashes = color.Black, []vg.Length{vg.Points(4), vg.Points(4)}
		p.Add(line)
		p.Legend.Add("mean", line)
	}
	p.Legend.Add(orDash(w.Current)+" now", b0)
	p.Legend.Add(w.Assignor+" after", b1)
	top := 0.0
	for i := range before {
		top = max(top, before[i], after[i])
	}
	p.Y.Min, p.Y.Max = 0, 1.3*max(top, 1) // room for the legend
	p.Legend.Top = true
	p.NominalX(names...)
	p.X.Tick.Label.Rotation = 0.5
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = -0.9, -0.5
	return p.Save(vg.Length(max(6, min(16, 0.5*float64(len(w.Members))+3)))*vg.Inch, 4.5*vg.Inch, path)
}

// lagSeries is one member's lag over a watch.
type lagSeries struct {
	name string
	xys  plotter.XYs
}

// lagPlot collects lag events for plotWatch.
type lagPlot struct {
	group  string
	series map[string]*lagSeries
	marks  []float64 // elapsed seconds of each new Stable assignment
}

func newLagPlot(group string) *lagPlot {
	return &lagPlot{group: group, series: map[string]*lagSeries{}}
}

// add takes one event of the timeline.
func (l *lagPlot) add(e event) {
	switch e.Kind {
	case eventLag:
		for n, lag := range e.Lag {
			s := l.series[n]
			if s == nil {
				s = &lagSeries{name: n}
				l.series[n] = s
			}
			if lag >= 0 {
				s.xys = append(s.xys, plotter.XY{X: e.Elapsed, Y: float64(lag)})
			}
		}
	case eventStable, eventJump:
		l.marks = append(l.marks, e.Elapsed)
	}
}

// save draws lag per member over time, with a dotted vertical line at each
// new assignment, to a PNG file.
func (l *lagPlot) save(path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("group %s: lag per member (dotted: a new assignment seen)", l.group)
	p.X.Label.Text = "seconds"
	p.Y.Label.Text = "records behind the end"
	names := make([]string, 0, len(l.series))
	for n := range l.series {
		names = append(names, n)
	}
	slices.Sort(names)
	top := 1.0
	for _, s := range l.series {
		for _, xy := range s.xys {
			top = max(top, xy.Y)
		}
	}
	for _, x := range l.marks {
		m, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: top}})
		if err != nil {
			return err
		}
		m.Color, m.Dashes, m.Width = colorBefore, []vg.Length{vg.Points(1), vg.Points(3)}, vg.Points(0.7)
		p.Add(m)
	}
	for i, n := range names {
		s := l.series[n]
		if len(s.xys) == 0 {
			continue
		}
		line, err := plotter.NewLine(s.xys)
		if err != nil {
			return err
		}
		line.Color, line.Dashes = plotutil.Color(i), plotutil.Dashes(i/7)
		p.Add(line)
		p.Legend.Add(n, line)
	}
	p.X.Min, p.Y.Min = 0, 0
	p.Legend.Top, p.Legend.Left = true, true
	return p.Save(10*vg.Inch, 4.5*vg.Inch, path)
}
