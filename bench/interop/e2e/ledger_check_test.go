package e2e

import (
	"math"
	"testing"
	"time"
)

// TestLedgerAnalyse holds the checks the real-broker scenarios rely on to synthetic histories,
// so that they run (and can fail) without a broker.
func TestLedgerAnalyse(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	a0 := topicPartition{"a", 0}
	a1 := topicPartition{"a", 1}

	// build: m1 (ours, which led generation 1) holds a0 from 0 ms to release, m2 (java) from
	// take on, in generation 2, which a member of leaderKind led; a1 stays with m1; one record
	// per partition, a0's consumed and committed as given.
	type history struct {
		release, take int
		leaderKind    string // "" when no member was seen to lead generation 2
		consumedA0    []string
		committedA0   int64
	}
	build := func(h history) report {
		l := newLedger()
		l.start = t0
		l.member("m1", kindOurs)
		l.member("m2", kindJava)
		l.ledBy(1, "m1", kindOurs)
		l.claimStart("m1", a0, 1, at(0))
		l.claimStart("m1", a1, 1, at(0))
		l.produce(a0, 0)
		l.produce(a1, 0)
		l.consume("m1", a1, 1, []int64{0}, at(10))
		for _, m := range h.consumedA0 {
			if m == "m1" {
				l.consume("m1", a0, 1, []int64{0}, at(20))
			}
		}
		l.claimEnd("m1", a0, at(h.release))
		switch h.leaderKind {
		case kindOurs:
			l.ledBy(2, "m1", kindOurs)
		case kindJava:
			l.ledBy(2, "m2", kindJava)
		}
		l.claimStart("m2", a0, 2, at(h.take))
		for _, m := range h.consumedA0 {
			if m == "m2" {
				l.consume("m2", a0, 2, []int64{0}, at(h.take+10))
			}
		}
		return l.analyse("synthetic", at(2000), map[topicPartition]int64{a0: h.committedA0, a1: 1})
	}

	tests := []struct {
		name string
		h    history
		// want
		overlaps, oursOverlaps, lost, uncommitted, duplicates, moves int
		unowned                                                      float64
		ledBy                                                        map[string]int
	}{
		{
			name:  "a clean handover: released before taken, nothing lost, the gap is unowned time",
			h:     history{release: 500, take: 800, leaderKind: kindOurs, consumedA0: []string{"m1"}, committedA0: 1},
			moves: 1, unowned: 0.3, ledBy: map[string]int{kindOurs: 2},
		},
		{
			name:     "taken before released under our leader: an overlap that fails the scenario",
			h:        history{release: 900, take: 800, leaderKind: kindOurs, consumedA0: []string{"m1"}, committedA0: 1},
			overlaps: 1, oursOverlaps: 1, moves: 1, ledBy: map[string]int{kindOurs: 2},
		},
		{
			name:     "taken before released under a Java leader: an overlap that is only reported",
			h:        history{release: 900, take: 800, leaderKind: kindJava, consumedA0: []string{"m1"}, committedA0: 1},
			overlaps: 1, moves: 1, ledBy: map[string]int{kindOurs: 1, kindJava: 1},
		},
		{
			name:     "a generation nobody was seen to lead is not ours",
			h:        history{release: 900, take: 800, consumedA0: []string{"m1"}, committedA0: 1},
			overlaps: 1, moves: 1, ledBy: map[string]int{kindOurs: 1, "unseen": 1},
		},
		{
			name: "a record nobody consumed is lost, and its partition uncommitted",
			h:    history{release: 500, take: 500, leaderKind: kindOurs, committedA0: 0},
			lost: 1, uncommitted: 1, moves: 1, ledBy: map[string]int{kindOurs: 2},
		},
		{
			name:       "a record consumed by both owners is one duplicate",
			h:          history{release: 500, take: 500, leaderKind: kindOurs, consumedA0: []string{"m1", "m2"}, committedA0: 1},
			duplicates: 1, moves: 1, ledBy: map[string]int{kindOurs: 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := build(tt.h)
			ours := 0
			for _, o := range r.overlaps {
				if o.ours {
					ours++
				}
			}
			if len(r.overlaps) != tt.overlaps || ours != tt.oursOverlaps {
				t.Errorf("overlaps = %d (ours %d), want %d (ours %d): %v", len(r.overlaps), ours, tt.overlaps, tt.oursOverlaps, r.overlaps)
			}
			if r.lost != tt.lost || r.uncommitted != tt.uncommitted || r.duplicates != tt.duplicates || r.moves != tt.moves {
				t.Errorf("lost, uncommitted, duplicates, moves = %d, %d, %d, %d, want %d, %d, %d, %d",
					r.lost, r.uncommitted, r.duplicates, r.moves, tt.lost, tt.uncommitted, tt.duplicates, tt.moves)
			}
			if math.Abs(r.unownedSeconds-tt.unowned) > 1e-9 {
				t.Errorf("unowned = %.3f partition-s, want %.3f", r.unownedSeconds, tt.unowned)
			}
			if len(r.ledBy) != len(tt.ledBy) {
				t.Errorf("led by %v, want %v", r.ledBy, tt.ledBy)
			}
			for k, n := range tt.ledBy {
				if r.ledBy[k] != n {
					t.Errorf("led by %v, want %v", r.ledBy, tt.ledBy)
				}
			}
			if r.produced != 2 || r.rebalances != 1 {
				t.Errorf("produced %d, rebalances %d, want 2 and 1", r.produced, r.rebalances)
			}
		})
	}
}

// TestLedgerProblems: claims that contradict each other are reported as problems.
func TestLedgerProblems(t *testing.T) {
	l := newLedger()
	tp := topicPartition{"a", 0}
	now := time.Now()
	l.claimStart("m1", tp, 1, now)
	l.claimStart("m1", tp, 2, now) // claimed twice
	l.claimEnd("m2", tp, now)      // released without a claim
	l.consume("m3", tp, 1, []int64{0}, now)
	if got := len(l.problems); got != 3 {
		t.Fatalf("problems = %d, want 3: %q", got, l.problems)
	}
}
