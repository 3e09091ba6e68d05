package cli

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor"
)

func assign(spec map[string]string) map[string][]assignor.TopicPartitions {
	out := map[string][]assignor.TopicPartitions{}
	for id, s := range spec {
		out[id] = tps(s)
	}
	return out
}

func TestDiff(t *testing.T) {
	for _, tc := range []struct {
		name          string
		before, after map[string]string
		rename        map[string]string
		want          string // moves as "topic/partition:from>to"
	}{
		{name: "unchanged", before: map[string]string{"x": "a:0,1", "y": "a:2"}, after: map[string]string{"x": "a:0,1", "y": "a:2"}, want: ""},
		{name: "one move", before: map[string]string{"x": "a:0,1", "y": "a:2"}, after: map[string]string{"x": "a:0", "y": "a:1,2"}, want: "a/1:x>y"},
		{name: "a member left: its partitions move", before: map[string]string{"x": "a:0", "y": "a:1"}, after: map[string]string{"y": "a:0,1"}, want: "a/0:x>y"},
		{name: "placed: held by nobody before", before: map[string]string{"x": "a:0"}, after: map[string]string{"x": "a:0 b:0"}, want: "b/0:>x"},
		{name: "dropped: held by nobody after (withheld)", before: map[string]string{"x": "a:0,1"}, after: map[string]string{"x": "a:0"}, want: "a/1:x>"},
		{name: "a static member's new incarnation is not a move (KIP-345)", before: map[string]string{"s-old": "a:0", "y": "a:1"},
			after: map[string]string{"s-new": "a:0", "y": "a:1"}, rename: map[string]string{"s-old": "s-new"}, want: ""},
		{name: "sorted by topic then partition", before: map[string]string{"x": "b:1 a:3", "y": ""}, after: map[string]string{"y": "a:3 b:1", "x": ""}, want: "a/3:x>y b/1:x>y"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, m := range diff(assign(tc.before), assign(tc.after), tc.rename) {
				got = append(got, fmt.Sprintf("%s/%d:%s>%s", m.Topic, m.Partition, m.From, m.To))
			}
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("got %q, want %q", s, tc.want)
			}
		})
	}
}

func TestFormatMoves(t *testing.T) {
	ms := diff(assign(map[string]string{"x": "a:0,1,2", "y": "b:0"}), assign(map[string]string{"x": "a:0", "y": "a:1,2", "z": "b:0 c:0"}), nil)
	names := map[string]string{"x": "X", "y": "Y", "z": "Z"}
	if got, want := formatMoves(ms, names, 0), "∅→Z c[0]; X→Y a[1 2]; Y→Z b[0]"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := formatMoves(ms, names, 1), "∅→Z c[0]; … and 2 more"; got != want {
		t.Errorf("limited: got %q, want %q", got, want)
	}
}

// obs is a Stable observation at second sec of generation gen.
func obs(sec int, gen int32, spec map[string]string) observation {
	o := observation{At: time.Unix(int64(sec), 0), State: "Stable", Stable: true, Generation: gen,
		Names: map[string]string{}, Instances: map[string]string{}, Assignment: assign(spec), Lag: map[string]int64{}, Load: map[string]float64{}}
	for id := range spec {
		o.Names[id] = strings.ToUpper(id)
		o.Lag[id] = 1
	}
	return o
}

func kinds(es []event) string {
	var out []string
	for _, e := range es {
		if e.Kind != eventLag {
			out = append(out, e.Kind)
		}
	}
	return strings.Join(out, ",")
}

