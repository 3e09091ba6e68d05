package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// summaryLine is the last line of watch -json.
type summaryLine struct {
	Kind string `json:"kind"` // "summary"
	watchSummary
}

// runWatch polls the group every interval and prints the timeline, then
// the accounting. With -demo it restarts the demo's members in turn while
// it watches.
func runWatch(ctx context.Context, o options, stdout, stderr io.Writer) error {
	a, d, done, err := connect(ctx, &o, stderr)
	if err != nil {
		return err
	}
	defer done()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if o.duration > 0 {
		var c context.CancelFunc
		ctx, c = context.WithTimeout(ctx, o.duration)
		defer c()
	}
	restartDone := make(chan error, 1)
	if d != nil {
		restarted := make(chan struct{})
		defer func() { cancel(); <-restarted }() // the demo closes after its restart stops
		go func() {
			defer close(restarted)
			select {
			case <-ctx.Done():
				return
			case <-time.After(2 * time.Second):
			}
			fmt.Fprintln(stderr, "demo: rolling restart of every member, one at a time")
			err := d.RollingRestart(ctx, time.Second)
			if err == nil {
				fmt.Fprintln(stderr, "demo: rolling restart done")
			}
			restartDone <- err
		}()
	}
	w := &watcher{a: a, o: o, out: stdout, t: newTracker(time.Now()), lags: newLagPlot(o.group)}
	if !o.json {
		fmt.Fprintf(stdout, "watching group %s every %v (read-only; Ctrl-C to stop)\n\n", o.group, o.interval)
	}
	tick := time.NewTicker(o.interval)
	defer tick.Stop()
	var demoErr error
	var stopAt <-chan time.Time
	for {
		if err := w.poll(ctx); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return w.finish(o.plot, stderr, demoErr)
		case <-stopAt:
			return w.finish(o.plot, stderr, demoErr)
		case err := <-restartDone:
			demoErr = err
			if o.duration == 0 || err != nil {
				stopAt = time.After(3 * time.Second)
			}
		case <-tick.C:
		}
	}
}

// watcher is one watch: the tracker and where its events go.
type watcher struct {
	a       *admin
	o       options
	out     io.Writer
	t       *tracker
	prev    *snapshot
	lags    *lagPlot
	lastLag time.Time
}

// poll takes one snapshot and prints its events. A failed poll is an
// event, not the end of the watch; a write error ends it.
func (w *watcher) poll(ctx context.Context) error {
	pctx, cancel := context.WithTimeout(ctx, w.o.timeout)
	s, err := w.a.snap(pctx, w.o.group, 0, w.prev)
	cancel()
	if ctx.Err() != nil {
		return nil
	}
	var events []event
	if err != nil {
		events = []event{w.t.fail(time.Now(), err)}
	} else {
		w.prev = &s
		events = w.t.observe(observe(newView(s)))
	}
	for _, e := range events {
		w.lags.add(e)
		if err := w.print(e); err != nil {
			return err
		}
	}
	return nil
}

func (w *watcher) print(e event) error {
	if w.o.json {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w.out, "%s\n", b)
		return err
	}
	if e.Kind == eventLag {
		if e.At.Sub(w.lastLag) < w.o.lagEvery {
			return nil
		}
		w.lastLag = e.At
	}
	return renderEvent(w.out, e)
}

// finish prints the accounting and draws the plot.
func (w *watcher) finish(plotPath string, stderr io.Writer, demoErr error) error {
	s := w.t.summary()
	var err error
	if w.o.json {
		var b []byte
		if b, err = json.Marshal(summaryLine{Kind: "summary", watchSummary: s}); err == nil {
			_, err = fmt.Fprintf(w.out, "%s\n", b)
		}
	} else {
		err = renderSummary(w.out, s)
	}
	if err != nil {
		return err
	}
	if plotPath != "" {
		if err := w.lags.save(plotPath); err != nil {
			return fmt.Errorf("-plot %s: %w", plotPath, err)
		}
		fmt.Fprintf(stderr, "plot: %s\n", plotPath)
	}
	if demoErr != nil {
		return fmt.Errorf("demo rolling restart: %w", demoErr)
	}
	return nil
}
