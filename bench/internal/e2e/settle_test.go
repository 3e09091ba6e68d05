package e2e

import (
	"slices"
	"testing"
	"time"
)

// TestSettleTimes pins what a settle time is: from the first event since the
// group was last stable to the moment it reached the state it kept, counted
// only inside the measured window.
func TestSettleTimes(t *testing.T) {
	h := &Harness{}
	h.eventAt = at(0) // before the window: not counted, but it ends
	h.settled(at(100))
	if !h.eventAt.IsZero() || len(h.settles) != 0 {
		t.Fatalf("before the window: eventAt %v, settles %v", h.eventAt, h.settles)
	}
	h.from = at(200)
	h.settled(at(250)) // no event: nothing to end
	h.eventAt = at(300)
	h.eventLocked() // a second event while one runs keeps the first's start
	h.settled(at(1300))
	h.eventAt = at(2000)
	h.settled(at(1900)) // stable before the event was noted: 0, never negative
	h.to = at(5000)
	h.eventAt = at(6000) // after the window: not counted
	h.settled(at(7000))
	if want := []time.Duration{time.Second, 0}; !slices.Equal(h.settles, want) {
		t.Errorf("settles %v, want %v", h.settles, want)
	}
}

func TestReportSettleMedianAndMax(t *testing.T) {
	for _, tc := range []struct {
		settles     []time.Duration
		median, max time.Duration
	}{
		{nil, 0, 0},
		{[]time.Duration{3 * time.Second, time.Second, 2 * time.Second}, 2 * time.Second, 3 * time.Second},
		{[]time.Duration{time.Second}, time.Second, time.Second},
	} {
		r := Report{Settles: tc.settles}
		before := slices.Clone(tc.settles)
		if got := r.MedianSettle(); got != tc.median {
			t.Errorf("%v: median %v, want %v", tc.settles, got, tc.median)
		}
		if got := r.MaxSettle(); got != tc.max {
			t.Errorf("%v: max %v, want %v", tc.settles, got, tc.max)
		}
		if !slices.Equal(r.Settles, before) {
			t.Errorf("MedianSettle reordered the report's settles: %v", r.Settles)
		}
	}
}
