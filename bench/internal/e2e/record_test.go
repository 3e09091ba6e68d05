package e2e

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/kgroup/assignor"
)

// The report is what the end-to-end suite asserts on; these tests pin its
// arithmetic on hand-made histories, so that "0 overlaps" cannot be a
// harness that never sees one.

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

// setOf returns the canonical set of tps.
func setOf(tps ...TP) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for _, tp := range tps {
		out = append(out, assignor.TopicPartitions{Topic: tp.Topic, Partitions: []int32{tp.Partition}})
	}
	return assignor.NormalizeTopicPartitions(out)
}

func TestReportOverlapsAndAttribution(t *testing.T) {
	r := newRecorder()
	a, b := TP{"t", 0}, TP{"t", 1}
	r.seenMemberID("A", "id-A")
	r.seenMemberID("B", "id-B")
	// Generation 1, led by A: A holds both partitions.
	r.sync(leaderSync{At: at(0), Generation: 1, Leader: "id-A", Protocol: "cooperative-sticky", Plan: map[string][]assignor.TopicPartitions{"id-A": setOf(a, b), "id-B": nil}})
	r.claimStart("A", "id-A", a, 1, at(10))
	r.claimStart("A", "id-A", b, 1, at(10))
	// Generation 2: kfake asked both to lead; B's plan (b to B) was applied,
	// as what B received shows. B starts t/1 before A stopped it.
	r.sync(leaderSync{At: at(500), Generation: 2, Leader: "id-A", Protocol: "cooperative-sticky", Plan: map[string][]assignor.TopicPartitions{"id-A": setOf(a), "id-B": nil}})
	r.sync(leaderSync{At: at(501), Generation: 2, Leader: "id-B", Protocol: "cooperative-sticky", Plan: map[string][]assignor.TopicPartitions{"id-A": setOf(a), "id-B": setOf(b)}})
	r.receive("B", 2, setOf(b))
	r.claimStart("B", "id-B", b, 2, at(600))
	r.claimEnd("A", b, at(700))

	rep := r.report(at(0), at(1000), map[string]string{"A": "ours", "B": "peer"}, nil, []TP{a, b}, nil, nil)
	if len(rep.Overlaps) != 1 {
		t.Fatalf("overlaps = %v, want one", rep.Overlaps)
	}
	o := rep.Overlaps[0]
	if o.TP != b || o.First.Member != "A" || o.Second.Member != "B" || !slices.Equal(o.LeaderKinds, []string{"peer"}) || o.Evicted {
		t.Fatalf("overlap = %+v", o)
	}
	ours := func(kind, _ string) bool { return kind == "ours" }
	if got := rep.OverlapsLedBy(ours); len(got) != 0 {
		t.Fatalf("a peer's plan counted as ours: %v", got)
	}
	if rep.MultiLeader != 1 || rep.Ambiguous != 0 || rep.Rebalances != 2 || rep.PlannedBy(ours) != 1 {
		t.Fatalf("multi-leader %d, ambiguous %d, rebalances %d, planned by ours %d", rep.MultiLeader, rep.Ambiguous, rep.Rebalances, rep.PlannedBy(ours))
	}
	// t/1 moved once (A → B); generation 2's plan left nothing unassigned.
	if rep.Moved != 1 || rep.Withheld != 0 {
		t.Fatalf("moved %d, withheld %d", rep.Moved, rep.Withheld)
	}
	// Unowned: t/0 from 0 to 10 ms, t/1 from 0 to 10 ms.
	if math.Abs(rep.UnownedSeconds-0.02) > 1e-9 {
		t.Fatalf("unowned %.3f s, want 0.020", rep.UnownedSeconds)
	}
}

func TestReportEvictionWindow(t *testing.T) {
	r := newRecorder()
	p := TP{"t", 0}
	r.sync(leaderSync{At: at(0), Generation: 1, Leader: "id-A", Plan: map[string][]assignor.TopicPartitions{"id-A": setOf(p)}})
	r.claimStart("A", "id-A", p, 1, at(0))
	// A is gone from generation 2 (evicted) but its handler still runs.
	r.sync(leaderSync{At: at(100), Generation: 2, Leader: "id-B", Plan: map[string][]assignor.TopicPartitions{"id-B": setOf(p)}})
	r.claimStart("B", "id-B", p, 2, at(200))
	r.claimEnd("A", p, at(300))
	rep := r.report(at(0), at(400), map[string]string{"A": "ours", "B": "ours"}, nil, []TP{p}, nil, nil)
	if len(rep.Overlaps) != 1 || !rep.Overlaps[0].Evicted {
		t.Fatalf("overlaps %+v, want one eviction window", rep.Overlaps)
	}
	if got := rep.OverlapsLedBy(func(string, string) bool { return true }); len(got) != 0 {
		t.Fatalf("an eviction window counted against the assignor: %v", got)
	}
}

