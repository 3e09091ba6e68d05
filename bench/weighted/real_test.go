package main

import (
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// sarama's go-metrics meter goroutine never exits.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/rcrowley/go-metrics.(*meterArbiter).tick"))
}

// TestRealGroup runs the real-group experiment for 15 s of traffic (about
// 40 s in all; set ASSIGNOR_WEIGHTED_REAL=1): no overlapping claims, no
// record lost, the weighted group's lag bounded (at most four seconds of a
// member's capacity: the records fetched and queued in a member count as
// lag, and a loaded machine stalls both groups alike), and count-sticky's
// heaviest member, planned above its capacity, falling behind: its lag
// growing over the run, at the end above one second of capacity and twice
// the weighted group's worst.
func TestRealGroup(t *testing.T) {
	if os.Getenv("ASSIGNOR_WEIGHTED_REAL") == "" {
		t.Skip("set ASSIGNOR_WEIGHTED_REAL=1 to run a real group on kfake (about 40 s)")
	}
	cfg := defaultReal()
	cfg.Duration, cfg.Drain = 15*time.Second, 60*time.Second
	rs, err := runReal(cfg, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	bound := int64(4 * cfg.capacity())
	for _, r := range rs {
		t.Logf("%s: heaviest load %.2f of capacity, peak lag %v, final lag %v, records/s %v", r.Name, maxOf(r.Load), r.PeakLag, r.FinalLag, r.Mean)
		for _, o := range r.Overlaps {
			t.Errorf("%s: overlap: %s", r.Name, o)
		}
		if r.Lost != 0 || !r.Drained {
			t.Errorf("%s: %d records never processed (drained %v)", r.Name, r.Lost, r.Drained)
		}
	}
	count, weighted := rs[0], rs[1]
	if maxOf(weighted.Load) >= 1 {
		t.Fatalf("weighted plan puts a member at %.2f of its capacity; the experiment needs it below", maxOf(weighted.Load))
	}
	if lag := maxOf(weighted.PeakLag); lag > bound {
		t.Errorf("weighted: peak lag %d records, want at most %d (4 s of a member's capacity)", lag, bound)
	}
	if maxOf(count.Load) <= 1.05 {
		t.Skipf("count-sticky's plan happens to keep every member within its capacity (heaviest %.2f): nothing to compare", maxOf(count.Load))
	}
	n := len(count.Series)
	heaviest := 0
	for i, l := range count.Load {
		if l > count.Load[heaviest] {
			heaviest = i
		}
	}
	early, late := count.Series[n/3].Lag[heaviest], count.Series[n-1].Lag[heaviest]
	least := max(int64(cfg.capacity()), 2*maxOf(weighted.FinalLag))
	if late <= least || late <= early {
		t.Errorf("count-sticky: the member at %.2f of its capacity has lag %d after a third of the run and %d at the end; want it falling behind (growing, and above %d)",
			count.Load[heaviest], early, late, least)
	}
}
