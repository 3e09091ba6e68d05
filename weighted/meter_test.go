package weighted

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/kgroup/assignor"
)

// TestQuantise: exact below 1024, within 0.1% above, monotone, capped.
func TestQuantise(t *testing.T) {
	prev := int64(-1)
	for _, w := range []int64{0, 1, 1023, 1024, 1025, 4097, 99999, 1 << 40, 1<<40 + 12345, math.MaxInt64} {
		q := Quantise(w)
		if w < 1024 && q != w {
			t.Fatalf("Quantise(%d) = %d, want exact", w, q)
		}
		if w >= 1024 && w <= maxTotal && math.Abs(float64(q-w))/float64(w) > 0.001 {
			t.Fatalf("Quantise(%d) = %d: error above 0.1%%", w, q)
		}
		if q < prev || q > maxTotal {
			t.Fatalf("Quantise(%d) = %d after %d", w, q, prev)
		}
		prev = q
	}
	if Quantise(-5) != 0 {
		t.Fatal("negative weight not 0")
	}
}

// TestMeterReport: rates from high-watermark growth (smoothed, restarted
// when the watermark goes down), the heaviest MaxPartitions listed and the
// rest summarised, user data frozen per generation, and the report
// round-trips through the layout.
func TestMeterReport(t *testing.T) {
	m := NewMeter(MeterConfig{MaxPartitions: 2})
	t0 := time.Unix(100, 0)
	for p, perSec := range []int64{100, 10, 50, 20} {
		m.Observe("t", int32(p), 1000, t0)
		m.Observe("t", int32(p), 1000+perSec/2, t0.Add(500*time.Millisecond)) // too soon: skipped
		m.Observe("t", int32(p), 1000+2*perSec, t0.Add(2*time.Second))
	}
	m.Observe("t", 3, 0, t0.Add(3*time.Second)) // truncated: t/3 unmeasured again
	owned := []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{0, 1, 2, 3}}}
	r := m.Report(5, owned)
	if got := fmt.Sprint(r); got != "{5 [{t [0 2] [100 50] 1 10}]}" {
		t.Fatalf("report %s", got)
	}
	a, _ := NewWithConfig(Config{Meter: m})
	b, err := a.SubscriptionUserData(assignor.MemberState{Generation: 5, Owned: owned})
	if err != nil {
		t.Fatal(err)
	}
	if back, err := DecodeReport(b); err != nil || fmt.Sprint(back) != fmt.Sprint(r) {
		t.Fatalf("round trip: %v %v", back, err)
	}
	m.Observe("t", 1, 1020+4000, t0.Add(4*time.Second)) // t/1 turns hot
	again, _ := a.SubscriptionUserData(assignor.MemberState{Generation: 5, Owned: owned})
	if string(again) != string(b) {
		t.Fatal("user data changed within a generation")
	}
	next, _ := a.SubscriptionUserData(assignor.MemberState{Generation: 6, Owned: owned})
	if r, _ := DecodeReport(next); fmt.Sprint(r) != "{6 [{t [0 1] [100 1005] 1 50}]}" {
		t.Fatalf("next generation: %v", r)
	}
}

// TestDecodeReportRejects: malformed reports are errors, never panics.
func TestDecodeReportRejects(t *testing.T) {
	good := appendReport(userDataPrefix(3, reportVersion), Report{Topics: []TopicReport{{Topic: "a", Partitions: []int32{1, 2}, Weights: []int64{5, 6}}}})
	for cut := userDataSize; cut < len(good); cut++ {
		if _, err := DecodeReport(good[:cut]); !errors.Is(err, ErrUserData) {
			t.Fatalf("cut at %d: err = %v", cut, err)
		}
	}
	bad := append([]byte(nil), good...)
	bad[len(bad)-15] = 9 // partition 1 becomes 9, after partition 2
	if _, err := DecodeReport(bad); !errors.Is(err, ErrUserData) {
		t.Fatalf("out of order: err = %v", err)
	}
	if _, err := DecodeReport(append(good, 0)); !errors.Is(err, ErrUserData) {
		t.Fatalf("trailing byte: err = %v", err)
	}
	if r, err := DecodeReport(good); err != nil || fmt.Sprint(r) != "{3 [{a [1 2] [5 6] 0 0}]}" {
		t.Fatalf("good: %v %v", r, err)
	}
}

// reporting is a member of the reports test: what it owns (at gen) and
// the report its user data carries.
func reporting(id string, gen int32, owned []int32, r Report) assignor.Member {
	r.Generation = gen
	return assignor.Member{ID: id, Topics: []string{"t"}, Generation: gen,
		Owned:    []assignor.TopicPartitions{{Topic: "t", Partitions: owned}},
		UserData: appendReport(userDataPrefix(gen, reportVersion), r)}
}

