package saramaassignor

import (
	"log/slog"
	"slices"
	"strings"
	"sync"
)

// discard is a logger that drops everything.
var discard = slog.New(slog.DiscardHandler)

// logs collects a logger's records, one line each: level, message and
// attributes, "WARN \"a member has an empty member ID; assigned nothing\"
// adapter=saramaassignor assignor=x".
type logs struct {
	mu    sync.Mutex
	lines []string
}

// logger returns a logger, at warning level, whose records l collects.
func (l *logs) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(logWriter{l}, &slog.HandlerOptions{
		Level: slog.LevelWarn,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			switch {
			case len(groups) > 0:
			case a.Key == slog.TimeKey:
				return slog.Attr{}
			case a.Key == slog.LevelKey, a.Key == slog.MessageKey:
				return slog.String(a.Key, a.Value.String())
			}
			return a
		},
	}))
}

// logWriter appends each line a text handler writes to the logs.
type logWriter struct{ l *logs }

func (w logWriter) Write(p []byte) (int, error) {
	line := strings.TrimSuffix(string(p), "\n")
	line = strings.Replace(strings.TrimPrefix(line, "level="), " msg=", " ", 1)
	w.l.mu.Lock()
	defer w.l.mu.Unlock()
	w.l.lines = append(w.l.lines, line)
	return len(p), nil
}

func (l *logs) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lines)
}

// count returns how many lines contain s.
func (l *logs) count(s string) int {
	n := 0
	for _, line := range l.all() {
		if strings.Contains(line, s) {
			n++
		}
	}
	return n
}
