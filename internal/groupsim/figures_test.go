package groupsim_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor/internal/groupsim"
)

// TestFigures holds the eager versus cooperative figures quoted in
// docs/cooperative.md, as Markdown tables, to testdata/figures/assignors.md:
// the simulator is deterministic, so the figures are a golden file, checked
// on every run and rewritten with
//
//	go test -run TestFigures ./internal/groupsim/ -rewrite
//
// Each row runs one scenario on a fresh simulation with one assignor and
// reports the stats of the scenario's last stretch.
func TestFigures(t *testing.T) {
	skipSlow(t)
	// The real group of /work/shared/research/real-group-notes.md.
	const realGroup = "config heartbeat=300ms session=3s rebalance=10s latency=2ms metadata=5s"
	scenarios := []struct{ name, config, partitions, setup, event string }{
		{"rolling restart, 10 dynamic members, 100 partitions", javaDefaults, "100",
			"join m0..m9 topics=t0 assignors=%s", "rolling-restart down=5s every=30s"},
		{"rolling restart, 10 static members, 100 partitions", javaDefaults, "100",
			"join m0..m9 topics=t0 assignors=%s static", "rolling-restart down=10s every=30s"},
		{"scale out 10 -> 12 members, 100 partitions", javaDefaults, "100",
			"join m0..m9 topics=t0 assignors=%s", "join m10,m11 topics=t0 assignors=%s"},
		{"crash of 1 of 10 members (session 45s), 100 partitions", javaDefaults, "100",
			"join m0..m9 topics=t0 assignors=%s", "crash m4"},
		{"rolling restart, 4 dynamic members, 36 partitions, heartbeat 300ms (the real group's shape)", realGroup, "36",
			"join m0..m3 topics=t0 assignors=%s", "rolling-restart down=2s every=10s"},
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range factories() {
			if !yield(n) {
				return
			}
		}
	})
	// Cooperative assignors run twice: with fast re-join (the default) and
	// with members that take no part in it (as Java's, sarama's and kgo's
	// own members).
	type row struct{ as, flag, label string }
	var rows []row
	for _, as := range names {
		rows = append(rows, row{as, "", as})
		if strings.HasPrefix(as, "cooperative-") {
			rows = append(rows, row{as, " no-fast-rejoin", as + ", no fast re-join"})
		}
	}
	var b strings.Builder
	for _, sc := range scenarios {
		fmt.Fprintf(&b, "\n%s\n\n", sc.name)
		b.WriteString("| assignor | rebalances | moved | withheld | partition-s without owner | longest pause |\n|---|---|---|---|---|---|\n")
		for _, r := range rows {
			as := r.as
			withFlag := func(cmd string) string {
				if strings.HasPrefix(cmd, "join ") {
					cmd += r.flag
				}
				return strings.ReplaceAll(cmd, "%s", as)
			}
			sim := groupsim.New(groupsim.Config{}, factories())
			for _, cmd := range []string{
				sc.config,
				"topic create t0 partitions=" + sc.partitions,
				withFlag(sc.setup),
				"settle",
				"stats reset",
				withFlag(sc.event),
				"settle",
			} {
				out, err := sim.Exec(cmd)
				if err != nil || strings.Contains(out, "FAILURE") || strings.HasPrefix(out, "not settled") {
					t.Fatalf("%s with %s: %s: %v %s", sc.name, as, cmd, err, out)
				}
			}
			st := sim.Stats()
			_, pause := st.MaxPause()
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %.1f | %.2f s |\n", r.label, st.Rebalances, st.Moved, st.Withheld, st.Unowned.Seconds(), pause.Seconds())
		}
	}
	golden(t, "testdata/figures/assignors.md", "Eager against cooperative assignors in the simulator (TestFigures; Java's timings unless a row says otherwise).\n"+b.String())
}

// golden compares got with the golden file at path, or writes it with
// -rewrite.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *rewrite {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run %s ./internal/groupsim/ -rewrite writes it)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("%s differs; if the change is meant, rewrite it with -rewrite and review the diff:\n%s", path, got)
	}
}

// skipSlow skips the figures under -short and the race detector: they run
// many simulations (seconds) and the scripts cover the same code.
func skipSlow(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("the figures run without -short and without -race")
	}
}

// javaDefaults are Java's consumer timings: heartbeat.interval.ms 3 s,
// session.timeout.ms 45 s (rebalance timeout shortened: nobody stalls).
const javaDefaults = "config heartbeat=3s session=45s rebalance=60s latency=5ms metadata=5s"

// eventScript is a script of events run one at a time, each followed by
// settle, so that each event's settle time can be read.
type eventScript struct {
	name       string
	partitions int
	setup      string   // the members before the first event
	events     []string // each with %s for the assignor and %f for the fast re-join flag
}

