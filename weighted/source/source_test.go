package source

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/kgroup/assignor"
)

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// fetcher is a test fetch: it counts calls, answers weight base+partition
// for every partition asked (none for topic "gone"), or fails, or blocks
// until released.
type fetcher struct {
	mu      sync.Mutex
	calls   []string
	base    int64
	err     error
	release chan struct{}
}

func (f *fetcher) fetch(ctx context.Context, topics []assignor.TopicPartitions) (map[string]map[int32]int64, error) {
	f.mu.Lock()
	f.calls = append(f.calls, assignor.FormatTopicPartitions(topics))
	base, err, release := f.base, f.err, f.release
	f.mu.Unlock()
	if release != nil {
		<-release
	}
	if err != nil {
		return nil, err
	}
	out := map[string]map[int32]int64{}
	for _, tp := range topics {
		if tp.Topic == "gone" {
			continue
		}
		out[tp.Topic] = map[int32]int64{}
		for _, p := range tp.Partitions {
			if p != 2 { // partition 2 is never reported
				out[tp.Topic][p] = base + int64(p)
			}
		}
	}
	return out, nil
}

func (f *fetcher) callCount() int { f.mu.Lock(); defer f.mu.Unlock(); return len(f.calls) }

var ask = []assignor.TopicPartitions{{Topic: "a", Partitions: []int32{0, 1, 2}}, {Topic: "gone", Partitions: []int32{0}}}

func render(ws [][]int64) string { return fmt.Sprint(ws) }

// TestCache pins the cache's ages: fresh weights serve without a fetch,
// weights older than MaxAge are fetched again, a failed fetch leaves
// weights younger than StaleAge serving and older ones unknown;
// unreported partitions are unknown and unreported topics nil.
func TestCache(t *testing.T) {
	c := &clock{now: time.Unix(1000, 0)}
	f := &fetcher{base: 100}
	var logs []string
	s := New(f.fetch, Config{MaxAge: 30 * time.Second, StaleAge: time.Minute, Now: c.Now, Logf: func(format string, args ...any) {
		logs = append(logs, fmt.Sprintf(format, args...))
	}})
	steps := []struct {
		name      string
		advance   time.Duration
		base      int64
		err       error
		want      string
		wantCalls int
	}{
		{"first call fetches", 0, 100, nil, "[[100 101 -1] []]", 1},
		{"fresh: no fetch for a, gone is asked again", 10 * time.Second, 200, nil, "[[100 101 -1] []]", 2},
		{"older than MaxAge: fetched again", 25 * time.Second, 300, nil, "[[300 301 -1] []]", 3},
		{"failed fetch: the last weights serve", 40 * time.Second, 400, errors.New("broker down"), "[[300 301 -1] []]", 4},
		{"failed fetch past StaleAge: unknown", 30 * time.Second, 500, errors.New("broker down"), "[[] []]", 5},
		{"recovered", time.Second, 600, nil, "[[600 601 -1] []]", 6},
	}
	for _, st := range steps {
		c.add(st.advance)
		f.mu.Lock()
		f.base, f.err = st.base, st.err
		f.mu.Unlock()
		if got := render(s.Weights(ask)); got != st.want || f.callCount() != st.wantCalls {
			t.Fatalf("%s: %s after %d fetches, want %s after %d", st.name, got, f.callCount(), st.want, st.wantCalls)
		}
	}
	if !slices.Equal(f.calls[:2], []string{"a[0 1 2] gone[0]", "gone[0]"}) {
		t.Fatalf("fetched %v: only the stale and missing topics", f.calls)
	}
	if len(logs) != 2 {
		t.Fatalf("logs %q, want one per failed fetch", logs)
	}
}

// TestDeadline: a fetch that blocks past the deadline does not hold up
// Weights (the cache answers), no second fetch starts while it runs, and
// its late result fills the cache for the next call.
func TestDeadline(t *testing.T) {
	c := &clock{now: time.Unix(1000, 0)}
	f := &fetcher{base: 7, release: make(chan struct{})}
	s := New(f.fetch, Config{Deadline: 20 * time.Millisecond, Now: c.Now})
	start := time.Now()
	if got := render(s.Weights(ask)); got != "[[] []]" {
		t.Fatalf("blocked fetch: %s, want unknown", got)
	}
	if waited := time.Since(start); waited > 2*time.Second {
		t.Fatalf("Weights waited %v with a 20ms deadline", waited)
	}
	s.Weights(ask)
	if n := f.callCount(); n != 1 {
		t.Fatalf("%d fetches while one was running, want 1", n)
	}
	s.mu.Lock()
	done := s.inflight
	s.mu.Unlock()
	close(f.release)
	<-done
	f.mu.Lock()
	f.release = nil
	f.mu.Unlock()
	if got := render(s.Weights(ask)[:1]); got != "[[7 8 -1]]" {
		t.Fatalf("after the late fetch: %s", got)
	}
}