// TestTrackerAccounting pins the generation accounting of watch: every
// generation from the first seen to the last is observed or counted in a
// jump, never both, never neither.
func TestTrackerAccounting(t *testing.T) {
	tr := newTracker(time.Unix(0, 0))
	steps := []struct {
		name  string
		o     observation
		kinds string
	}{
		{"first poll: state and the first assignment", obs(0, 4, map[string]string{"x": "a:0,1", "y": "a:2"}), "state,stable"},
		{"same generation, same assignment: nothing", obs(1, 4, map[string]string{"x": "a:0,1", "y": "a:2"}), ""},
		{"rebalancing: a state change, nothing to read", observation{At: time.Unix(2, 0), State: "PreparingRebalance", Generation: -1,
			Names: map[string]string{"x": "X", "y": "Y"}}, "state"},
		{"the next generation, observed", obs(3, 5, map[string]string{"x": "a:0", "y": "a:1,2"}), "state,stable"},
		{"three generations later: two not seen", obs(4, 8, map[string]string{"x": "a:0", "y": "a:1,2", "z": ""}), "members,jump,stable"},
		{"generation went down: accounting restarts", obs(5, 2, map[string]string{"x": "a:0,1,2"}), "members,back,stable"},
		{"then one more", obs(6, 3, map[string]string{"x": "a:0,1", "w": "a:2"}), "members,stable"},
	}
	for _, s := range steps {
		es := tr.observe(s.o)
		if got := kinds(es); got != s.kinds {
			t.Errorf("%s: events %q, want %q", s.name, got, s.kinds)
		}
		for _, e := range es {
			if e.Kind == eventJump && !slices.Equal(e.Unseen, []int32{6, 7}) {
				t.Errorf("%s: unseen %v, want [6 7]", s.name, e.Unseen)
			}
			if e.Kind == eventStable && e.Generation == 5 && (e.Moved != 1 || e.Moves[0].From != "x" || e.Moves[0].To != "y") {
				t.Errorf("%s: moves %+v", s.name, e.Moves)
			}
		}
	}
	sum := tr.summary()
	if sum.First != 2 || sum.Last != 3 || !slices.Equal(sum.Observed, []int32{2, 3}) || len(sum.Unseen) != 0 || !sum.Accounted || sum.Backs != 1 {
		t.Errorf("summary %+v", sum)
	}
	if len(sum.FinalLag) != 2 || sum.FinalLag["X"] != 1 || sum.FinalLag["W"] != 1 {
		t.Errorf("final lag %v, want the last poll's members", sum.FinalLag)
	}
	if sum.Polls != 7 || sum.Stable != 6 || sum.Rebalance != 1 {
		t.Errorf("polls %d stable %d rebalancing %d", sum.Polls, sum.Stable, sum.Rebalance)
	}
}

func TestTrackerJumpsAccounted(t *testing.T) {
	tr := newTracker(time.Unix(0, 0))
	a := map[string]string{"x": "a:0"}
	for i, g := range []int32{10, 11, 14, 15, 19} {
		tr.observe(obs(i, g, a))
	}
	s := tr.summary()
	if !slices.Equal(s.Observed, []int32{10, 11, 14, 15, 19}) || !slices.Equal(s.Unseen, []int32{12, 13, 16, 17, 18}) || !s.Accounted {
		t.Errorf("observed %v unseen %v accounted %v", s.Observed, s.Unseen, s.Accounted)
	}
	if got := formatGens(s.Unseen); got != "12-13, 16-18" {
		t.Errorf("formatGens %q", got)
	}
	var buf bytes.Buffer
	if err := renderSummary(&buf, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "generations 10 to 19: 5 observed (10-11, 14-15, 19), 5 not seen (12-13, 16-18): every generation accounted for") {
		t.Errorf("summary:\n%s", buf.String())
	}
}

func TestTrackerStaticRestart(t *testing.T) {
	tr := newTracker(time.Unix(0, 0))
	o1 := obs(0, 3, map[string]string{"s1": "a:0", "y": "a:1"})
	o1.Instances["s1"] = "inst"
	o2 := obs(1, 3, map[string]string{"s2": "a:0", "y": "a:1"})
	o2.Instances["s2"] = "inst"
	tr.observe(o1)
	es := tr.observe(o2)
	if got := kinds(es); got != "members,stable" {
		t.Fatalf("events %q", got)
	}
	st := es[len(es)-2]
	if st.Kind != eventStable || st.Moved != 0 || !strings.Contains(st.Text, "static member") {
		t.Errorf("a static restart in the same generation: %+v", st)
	}
	if s := tr.summary(); !slices.Equal(s.Observed, []int32{3}) {
		t.Errorf("observed %v", s.Observed)
	}
}

func TestTrackerUnknownGeneration(t *testing.T) {
	tr := newTracker(time.Unix(0, 0))
	tr.observe(obs(0, -1, map[string]string{"x": "a:0"}))
	tr.observe(obs(1, -1, map[string]string{"x": "a:0"}))
	s := tr.summary()
	if s.UnknownPolls != 2 || s.Last != -1 || s.Accounted {
		t.Errorf("%+v", s)
	}
}

func TestTable(t *testing.T) {
	tb := newTable("member", "count", "load", "note")
	tb.add("alpha", "2", "10.5", "")
	tb.add("b", "12", "-", "marked")
	tb.rule()
	tb.add("total", "14", "10.5")
	var buf bytes.Buffer
	if err := tb.write(&buf, "  "); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"  member  count  load  note\n" +
		"  alpha       2  10.5\n" +
		"  b          12     -  marked\n" +
		"  ---------------------------\n" +
		"  total      14  10.5\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}
