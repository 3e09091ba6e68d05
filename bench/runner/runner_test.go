package runner

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/workload"
)

// TestMain makes the test binary serve as the child process too, so the
// smoke test runs every job through the real child mechanism.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		if err := runChild(os.Stdin, os.Stdout); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var tiny = []workload.Shape{{Topics: 4, Partitions: 6, Members: 5}, {Topics: 6, Partitions: 10, Members: 7}}

func testSpawner(t *testing.T) spawner {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return processSpawner(exe, []string{"-test.run=^$"})
}

// inProcess runs each job in this process (a phase over the cap is reported
// as capped once the phase ends, instead of ending the process), so that the
// smoke test stays fast under -race; TestCapAndInvalid covers the child
// processes.
func inProcess(j job) result {
	var buf bytes.Buffer
	runJob(j, &watchdog{out: &buf, exit: func(int) {}})
	var r result
	if err := json.Unmarshal(buf.Bytes(), &r); err != nil {
		return result{Err: err.Error()}
	}
	return r
}

// TestSmoke runs two tiny shapes through every contender, scenario and
// script and checks every plan is valid and judged.
func TestSmoke(t *testing.T) {
	cfg := config{shapes: tiny, scenarios: workload.Scenarios(), contenders: realContenders(), scripts: workload.Scripts(),
		scriptMax: 1000, reps: smokeReps, cap: 10 * time.Second, seed: 1}
	res := run(cfg, inProcess, &bytes.Buffer{})
	if len(res.Cells) != len(tiny)*len(cfg.scenarios) {
		t.Fatalf("got %d cells, want %d", len(res.Cells), len(tiny)*len(cfg.scenarios))
	}
	for _, cl := range res.Cells {
		for _, r := range cl.Rows {
			name := cl.Shape.String() + " " + string(cl.Scenario) + " " + r.C.Name
			if cl.Scenario == workload.Racks && !r.C.Racks {
				if r.Status != statusNA {
					t.Errorf("%s: status %q, want n/a", name, r.Status)
				}
				continue
			}
			if r.Status != statusOK || len(r.Times) != cfg.reps || r.Q == nil {
				t.Errorf("%s: status %q (%s), %d times, quality %v", name, r.Status, r.Note, len(r.Times), r.Q != nil)
				continue
			}
			if !r.Q.Valid {
				t.Errorf("%s: invalid plan: %v", name, r.Q.Violations)
			}
			if r.XFloor == 0 {
				t.Errorf("%s: no ratio to the floor", name)
			}
			if r.C.Family != "floor" && r.C.Key != "sarama-range" && r.C.Key != "sarama-roundrobin" && cl.Scenario != workload.Mixed && cl.Scenario != workload.MixedJoin {
				// Every sticky contender's settled plan is balanced.
				q := r.Q
				if r.Settle != nil {
					q = r.Settle
				}
				if q.Withheld != 0 || q.Spread > 1 {
					t.Errorf("%s: settled plan withholds %d, spread %d", name, q.Withheld, q.Spread)
				}
			}
		}
	}
	wantScripts := len(tiny) * len(workload.Scripts()) * len(cooperativeContenders(cfg.contenders))
	if len(res.Scripts) != wantScripts {
		t.Fatalf("got %d script rows, want %d", len(res.Scripts), wantScripts)
	}
	for _, sr := range res.Scripts {
		if sr.Stats == nil {
			t.Errorf("%s %s %s: %s %s", sr.Shape, sr.Script, sr.C.Name, sr.Status, sr.Note)
			continue
		}
		if sr.Stats.Invalid > 0 || sr.Stats.Unsettled > 0 || sr.Stats.Events == 0 || sr.Stats.Rounds < sr.Stats.Events {
			t.Errorf("%s %s %s: %+v", sr.Shape, sr.Script, sr.C.Name, *sr.Stats)
		}
	}
	var out bytes.Buffer
	writeTable(&out, res, true)
	if strings.Contains(out.String(), "INVALID") || strings.Contains(out.String(), "ERROR") {
		t.Errorf("table reports a problem:\n%s", out.String())
	}
}

func realContenders() []contender.Contender {
	var out []contender.Contender
	for _, c := range contender.All() {
		if !strings.HasPrefix(c.Key, "test-") && c.Family != familyYours && c.Setup == nil { // JVM contenders: bench/internal/kafka's tests
			out = append(out, c)
		}
	}
	return out
}

