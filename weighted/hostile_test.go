package weighted

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
)

// rawReport is weighted user data at gen carrying one topic t whose
// partitions report the quantised weights q (16-bit patterns, as a member
// may send any), in partition order.
func rawReport(gen int32, q map[int32]uint16) []byte {
	b := userDataPrefix(gen, reportVersion)
	b = append(b, 0, 0, 0, 1, 0, 1, 't')
	b = append(b, 0, 0, 0, byte(len(q)))
	for p := range int32(len(q) + 64) {
		if w, ok := q[p]; ok {
			b = append(b, byte(p>>24), byte(p>>16), byte(p>>8), byte(p), byte(w>>8), byte(w))
		}
	}
	return append(b, 0, 0, 0, 0, 0, 0)
}

// TestReportCannotFailTheGroup (issue 24, finding 1): one member reporting
// the partition it validly owns at the quantised maximum (0xFFFF, 2^61)
// failed every rebalance of the group: the default weight of the topic's
// other partition pushed the total above 2^61. The weight is clamped to
// MaxReportedWeight, Assign succeeds, and CheckReports names the member
// and the partition.
func TestReportCannotFailTheGroup(t *testing.T) {
	g := assignor.Group{
		Topics: []assignor.Topic{{Name: "t", Partitions: assignor.Partitions(2)}},
		Members: []assignor.Member{
			{ID: "a", Topics: []string{"t"}, Generation: 3, Owned: []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{0}}},
				UserData: rawReport(3, map[int32]uint16{0: 0xFFFF})},
			{ID: "b", Topics: []string{"t"}, Generation: 3, Owned: []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{1}}}},
		},
	}
	assignsValidly(t, g)
	issues := CheckReports(indexOf(t, g))
	want := fmt.Sprintf(`[member "a": report at generation 3: topic "t" partition 0 weighs %d, above %d: counted as %d]`, maxTotal, MaxReportedWeight, MaxReportedWeight)
	if got := fmt.Sprint(issues); got != want {
		t.Fatalf("issues %s,\nwant %s", got, want)
	}
}

// TestReportGenerationAboveClaims (issue 24, finding 2): a report stamped
// with a generation above its member's claim generation hid every other
// member's report (the leader kept only the newest reports). Such a report
// is dropped, and so is one without a generation; the honest reports
// count.
func TestReportGenerationAboveClaims(t *testing.T) {
	rep := func(ps []int32, ws []int64) Report {
		return Report{Topics: []TopicReport{{Topic: "t", Partitions: ps, Weights: ws}}}
	}
	hostile := reporting("c", 15, nil, rep([]int32{3}, []int64{5}))
	hostile.UserData = appendReport(userDataPrefix(math.MaxInt32, reportVersion), rep([]int32{3}, []int64{5}))
	unstamped := reporting("d", assignor.NoGeneration, nil, rep([]int32{2}, []int64{7}))
	g := assignor.Group{
		Topics: []assignor.Topic{{Name: "t", Partitions: assignor.Partitions(4)}},
		Members: []assignor.Member{
			reporting("a", 15, []int32{0, 1}, rep([]int32{0, 1}, []int64{1000, 1000})),
			reporting("b", 15, []int32{2, 3}, rep([]int32{2, 3}, []int64{1, 1})),
			hostile, unstamped,
		},
	}
	d, err := New().Drift(g)
	if err != nil {
		t.Fatal(err)
	}
	if d.Heaviest != 2000 {
		t.Fatalf("heaviest load as owned %d, want 2000 (a's report of 1000 and 1000)", d.Heaviest)
	}
	want := `[member "c": report at generation 2147483647: above the member's claim generation 15: dropped` +
		` member "d": report at generation -1: no generation: dropped]`
	if got := fmt.Sprint(CheckReports(indexOf(t, g))); got != want {
		t.Fatalf("issues %s,\nwant %s", got, want)
	}
}

