package main

import (
	"context"
	"io"
	"testing"
	"time"
)

// TestRun runs the script on its embedded cluster, two members over four
// partitions with short timings and a short warm-up, with each protocol,
// and checks what users of a group rely on: no partition is held by two
// members at once, every record produced is consumed, every partition and
// every member consumes; and cooperative restarts fewer partitions than
// eager, which restarts every partition on every rebalance.
func TestRun(t *testing.T) {
	taken := map[bool]int{}
	for _, eager := range []bool{false, true} {
		o := fastOptions()
		o.eager = eager
		t.Run(o.protocol(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
			defer cancel()
			s, err := run(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			if s.overlaps != 0 {
				t.Errorf("%d times a member took a partition another member held", s.overlaps)
			}
			if s.produced == 0 || s.lost != 0 {
				t.Errorf("produced %d records, %d never consumed", s.produced, s.lost)
			}
			if len(s.partitions) != o.partitions {
				t.Errorf("records consumed from %d partitions, want %d", len(s.partitions), o.partitions)
			}
			for _, m := range s.members {
				if m.records == 0 {
					t.Errorf("%s consumed nothing", m.name)
				}
			}
			for _, p := range s.partitions {
				taken[eager] += p.taken
			}
		})
	}
	if taken[false] >= taken[true] {
		t.Errorf("partitions taken after the first join: cooperative %d, eager %d; want fewer with cooperative", taken[false], taken[true])
	}
}

// fastOptions are the script's options with timings short enough for a
// test of a few seconds.
func fastOptions() options {
	o := defaults()
	o.partitions, o.members, o.group, o.log = 4, 2, "example-test", io.Discard
	o.hold, o.warmup = 300*time.Millisecond, 200*time.Millisecond
	o.heartbeat, o.session, o.backoff, o.maxWait = 300*time.Millisecond, 3*time.Second, 100*time.Millisecond, 100*time.Millisecond
	return o
}

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		name   string
		sorted []float64
		want   float64
	}{
		{"one", []float64{3}, 3},
		{"odd: the middle one", []float64{1, 2, 9}, 2},
		{"even: the mean of the middle two", []float64{1, 2, 4, 9}, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := median(tt.sorted); got != tt.want {
				t.Errorf("median(%v) = %v, want %v", tt.sorted, got, tt.want)
			}
		})
	}
}