// TestReported pins how the leader reads reports: the owner's report wins
// over another member's, a summary covers the owner's unlisted partitions,
// the Group's own weights win, and an unowned partition takes the report
// of the newest generation (t/5: b's at 7, not c's at 6).
func TestReported(t *testing.T) {
	rep := func(ps []int32, ws []int64, rest int32, restW int64) Report {
		return Report{Topics: []TopicReport{{Topic: "t", Partitions: ps, Weights: ws, Rest: rest, RestWeight: restW}}}
	}
	u := assignor.UnknownWeight
	g := assignor.Group{
		Topics: []assignor.Topic{{Name: "t", Partitions: assignor.Partitions(6), Weights: []int64{u, u, u, u, 77, u}}},
		Members: []assignor.Member{
			reporting("a", 7, []int32{0, 1, 2}, rep([]int32{0}, []int64{500}, 2, 40)), // t/1, t/2 summarised
			reporting("b", 7, []int32{3, 4}, rep([]int32{0, 3, 4, 5}, []int64{1, 30, 9, 60}, 0, 0)),
			reporting("c", 6, nil, rep([]int32{5}, []int64{999}, 0, 0)), // an older generation
		},
	}
	ix := indexOf(t, g)
	w := topicWeights(ix)
	from := reported(ix, w)
	w, _ = weightsOf(ix, w, 0)
	if want := []int64{500, 40, 40, 30, 77, 60}; fmt.Sprint(w) != fmt.Sprint(want) {
		t.Fatalf("weights %v, want %v", w, want)
	}
	if fmt.Sprint(from) != "[true true true true false true]" {
		t.Fatalf("from %v", from)
	}
	holder := []int32{0, 0, 1, 1, 1, 2}
	ud := carried(ix, holder, from, w)
	if r, err := DecodeReport(ud[1]); err != nil || fmt.Sprint(r.Topics) != "[{t [2] [40] 0 0}]" {
		t.Fatalf("carried to b: %v %v", r, err)
	}
	if r, _ := DecodeReport(ud[2]); fmt.Sprint(r.Topics) != "[{t [5] [60] 0 0}]" || ud[0] != nil {
		t.Fatalf("carried to c: %v; to a: %x", r, ud[0])
	}
	plain := indexOf(t, assignor.Group{Topics: g.Topics, Members: []assignor.Member{{ID: "x", Topics: []string{"t"}}}})
	w = topicWeights(plain)
	if from := reported(plain, w); from != nil || fmt.Sprint(w) != fmt.Sprint(topicWeights(plain)) {
		t.Fatal("no reports: the weights changed")
	}
}

// TestCarriedWeightFollowsThePartition: a partition that moves keeps its
// weight. The owner of a hot partition reports it; the leader moves it to
// the joining member with its weight in the assignment user data; in the
// next generation the old owner no longer reports it and the new one has
// not measured it yet, yet its report carries the weight and the leader
// keeps the plan (nothing bounces back).
func TestCarriedWeightFollowsThePartition(t *testing.T) {
	ma, mb := NewMeter(MeterConfig{}), NewMeter(MeterConfig{})
	a, _ := NewWithConfig(Config{Meter: ma})
	b, _ := NewWithConfig(Config{Meter: mb})
	t0 := time.Unix(0, 0)
	for p, rate := range []int64{900, 100, 100, 100} {
		ma.Observe("t", int32(p), 0, t0)
		ma.Observe("t", int32(p), rate*10, t0.Add(10*time.Second))
	}
	topics := []assignor.Topic{{Name: "t", Partitions: assignor.Partitions(4)}}
	join := func(a *Assignor, id string, gen int32, owned []int32) assignor.Member {
		st := assignor.MemberState{Topics: []string{"t"}, Generation: gen, Owned: []assignor.TopicPartitions{{Topic: "t", Partitions: owned}}}
		ud, err := a.SubscriptionUserData(st)
		if err != nil {
			t.Fatal(err)
		}
		return assignor.Member{ID: id, Topics: st.Topics, Generation: gen, Owned: st.Owned, UserData: ud}
	}
	g := assignor.Group{Topics: topics, Members: []assignor.Member{join(a, "a", 1, []int32{0, 1, 2, 3}), join(b, "b", -1, nil)}}
	plan, err := New().Assign(g)
	if err != nil {
		t.Fatal(err)
	}
	pb, _ := plan.Member("b")
	if assignor.FormatTopicPartitions(pb.Assigned) != "t[0]" {
		t.Fatalf("plan:\n%s", plan)
	}
	b.OnAssignment(pb.Assigned, pb.UserData, 2)
	pa, _ := plan.Member("a")
	g2 := assignor.Group{Topics: topics, Members: []assignor.Member{
		join(a, "a", 2, pa.Assigned[0].Partitions), join(b, "b", 2, []int32{0}),
	}}
	again, err := New().Assign(g2)
	if err != nil {
		t.Fatal(err)
	}
	for _, mp := range again.Members {
		before, _ := plan.Member(mp.Member)
		if !assignor.EqualTopicPartitions(mp.Assigned, before.Assigned) {
			t.Fatalf("next generation moved:\n%s\nwas:\n%s", again, plan)
		}
	}
	ix := indexOf(t, g2)
	w := topicWeights(ix)
	reported(ix, w)
	if w, _ := weightsOf(ix, w, 0); w[0] != 900 {
		t.Fatalf("t/0 weighs %d in the next generation, want the carried 900", w[0])
	}
}