// TestMeterObserveAnyGrowth (issue 24, finding 4): the rate's arithmetic
// overflowed once the high watermark grew by more than about 9.2e9 between
// two counted observations (1e10 records over 48 hours read as weight 0).
// The rate is exact for any growth and interval, saturating at
// MaxReportedWeight.
func TestMeterObserveAnyGrowth(t *testing.T) {
	t0 := time.Unix(1000, 0)
	for _, row := range []struct {
		name   string
		growth int64
		after  time.Duration
		want   int64
	}{
		{"1e10 records over 48 hours", 1e10, 48 * time.Hour, 57870},
		{"2^63 records in a second", math.MaxInt64 - 7, time.Second, MaxReportedWeight},
		{"2^62 records over a year", 1 << 62, 365 * 24 * time.Hour, MaxReportedWeight},
		{"1e15 records over a year", 1e15, 365 * 24 * time.Hour, 31709791},
		{"one record over 290 years", 1, 290 * 365 * 24 * time.Hour, 0},
		{"1000 records per second", 5000, 5 * time.Second, 1000},
	} {
		t.Run(row.name, func(t *testing.T) {
			m := NewMeter(MeterConfig{})
			m.Observe("t", 0, 7, t0)
			m.Observe("t", 0, 7+row.growth, t0.Add(row.after))
			r := m.Report(1, []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{0}}})
			if len(r.Topics) != 1 || r.Topics[0].Weights[0] != row.want {
				t.Fatalf("report %v, want t/0 at %d", r, row.want)
			}
		})
	}
}

// TestMeterForgetsPartitionsNoLongerHeld (issue 24, finding 4): a
// partition the member no longer holds is forgotten when its assignment
// says so, so one regained days later starts a new measure instead of
// reading the growth since it left as a rate.
func TestMeterForgetsPartitionsNoLongerHeld(t *testing.T) {
	m := NewMeter(MeterConfig{})
	a, _ := NewWithConfig(Config{Meter: m})
	t0 := time.Unix(1000, 0)
	both := []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{0, 1}}}
	for p := range int32(2) {
		m.Observe("t", p, 0, t0)
		m.Observe("t", p, 100, t0.Add(10*time.Second))
	}
	a.OnAssignment([]assignor.TopicPartitions{{Topic: "t", Partitions: []int32{1}}}, nil, 2)
	if r := m.Report(2, both); fmt.Sprint(r) != "{2 [{t [1] [10] 0 0}]}" {
		t.Fatalf("after t/0 left: %v, want only t/1", r)
	}
	a.OnAssignment(both, nil, 3)
	later := t0.Add(48 * time.Hour)
	m.Observe("t", 0, 1e10, later)
	if r := m.Report(3, both); fmt.Sprint(r) != "{3 [{t [1] [10] 0 0}]}" {
		t.Fatalf("t/0 regained: %v, want no rate for t/0 before a second observation", r)
	}
	m.Observe("t", 0, 1e10+30, later.Add(10*time.Second))
	if r := m.Report(3, both); fmt.Sprint(r) != "{3 [{t [0 1] [3 10] 0 0}]}" {
		t.Fatalf("t/0 measured again: %v", r)
	}
}

