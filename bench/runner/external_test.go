package runner

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/workload"
)

// selfTimedRunner stands for a contender timed outside the program (a
// JVM): it reports the runs it was given and a round-robin plan.
type selfTimedRunner struct {
	runs  []contender.TimedRun
	err   error
	group assignor.Group
	plan  assignor.Plan
	leads int
}

func (r *selfTimedRunner) Prepare(topics []assignor.Topic, members []contender.MemberJoin, _ int32) error {
	r.group = assignor.Group{Topics: topics}
	for _, m := range members {
		r.group.Members = append(r.group.Members, assignor.Member{ID: m.ID, Topics: m.Topics, Owned: m.Owned, Generation: m.Generation})
	}
	return nil
}

func (r *selfTimedRunner) assign() error {
	var err error
	r.plan, err = roundrobin.New().Assign(r.group)
	return err
}

func (r *selfTimedRunner) Lead() error { r.leads++; return r.assign() }

func (r *selfTimedRunner) Measure(time.Duration) ([]contender.TimedRun, error) {
	if r.err != nil {
		return nil, r.err
	}
	return r.runs, r.assign()
}

func (r *selfTimedRunner) Result() ([]contender.Assignment, error) {
	var out []contender.Assignment
	for _, mp := range r.plan.Members {
		out = append(out, contender.Assignment{Member: mp.Member, Partitions: mp.Assigned})
	}
	return out, nil
}

func init() {
	contender.Register(contender.Contender{Key: "test-selftimed", Name: "test self-timed", Family: "test", Core: true, Order: 1002,
		New: func() contender.Runner {
			return &selfTimedRunner{runs: []contender.TimedRun{{Nanos: 30_000, AllocBytes: 3}, {Nanos: 10_000, AllocBytes: 1}, {Nanos: 20_000, AllocBytes: 2, GCs: 1}}}
		}})
	contender.Register(contender.Contender{Key: "test-selftimed-capped", Name: "test self-timed over the cap", Family: "test", Core: true, Order: 1003,
		New: func() contender.Runner {
			return &selfTimedRunner{err: errors.Join(errors.New("a run took 9s"), contender.ErrOverCap)}
		}})
}

// A self-timed contender's row holds the median of the runs it reported
// (not the time Go spent around it), its plan is judged as any other, and
// a run over the cap it reports makes the row "> cap".
func TestSelfTimed(t *testing.T) {
	timed, _ := contender.Lookup("test-selftimed")
	capped, _ := contender.Lookup("test-selftimed-capped")
	cfg := config{shapes: tiny[:1], scenarios: []workload.Scenario{workload.Fresh, workload.Join}, contenders: []contender.Contender{timed, capped},
		reps: 2, cap: 10 * time.Second, seed: 1}
	res := run(cfg, inProcess, &bytes.Buffer{})
	for _, cl := range res.Cells {
		r := find(cl, "test-selftimed")
		if r.Status != statusOK || len(r.Times) != 2 || r.Times[0] != 20*time.Microsecond || r.Allocs[0] != 2 || r.GCs[0] != 1 {
			t.Errorf("%s: status %q (%s), times %v, allocs %v, gcs %v; want the median run, 20µs", cl.Scenario, r.Status, r.Note, r.Times, r.Allocs, r.GCs)
		}
		if r.Q == nil || !r.Q.Valid {
			t.Errorf("%s: plan not judged valid: %+v", cl.Scenario, r.Q)
		}
		if r := find(cl, "test-selftimed-capped"); r.Status != statusCapped {
			t.Errorf("%s: capped contender: status %q (%s), want capped", cl.Scenario, r.Status, r.Note)
		}
	}
}

// setUp keeps the contenders whose Setup succeeds (or that have none) and
// drops the others with one line per distinct failure, naming them.
func TestSetUp(t *testing.T) {
	calls := 0
	ok := func(io.Writer) error { calls++; return nil }
	missing := func(io.Writer) error { calls++; return errors.New("java not found") }
	cs := []contender.Contender{
		{Key: "plain"},
		{Key: "jvm-a", Setup: missing},
		{Key: "works", Setup: ok},
		{Key: "jvm-b", Setup: missing},
	}
	var log bytes.Buffer
	kept := setUp(cs, &log)
	var keys []string
	for _, c := range kept {
		keys = append(keys, c.Key)
	}
	if strings.Join(keys, ",") != "plain,works" {
		t.Errorf("kept %v, want plain and works", keys)
	}
	if got, want := log.String(), "bench: not running jvm-a, jvm-b: java not found\n"; got != want {
		t.Errorf("log %q, want %q", got, want)
	}
	if calls != 3 {
		t.Errorf("%d Setup calls, want 3", calls)
	}
}

// -quick leaves the JVM contenders out unless they are named.
func TestQuickLeavesJVMsOut(t *testing.T) {
	f, ok := parseFlags([]string{"-quick"}, io.Discard)
	if !ok {
		t.Fatal("flags")
	}
	cfg, err := f.config()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cfg.contenders {
		if c.Setup != nil {
			t.Errorf("-quick runs %s", c.Key)
		}
	}
	f, _ = parseFlags([]string{"-quick", "-contenders", "kafka-uniform,touch-floor"}, io.Discard)
	if cfg, err = f.config(); err != nil || len(cfg.contenders) != 2 {
		t.Errorf("-quick -contenders kafka-uniform,touch-floor: %v, %v", cfg.contenders, err)
	}
}