// fastRejoinScripts are the rolling-restart and scale scripts of the fast
// re-join figures: the shape of the kfake harness (36 partitions, 4
// members; scale 1 → 6 → 1).
var fastRejoinScripts = []eventScript{
	{
		name: "rolling restart of 4", partitions: 36,
		setup: "join m0..m3 topics=t0 assignors=%s%f",
		events: []string{
			"leave m0", "join m0 topics=t0 assignors=%s%f",
			"leave m1", "join m1 topics=t0 assignors=%s%f",
			"leave m2", "join m2 topics=t0 assignors=%s%f",
			"leave m3", "join m3 topics=t0 assignors=%s%f",
		},
	},
	{
		name: "scale 1 → 6 → 1", partitions: 36,
		setup: "join m0 topics=t0 assignors=%s%f",
		events: []string{
			"join m1 topics=t0 assignors=%s%f", "join m2 topics=t0 assignors=%s%f", "join m3 topics=t0 assignors=%s%f",
			"join m4 topics=t0 assignors=%s%f", "join m5 topics=t0 assignors=%s%f",
			"leave m5", "leave m4", "leave m3", "leave m2", "leave m1",
		},
	},
}

// eventFigures are one run of an eventScript.
type eventFigures struct {
	settles []time.Duration // per event
	stats   groupsim.Stats  // over all events
}

func (f eventFigures) median() time.Duration {
	s := slices.Sorted(slices.Values(f.settles))
	return s[len(s)/2]
}

// runEvents runs sc at cfg with assignor as, every member taking part in
// fast re-join or none (no-fast-rejoin), and returns its figures. It fails
// on an invariant violation or an event that does not settle.
func runEvents(t *testing.T, cfg string, sc eventScript, as string, fast bool) eventFigures {
	t.Helper()
	flag := ""
	if !fast {
		flag = " no-fast-rejoin"
	}
	expand := strings.NewReplacer("%s", as, "%f", flag).Replace
	sim := groupsim.New(groupsim.Config{}, factories())
	run(t, sim, cfg+"\n"+fmt.Sprintf("topic create t0 partitions=%d", sc.partitions)+"\n"+expand(sc.setup)+"\nsettle")
	sim.ResetStats()
	var f eventFigures
	for _, ev := range sc.events {
		if out := run(t, sim, expand(ev)); strings.Contains(out, "FAILURE") {
			t.Fatalf("%s: %s", ev, out)
		}
		took, err := sim.Settle(10 * time.Minute)
		if err != nil || len(sim.Failures()) > 0 {
			t.Fatalf("%s with %s: %s: %v %v", sc.name, as, ev, err, sim.Failures())
		}
		f.settles = append(f.settles, took)
	}
	f.stats = sim.Stats()
	return f
}

// TestFastRejoinFigures holds the simulator's figures with and without
// fast re-join quoted in docs/cooperative.md, as Markdown tables, to
// testdata/figures/fast-rejoin.md (a golden file, as TestFigures').
func TestFastRejoinFigures(t *testing.T) {
	skipSlow(t)
	var b strings.Builder
	b.WriteString("| script | assignor | fast re-join | rebalances | settle per event, median | max | partition-s without owner | longest pause |\n|---|---|---|--:|--:|--:|--:|--:|\n")
	for _, sc := range fastRejoinScripts {
		for _, row := range []struct {
			as   string
			fast bool
		}{{"cooperative-sticky", true}, {"cooperative-sticky", false}, {"cooperative-roundrobin", true}, {"cooperative-roundrobin", false}, {"sticky", false}} {
			f := runEvents(t, javaDefaults, sc, row.as, row.fast)
			mode := map[bool]string{true: "on", false: "off"}[row.fast]
			if row.as == "sticky" {
				mode = "(eager)"
			}
			_, pause := f.stats.MaxPause()
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %.2f s | %.2f s | %.1f | %.2f s |\n", sc.name, row.as, mode,
				f.stats.Rebalances, f.median().Seconds(), slices.Max(f.settles).Seconds(), f.stats.Unowned.Seconds(), pause.Seconds())
		}
	}
	// sarama's members cannot act on the mark: what a shorter heartbeat
	// buys them instead (Consumer.Group.Heartbeat.Interval).
	b.WriteString("\n| script | heartbeat | fast re-join | settle per event, median | max | partition-s without owner |\n|---|--:|---|--:|--:|--:|\n")
	for _, sc := range fastRejoinScripts {
		for _, row := range []struct {
			hb   string
			fast bool
		}{{"3s", true}, {"3s", false}, {"1s", false}, {"500ms", false}} {
			cfg := strings.Replace(javaDefaults, "heartbeat=3s", "heartbeat="+row.hb, 1)
			f := runEvents(t, cfg, sc, "cooperative-sticky", row.fast)
			fmt.Fprintf(&b, "| %s | %s | %s | %.2f s | %.2f s | %.1f |\n", sc.name, row.hb, map[bool]string{true: "on", false: "off"}[row.fast],
				f.median().Seconds(), slices.Max(f.settles).Seconds(), f.stats.Unowned.Seconds())
		}
	}
	golden(t, "testdata/figures/fast-rejoin.md", "Fast re-join in the simulator (TestFastRejoinFigures; Java's timings).\n\n"+b.String())
}
