package runner

import (
	"bytes"
	"strings"
	"testing"
)

// TestProgressPlainLines: progress is plain lines with no carriage return,
// and the last says every job is done.
func TestProgressPlainLines(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(3, &buf)
	for range 3 {
		p.add(1)
	}
	p.close()
	out := buf.String()
	if strings.Contains(out, "\r") {
		t.Errorf("carriage return in %q", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "bench: 3/3 jobs") {
		t.Errorf("last line %q, want bench: 3/3 jobs, …", last)
	}
}
