package kgoassignor

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/weighted"
)

// driftGroup is two members on t (four partitions), a owning t/0 and t/1,
// b owning t/2 and t/3, with weights w.
func driftGroup(w ...int64) assignor.Group {
	return assignor.Group{
		Topics: []assignor.Topic{{Name: "t", Partitions: assignor.Partitions(4), Weights: w}},
		Members: []assignor.Member{
			{ID: "a", Topics: []string{"t"}, Generation: 3, Owned: tps("t", []int32{0, 1})},
			{ID: "b", Topics: []string{"t"}, Generation: 3, Owned: tps("t", []int32{2, 3})},
		},
	}
}

// TestDriftWatcher pins the watcher's decisions: no rebalance while the
// owned plan is within the margin, one when the weights drift past it,
// none again within MinInterval, and a failed Group is logged, never
// forced on.
func TestDriftWatcher(t *testing.T) {
	var group assignor.Group
	var groupErr error
	now := time.Unix(0, 0)
	forced := 0
	var l logs
	w := newDriftWatcher(weighted.New(), DriftConfig{
		Group:       func(context.Context) (assignor.Group, error) { return group, groupErr },
		MinInterval: 10 * time.Minute,
		Logger:      l.loggerAt(slog.LevelInfo),
	}, func() { forced++ }, func() time.Time { return now })
	steps := []struct {
		name    string
		advance time.Duration
		group   assignor.Group
		err     error
		want    bool
	}{
		{"balanced", time.Minute, driftGroup(10, 10, 10, 10), nil, false},
		{"within the margin", time.Minute, driftGroup(11, 10, 10, 10), nil, false},
		{"t/0 turned hot", time.Minute, driftGroup(100, 90, 10, 10), nil, true},
		{"still hot, within MinInterval", 5 * time.Minute, driftGroup(100, 90, 10, 10), nil, false},
		{"still hot, MinInterval passed", 6 * time.Minute, driftGroup(100, 90, 10, 10), nil, true},
		{"group unreadable", 11 * time.Minute, assignor.Group{}, errors.New("coordinator moved"), false},
	}
	for _, st := range steps {
		now = now.Add(st.advance)
		group, groupErr = st.group, st.err
		if got := w.step(context.Background()); got != st.want {
			t.Fatalf("%s: forced %v, want %v", st.name, got, st.want)
		}
	}
	if logs := l.all(); forced != 2 || len(logs) != 3 {
		t.Fatalf("forced %d rebalances and logged %d lines, want 2 and 3: %q", forced, len(logs), logs)
	}
}

// TestWatchDriftNeedsGroup: WatchDrift without DriftConfig.Group returns
// an error at once.
func TestWatchDriftNeedsGroup(t *testing.T) {
	if err := WatchDrift(context.Background(), nil, weighted.New(), DriftConfig{}); err == nil {
		t.Fatal("no error")
	}
}
