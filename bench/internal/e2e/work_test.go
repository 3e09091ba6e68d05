package e2e

import (
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// fetchesOf builds polled records: offsets of each partition of topic t.
func fetchesOf(offsets map[int32][]int64) kgo.Fetches {
	var ft kgo.FetchTopic
	ft.Topic = "t"
	for p, offs := range offsets {
		fp := kgo.FetchPartition{Partition: p}
		for _, o := range offs {
			fp.Records = append(fp.Records, &kgo.Record{Topic: "t", Partition: p, Offset: o})
		}
		ft.Partitions = append(ft.Partitions, fp)
	}
	return kgo.Fetches{{Topics: []kgo.FetchTopic{ft}}}
}

// TestWorkerTakeover pins the work model: a partition new to the member
// waits Work.Takeover before its first record while the others go on; an
// eager member that gets a partition back does not pay again; a revoke
// drops what was polled.
func TestWorkerTakeover(t *testing.T) {
	takeover := 500 * time.Millisecond
	m := &Member{h: &Harness{opts: Options{Work: Work{Takeover: takeover}}}, owned: map[TP]bool{}, work: newWorker()}
	p0, p1, p2 := TP{"t", 0}, TP{"t", 1}, TP{"t", 2}
	assign := func(now time.Time, tps ...TP) {
		m.mu.Lock()
		defer m.mu.Unlock()
		for _, tp := range tps {
			m.owned[tp] = true
		}
		m.assignedLocked(tps, now)
	}
	revoke := func(tps ...TP) {
		m.mu.Lock()
		defer m.mu.Unlock()
		for _, tp := range tps {
			delete(m.owned, tp)
			m.revokedLocked(tp)
		}
	}
	next := func(now time.Time) (TP, int64, time.Time) {
		r, wake := m.nextRecord(now)
		if r == nil {
			return TP{}, -1, wake
		}
		return TP{r.Topic, r.Partition}, r.Offset, wake
	}

	// A first assignment: everything is new.
	assign(at(0), p0)
	m.enqueue(fetchesOf(map[int32][]int64{0: {0}}))
	if tp, _, wake := next(at(100)); tp != (TP{}) || !wake.Equal(at(500)) {
		t.Fatalf("before the take-over: got %v, wake %v; want nothing until 500ms", tp, wake)
	}
	if tp, off, _ := next(at(500)); tp != p0 || off != 0 {
		t.Fatalf("after the take-over: got %v@%d, want t/0@0", tp, off)
	}
	// A cooperative round adds p1: p0 goes on while p1 warms up.
	assign(at(1000), p1)
	m.enqueue(fetchesOf(map[int32][]int64{0: {1}, 1: {0}}))
	if tp, off, _ := next(at(1100)); tp != p0 || off != 1 {
		t.Fatalf("held partition: got %v@%d, want t/0@1", tp, off)
	}
	if tp, _, wake := next(at(1100)); tp != (TP{}) || !wake.Equal(at(1500)) {
		t.Fatalf("new partition: got %v, wake %v; want nothing until 1.5s", tp, wake)
	}
	// An eager rebalance: everything revoked (the polled record of p1 is
	// dropped), then p0 and p2 assigned: p0 was held, p2 is new.
	revoke(p0, p1)
	if tp, _, wake := next(at(2000)); tp != (TP{}) || !wake.IsZero() {
		t.Fatalf("after the revoke: got %v, wake %v; want nothing queued", tp, wake)
	}
	assign(at(2000), p0, p2)
	m.enqueue(fetchesOf(map[int32][]int64{0: {2}, 2: {0}}))
	if tp, off, _ := next(at(2001)); tp != p0 || off != 2 {
		t.Fatalf("partition held before the eager revoke: got %v@%d, want t/0@2 at once", tp, off)
	}
	if tp, _, wake := next(at(2001)); tp != (TP{}) || !wake.Equal(at(2500)) {
		t.Fatalf("new partition after the eager revoke: got %v, wake %v", tp, wake)
	}
	// p1, revoked before this assignment, is no longer warm.
	assign(at(3000), p1)
	m.enqueue(fetchesOf(map[int32][]int64{1: {1}}))
	if tp, _, wake := next(at(3000)); tp != p2 || !wake.IsZero() {
		t.Fatalf("got %v, wake %v; want t/2's record (ready since 2.5s)", tp, wake)
	}
	if tp, _, wake := next(at(3000)); tp != (TP{}) || !wake.Equal(at(3500)) {
		t.Fatalf("partition revoked two assignments ago: got %v, wake %v; want a new take-over", tp, wake)
	}
}