// slowRunner sleeps in Lead; brokenRunner gives partition 0 of the first
// topic to every member.
type slowRunner struct{ brokenRunner }

func (slowRunner) Lead() error { time.Sleep(3 * time.Second); return nil }

type brokenRunner struct {
	topics  []assignor.Topic
	members []contender.MemberJoin
}

func (r *brokenRunner) Prepare(topics []assignor.Topic, members []contender.MemberJoin, _ int32) error {
	r.topics, r.members = topics, members
	return nil
}

func (*brokenRunner) Lead() error { return nil }

func (r *brokenRunner) Result() ([]contender.Assignment, error) {
	var out []contender.Assignment
	for _, m := range r.members {
		out = append(out, contender.Assignment{Member: m.ID, Partitions: []assignor.TopicPartitions{{Topic: r.topics[0].Name, Partitions: []int32{0}}}})
	}
	return out, nil
}

func init() {
	contender.Register(contender.Contender{Key: "test-slow", Name: "test slow", Family: "test", Order: 1000,
		New: func() contender.Runner { return &slowRunner{} }})
	contender.Register(contender.Contender{Key: "test-broken", Name: "test broken", Family: "test", Order: 1001,
		New: func() contender.Runner { return &brokenRunner{} }})
}

// TestCapAndInvalid pins the harness's honesty: a contender over the cap is
// reported as "> cap" and skipped on bigger shapes, never dropped; an invalid
// plan is reported loudly, naming the partition.
func TestCapAndInvalid(t *testing.T) {
	slow, _ := contender.Lookup("test-slow")
	broken, _ := contender.Lookup("test-broken")
	floor, _ := contender.Lookup("floor")
	cfg := config{shapes: tiny, scenarios: []workload.Scenario{workload.Fresh}, contenders: []contender.Contender{slow, broken, floor},
		reps: 2, cap: 300 * time.Millisecond, seed: 1}
	res := run(cfg, testSpawner(t), &bytes.Buffer{})
	first, second := res.Cells[0], res.Cells[1]
	if r := find(first, "test-slow"); r.Status != statusCapped || !strings.Contains(r.Note, "> cap") {
		t.Errorf("slow on the first shape: %q %q, want capped", r.Status, r.Note)
	}
	if r := find(second, "test-slow"); r.Status != statusSkipped {
		t.Errorf("slow on the second shape: %q, want skipped", r.Status)
	}
	if r := find(first, "test-broken"); r.Q == nil || r.Q.Valid {
		t.Fatalf("broken: plan judged valid")
	}
	var out bytes.Buffer
	writeTable(&out, res, true)
	for _, want := range []string{"INVALID PLANS", "topic-0000/0", "> cap 300ms", "not run: over the cap on " + tiny[0].Short()} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

// TestOutputsRoundTrip writes results.md, the plots and results.json, and
// checks that -render redraws the same results.md from results.json.
func TestOutputsRoundTrip(t *testing.T) {
	cfg := config{shapes: tiny, scenarios: []workload.Scenario{workload.Fresh, workload.Join}, contenders: lookupAll(t, "franz-coop", "floor", "ours-coop"),
		reps: 1, cap: 10 * time.Second, seed: 1}
	res := run(cfg, inProcess, &bytes.Buffer{})
	res.Date = time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)
	dir := t.TempDir()
	cfg.out = dir
	res.Cfg = cfg
	if err := writeOutputs(dir, res); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(filepath.Join(dir, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"time-fresh.png", "time-fresh-variants.png", "time-join.png", "time-join-variants.png", "moves.png"} {
		if _, err := os.Stat(filepath.Join(dir, "plots", name)); err != nil {
			t.Error(err)
		}
	}
	again, err := loadJSON(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeOutputs(dir, again); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(filepath.Join(dir, "results.md"))
	if !bytes.Equal(first, second) {
		t.Errorf("results.md redrawn from results.json differs:\n%s\n----\n%s", first, second)
	}
	if !bytes.Contains(first, []byte("2026-01-02 03:04 UTC")) {
		t.Errorf("results.md lacks the run's date:\n%s", first)
	}
}
