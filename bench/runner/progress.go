package runner

import (
	"fmt"
	"io"
	"time"
)

// progress prints the jobs done as plain lines on w (a terminal, a CI log
// or a file alike): one at most every interval, and one at the end.
type progress struct {
	w           io.Writer
	total, done int
	start, last time.Time
	every       time.Duration
}

func newProgress(total int, w io.Writer) *progress {
	return &progress{w: w, total: total, start: time.Now(), every: 10 * time.Second}
}

// add counts n jobs done.
func (p *progress) add(n int) {
	p.done += n
	if now := time.Now(); now.Sub(p.last) >= p.every && p.done < p.total {
		p.last = now
		p.print()
	}
}

// close prints the last line.
func (p *progress) close() { p.print() }

func (p *progress) print() {
	fmt.Fprintf(p.w, "bench: %d/%d jobs, %s\n", min(p.done, p.total), p.total, time.Since(p.start).Round(time.Second))
}
