package runner

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/bench/internal/measure"
	"github.com/kgroup/assignor/workload"
)

// kafkaRow is a measured row of contender key with quality q.
func kafkaRow(t *testing.T, key string, median time.Duration, q *measure.Quality) *row {
	t.Helper()
	c, ok := contender.Lookup(key)
	if !ok {
		t.Fatalf("no contender %q", key)
	}
	return &row{C: c, Status: statusOK, Median: median, Q: q}
}

// The Kafka section takes its ratios against the faster uniform row and
// against uniform plus the touch floor; the plans are judged in the
// quality report, against the optimum.
func TestKafkaSection(t *testing.T) {
	// 10 partitions over 3 members: 4, 3 and 3 at best (34); lazy gives 5, 3, 2.
	good := &measure.Quality{Valid: true, Uniform: true, Spread: 1, SumSq: 34, Moves: 5, MinMoves: 5}
	lazy := &measure.Quality{Valid: true, Uniform: true, Spread: 3, SumSq: 38, Moves: 5, MinMoves: 5}
	shape := workload.Shape{Topics: 2, Partitions: 5, Members: 3}
	opt := &measure.Balance{SumSq: 34, Spread: 1}
	cells := []*cell{
		{Shape: shape, Scenario: workload.Join, Opt: opt, Rows: []*row{
			kafkaRow(t, keyUniform, 4*time.Millisecond, good),
			kafkaRow(t, keyUniformHash, 2*time.Millisecond, good),
			kafkaRow(t, keyStickyOwned, 3*time.Millisecond, good),
			kafkaRow(t, keyCoopCore, 6*time.Millisecond, good),
			kafkaRow(t, keyTouch, time.Millisecond, nil),
		}},
		{Shape: shape, Scenario: workload.Fresh, Opt: opt, Rows: []*row{
			kafkaRow(t, keyUniform, 4*time.Millisecond, good),
			kafkaRow(t, keyStickyOwned, 2*time.Millisecond, lazy),
		}},
		{Shape: shape, Scenario: workload.Leave, Rows: []*row{kafkaRow(t, keyStickyOwned, time.Millisecond, good)}},
	}
	got := kafkaSection(&results{Cells: cells})
	for _, want := range []string{
		"| 2x5/3 (10) | join | 4ms | 2ms | – | – | 3ms | 6ms | 1ms | 1.50 | 1.00 | 2.00 |",
		"| 2x5/3 (10) | fresh | 4ms | – | – | – | 2ms | – | – | 0.50 | – | – |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks\n%s\nin\n%s", want, got)
		}
	}
	if strings.Contains(got, "leave") {
		t.Errorf("a cell without uniform has a row:\n%s", got)
	}
	if kafkaSection(&results{Cells: cells[2:]}) != "" {
		t.Error("a run without Kafka's rows has a Kafka section")
	}
	report := qualityReport(&results{Cells: cells})
	for _, want := range []string{
		"| 2x5/3 (10) | join | spread 1 | `kafka-uniform`, `kafka-uniform-hashmaps`, `ours-sticky-owned-core` | ok | 1 optimal | 5 (5) | – |",
		"|  |  |  | `ours-coop-core` | ok | 1 optimal | 5 (5) | 0 |",
		"| 2x5/3 (10) | fresh | spread 1 | `kafka-uniform` | ok | 1 optimal | – |",
		"|  |  |  | `ours-sticky-owned-core` | ok | 3 NOT optimal (optimum 1) | – |",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("quality report lacks\n%s\nin\n%s", want, report)
		}
	}
}

// A run of core rows and floors alone (as the comparison with Kafka's
// assignors is) writes its outputs: no moves plot, no panic.
func TestOutputsWithCoreRowsOnly(t *testing.T) {
	coop, _ := contender.Lookup(keyCoopCore)
	touch, _ := contender.Lookup(keyTouch)
	cfg := config{shapes: tiny[:1], scenarios: []workload.Scenario{workload.Join}, contenders: []contender.Contender{coop, touch},
		reps: 1, cap: 10 * time.Second, seed: 1}
	res := run(cfg, inProcess, &bytes.Buffer{})
	dir := t.TempDir()
	res.Cfg.out = dir
	if err := writeOutputs(dir, res); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "plots", "moves.png")); err == nil {
		t.Error("a moves plot without a contender to show")
	}
}
