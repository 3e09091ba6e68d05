package main

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor/bench/internal/e2e"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		wantErr string // empty: parses
		check   func(config) bool
	}{
		{[]string{"-client", "sarama"}, "", func(c config) bool { return c.runs == 3 && c.opts.Heartbeat == 0 }},
		{[]string{"-client", "franzgo", "-timing", "defaults", "-jitter"}, "", func(c config) bool {
			return c.opts.KgoHeartbeat == 3*time.Second && c.opts.Jitter == 3*time.Second
		}},
		{[]string{"-client", "sarama", "-timing", "300ms,3s,2s", "-idle"}, "", func(c config) bool {
			return c.opts.Heartbeat == 300*time.Millisecond && c.opts.Session == 3*time.Second && c.opts.RetryBackoff == 2*time.Second && c.opts.Rate < 0
		}},
		{[]string{"-client", "franzgo", "-only", "crash,kgo-coop"}, "", func(c config) bool { return len(c.only) == 2 }},
		{nil, `-client ""`, nil},
		{[]string{"-client", "java"}, `-client "java"`, nil},
		{[]string{"-client", "sarama", "-runs", "0"}, "-runs 0", nil},
		{[]string{"-client", "sarama", "-timing", "1s,2s"}, "want short, defaults", nil},
		{[]string{"-client", "sarama", "-timing", "1s,x,2s"}, `"x" is not a positive duration`, nil},
		{[]string{"-client", "sarama", "-only", "crash"}, "the sarama figures run every script", nil},
		{[]string{"-client", "sarama", "extra"}, `unexpected argument "extra"`, nil},
	} {
		c, err := parse(tc.args, io.Discard)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%q: %v", tc.args, err)
		case tc.wantErr == "" && !tc.check(c):
			t.Errorf("%q: parsed %+v", tc.args, c)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%q: error %v, want one containing %q", tc.args, err, tc.wantErr)
		}
	}
}

// A run breaks the figures when it failed, lost records or let two members
// hold a partition under our plan; a peer's overlap and an eviction window
// are the table's to report, not a failure of ours.
func TestVerdict(t *testing.T) {
	ours := e2e.Overlap{LeaderKinds: []string{"ours"}, Protocol: "cooperative-sticky"}
	peer := e2e.Overlap{LeaderKinds: []string{"sarama-coop"}, Protocol: "cooperative-sticky"}
	evicted := ours
	evicted.Evicted = true
	for _, tc := range []struct {
		name string
		rep  e2e.Report
		err  error
		want int
	}{
		{"clean", e2e.Report{Script: "crash", Kind: "ours"}, nil, 0},
		{"failed", e2e.Report{}, errors.New("no stable group"), 1},
		{"lost", e2e.Report{Script: "crash", Kind: "kgo-coop", Lost: 3}, nil, 1},
		{"our overlap", e2e.Report{Overlaps: []e2e.Overlap{ours}}, nil, 1},
		{"peer overlap and eviction", e2e.Report{Overlaps: []e2e.Overlap{peer, evicted}}, nil, 0},
	} {
		if got := verdict(tc.rep, tc.err); len(got) != tc.want {
			t.Errorf("%s: %q, want %d findings", tc.name, got, tc.want)
		}
	}
}
