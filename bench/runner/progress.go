package runner

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress counts the jobs done.
type progress interface {
	Add(n int) error
	Close() error
}

// newBar returns the progress on w: a redrawn bar on a terminal, plain
// lines otherwise (a CI log, a file, a pipe), where a bar's carriage
// returns would pile up.
func newBar(total int, w io.Writer) progress {
	if !isTerminal(w) {
		return &lines{w: w, total: total, start: time.Now(), every: 10 * time.Second}
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("bench"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetWidth(30),
		progressbar.OptionClearOnFinish(),
	)
}

// isTerminal reports whether w is a character device, as a terminal is.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// lines is progress as plain lines: one at most every interval, and one at
// the end.
type lines struct {
	w           io.Writer
	total, done int
	start, last time.Time
	every       time.Duration
}

func (l *lines) Add(n int) error {
	l.done += n
	if now := time.Now(); now.Sub(l.last) >= l.every && l.done < l.total {
		l.last = now
		l.print()
	}
	return nil
}

func (l *lines) Close() error {
	l.print()
	return nil
}

func (l *lines) print() {
	fmt.Fprintf(l.w, "bench: %d/%d jobs, %s\n", min(l.done, l.total), l.total, time.Since(l.start).Round(time.Second))
}