func TestReportRecordsAndPauses(t *testing.T) {
	r := newRecorder()
	p := TP{"t", 0}
	for i, ms := range []int{0, 100, 500, 550} {
		r.consume("A", p, int64(i), at(ms))
	}
	r.consume("B", p, 1, at(600)) // a duplicate
	rep := r.report(at(0), at(1000), nil, nil, []TP{p},
		map[TP]int64{p: 5}, map[TP]int64{p: 4})
	if rep.Produced != 5 || rep.Consumed != 4 || rep.Lost != 1 || rep.Duplicates != 1 || len(rep.Uncommitted) != 1 {
		t.Fatalf("produced %d consumed %d lost %d duplicates %d uncommitted %v", rep.Produced, rep.Consumed, rep.Lost, rep.Duplicates, rep.Uncommitted)
	}
	if rep.LongestPause["A"] != 400*time.Millisecond {
		t.Fatalf("A's longest pause %v, want 400ms", rep.LongestPause["A"])
	}
}

func TestReportStaticIdentity(t *testing.T) {
	r := newRecorder()
	p := TP{"t", 0}
	r.seenMemberID("s-r0", "static-0-aaa")
	r.seenMemberID("s-r1", "static-0-bbb")
	r.sync(leaderSync{At: at(0), Generation: 1, Leader: "static-0-aaa", Plan: map[string][]assignor.TopicPartitions{"static-0-aaa": setOf(p)}})
	r.sync(leaderSync{At: at(10), Generation: 2, Leader: "static-0-bbb", Plan: map[string][]assignor.TopicPartitions{"static-0-bbb": setOf(p)}})
	inst := map[string]string{"s-r0": "static-0", "s-r1": "static-0"}
	if rep := r.report(at(0), at(20), nil, inst, []TP{p}, nil, nil); rep.Moved != 0 {
		t.Fatalf("a static member's restart counted %d moves", rep.Moved)
	}
	if rep := r.report(at(0), at(20), nil, nil, []TP{p}, nil, nil); rep.Moved != 1 {
		t.Fatalf("two dynamic members: %d moves, want 1", rep.Moved)
	}
}

// TestReportPausedRecords pins what a paused record is: one that waited on
// a partition a member held before that member processed its first record
// of it, counted for claims that began in the window.
func TestReportPausedRecords(t *testing.T) {
	p := TP{"t", 0}
	for _, tc := range []struct {
		name string
		run  func(r *recorder)
		want int
	}{
		{"a take-over: the backlog and what arrives while the new owner warms up", func(r *recorder) {
			// A holds p until 300; offsets 0–2 processed by A. Offsets 3–6
			// arrive at 350, 400, 700, 900; B holds p from 400 and
			// processes its first record (3) at 900.
			r.claimStart("A", "id-A", p, 1, at(-100))
			for i, ms := range []int{0, 100, 200} {
				r.produced(p, int64(i), at(ms-5))
				r.consume("A", p, int64(i), at(ms))
			}
			r.claimEnd("A", p, at(300))
			for i, ms := range []int{350, 400, 700, 900} {
				r.produced(p, int64(3+i), at(ms))
			}
			r.claimStart("B", "id-B", p, 2, at(400))
			for i, ms := range []int{900, 901, 902, 903} {
				r.consume("B", p, int64(3+i), at(ms))
			}
		}, 3}, // 3 (350), 4 (400), 5 (700); 6 arrived with the first record
		{"a claim that began before the window is not counted", func(r *recorder) {
			r.produced(p, 0, at(-50))
			r.claimStart("A", "id-A", p, 1, at(-10))
			r.consume("A", p, 0, at(50))
		}, 0},
		{"a claim that ends before its first record counts up to its end", func(r *recorder) {
			r.produced(p, 0, at(10))
			r.produced(p, 1, at(200))
			r.claimStart("A", "id-A", p, 1, at(5))
			r.claimEnd("A", p, at(100))
			r.claimStart("B", "id-B", p, 2, at(300))
			r.consume("B", p, 0, at(310))
			r.consume("B", p, 1, at(311))
		}, 1 + 2}, // A: offset 0; B: offsets 0 and 1
		{"records processed before the claim began do not count", func(r *recorder) {
			r.produced(p, 0, at(10))
			r.consume("A", p, 0, at(20))
			r.claimStart("B", "id-B", p, 2, at(30))
			r.consume("B", p, 0, at(40)) // a duplicate
		}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRecorder()
			tc.run(r)
			rep := r.report(at(0), at(1000), nil, nil, []TP{p}, nil, nil)
			if rep.PausedRecords != tc.want {
				t.Errorf("paused records %d, want %d", rep.PausedRecords, tc.want)
			}
		})
	}
}

// TestReportEvictionWithoutPlans: on an external broker's classic group no
// plan is known, so an overlap counts as an eviction window only when the
// first member was fenced (it rejoined with another member ID).
func TestReportEvictionWithoutPlans(t *testing.T) {
	p := TP{"t", 0}
	for _, tc := range []struct {
		name    string
		rejoin  bool
		evicted bool
	}{
		{"the first member was fenced and rejoined", true, true},
		{"no member was fenced", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRecorder()
			r.claimStart("A", "id-A", p, 1, at(0))
			r.claimStart("B", "id-B", p, 2, at(200))
			r.claimEnd("A", p, at(300))
			if tc.rejoin {
				r.seenMemberID("A", "id-A2")
			}
			rep := r.report(at(0), at(400), nil, nil, []TP{p}, nil, nil)
			if len(rep.Overlaps) != 1 || rep.Overlaps[0].Evicted != tc.evicted {
				t.Fatalf("overlaps %+v, want one with evicted %v", rep.Overlaps, tc.evicted)
			}
		})
	}
}