// FuzzHostileReport feeds arbitrary subscription user data for one member
// of an otherwise honest group (issue 24, deliver 2): the bytes decode to
// an error wrapping ErrUserData or to a report that lists no topic and no
// partition twice; the weights read from the reports are each at most
// MaxReportedWeight, the honest members' partitions keep their honest
// weights, and Assign (eager and cooperative) and Drift succeed with a
// valid plan.
func FuzzHostileReport(f *testing.F) {
	f.Add([]byte{})
	f.Add(userDataPrefix(5, userDataVersion))
	f.Add(rawReport(5, map[int32]uint16{0: 0xFFFF, 1: 0xFFFF}))
	f.Add(rawReport(math.MaxInt32, map[int32]uint16{3: 7}))
	f.Add(rawReport(assignor.NoGeneration, map[int32]uint16{2: 100}))
	f.Add(appendReport(userDataPrefix(5, reportVersion), Report{Topics: []TopicReport{
		{Topic: "t", Partitions: []int32{0, 1, 2, 3}, Weights: []int64{1, 2, 3, 4}, Rest: 9, RestWeight: 1 << 40},
		{Topic: "u", Partitions: []int32{1, 2}, Weights: []int64{maxTotal, 0}, Rest: 1 << 30, RestWeight: maxTotal},
	}}))
	honest := func(id string, owned []assignor.TopicPartitions, r Report) assignor.Member {
		r.Generation = 5
		return assignor.Member{ID: id, Topics: []string{"t", "u"}, Generation: 5, Owned: owned,
			UserData: appendReport(userDataPrefix(5, reportVersion), r)}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if r, err := DecodeReport(b); err == nil {
			for i, tr := range r.Topics {
				if i > 0 && r.Topics[i-1].Topic >= tr.Topic {
					t.Fatalf("topics out of order or repeated: %v", r)
				}
				for j := 1; j < len(tr.Partitions); j++ {
					if tr.Partitions[j-1] >= tr.Partitions[j] {
						t.Fatalf("topic %q lists a partition twice or out of order: %v", tr.Topic, tr.Partitions)
					}
				}
			}
		} else if !errors.Is(err, ErrUserData) {
			t.Fatalf("error %v does not wrap ErrUserData", err)
		}
		g := assignor.Group{
			Topics: []assignor.Topic{{Name: "t", Partitions: assignor.Partitions(4)}, {Name: "u", Partitions: assignor.Partitions(3)}},
			Members: []assignor.Member{
				honest("a", []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{0, 1}}},
					Report{Topics: []TopicReport{{Topic: "t", Partitions: []int32{0, 1}, Weights: []int64{500, 20}}}}),
				honest("b", []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{2, 3}}, {Topic: "u", Partitions: []int32{0}}},
					Report{Topics: []TopicReport{{Topic: "t", Partitions: []int32{2, 3}, Weights: []int64{70, 0}}, {Topic: "u", Partitions: []int32{0}, Weights: []int64{9}}}}),
				{ID: "h", Topics: []string{"t", "u"}, Generation: 5, Owned: []assignor.TopicPartitions{{Topic: "u", Partitions: []int32{1, 2}}}, UserData: b},
			},
		}
		ix := indexOf(t, g)
		w := topicWeights(ix)
		reported(ix, w)
		for p, want := range []int64{500, 20, 70, 0, 9} {
			if w[p] != want {
				t.Fatalf("honest partition %d weighs %d, want %d (weights %v)", p, w[p], want, w)
			}
		}
		for p, x := range w {
			if x < assignor.UnknownWeight || x > MaxReportedWeight {
				t.Fatalf("partition %d weighs %d (weights %v)", p, x, w)
			}
		}
		for _, i := range CheckReports(ix) {
			if i.Member != "h" {
				t.Fatalf("issue about an honest member: %v", i)
			}
		}
		assignsValidly(t, g)
	})
}

// assignsValidly fails t unless weighted and cooperative-weighted both
// assign g without an error and with a valid plan, and Drift reads it.
func assignsValidly(t testing.TB, g assignor.Group) {
	t.Helper()
	for _, a := range []assignor.Assignor{New(), cooperative.Wrap(New())} {
		plan, err := a.Assign(g)
		if err != nil {
			t.Fatalf("%s: %v", a.Name(), err)
		}
		if err := assignor.CheckPlan(g, plan, assignor.Protocols(a)[0]); err != nil {
			t.Fatalf("%s: %v", a.Name(), err)
		}
	}
	if _, err := New().Drift(g); err != nil {
		t.Fatalf("Drift: %v", err)
	}
}
