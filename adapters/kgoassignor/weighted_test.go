package kgoassignor

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/weighted"
	"github.com/kgroup/assignor/wire"
)

// hotFirst is the leader-side weight source of the weighted tests: t/0
// carries as much as the five others together.
func hotFirst(topics []assignor.TopicPartitions) [][]int64 {
	out := make([][]int64, len(topics))
	for i, tp := range topics {
		out[i] = hotWeights(tp.Topic, tp.Partitions)
	}
	return out
}

// hotWeights are the weights of topic's partitions ps.
func hotWeights(topic string, ps []int32) []int64 {
	w := make([]int64, len(ps))
	for i, p := range ps {
		w[i] = 10
		if topic == "t" && p == 0 {
			w[i] = 50
		}
	}
	return w
}

// TestWeighted runs cooperative-weighted through the balancer as kgo
// drives it: each member's JoinGroupMetadata (subscription v3 with the
// weighted user data, which carries the generation too), the leader's
// balance, and each member's ParseSyncAssignment, over the two rounds of
// a join. The leader balances the load from the Weights function: t/0
// (50) ends alone on one member and the five others (10 each) on the
// other, where a count-balanced plan gives one member 70 and the other 30.
func TestWeighted(t *testing.T) {
	if _, err := Weighted(weighted.Config{TiePercent: 200}, Config{}); err == nil || !strings.Contains(err.Error(), "TiePercent") {
		t.Fatalf("invalid config: err = %v", err)
	}
	newMember := func() *Balancer {
		b, err := Weighted(weighted.Config{Weights: hotFirst, CountTolerance: 4}, Config{})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b := newMember(), newMember()
	if a.ProtocolName() != "cooperative-weighted" || !a.IsCooperative() {
		t.Fatalf("protocol %q, cooperative %v", a.ProtocolName(), a.IsCooperative())
	}
	owned := map[string]map[string][]int32{"a": {"t": {0, 1, 2, 3, 4, 5}}, "b": nil}
	gens := map[string]int32{"a": 4, "b": -1}
	for round, gen := range []int32{5, 6} {
		metaA := a.JoinGroupMetadata([]string{"t"}, owned["a"], gens["a"])
		sub, err := wire.DecodeSubscription(metaA)
		if err != nil {
			t.Fatal(err)
		}
		if g, _, err := weighted.DecodeUserData(sub.UserData); g != gens["a"] || err != nil {
			t.Fatalf("round %d: a's user data carries generation %d (%v), want %d", round+1, g, err, gens["a"])
		}
		sas := balanceInto(t, a, gen, counts("t", 6), []kmsg.JoinGroupResponseMember{
			member("a", metaA), member("b", b.JoinGroupMetadata([]string{"t"}, owned["b"], gens["b"])),
		})
		for _, sa := range sas {
			parse := map[string]*Balancer{"a": a, "b": b}[sa.MemberID]
			got, err := parse.ParseSyncAssignment(sa.MemberAssignment)
			if err != nil {
				t.Fatal(err)
			}
			owned[sa.MemberID], gens[sa.MemberID] = got, gen
		}
		if round == 0 && len(owned["b"]["t"]) != 0 {
			t.Fatalf("round 1 gives b %v while a still owns it", owned["b"])
		}
	}
	la, lb := loadIn(owned["a"]), loadIn(owned["b"])
	if max(la, lb) != 50 || la+lb != 100 {
		t.Fatalf("after round 2: a %v (%d), b %v (%d): want the 50 alone", owned["a"], la, owned["b"], lb)
	}
}

// loadIn is a member's load under hotFirst.
func loadIn(assigned map[string][]int32) int64 {
	var l int64
	for topic, ps := range assigned {
		for _, w := range hotWeights(topic, ps) {
			l += w
		}
	}
	return l
}

// TestWeightedMeterThroughKgo: measured weights travel through the
// balancer as kgo drives it. a's Meter measures t/0 hot; a's report
// reaches the leader in a's JoinGroupMetadata; the leader moves t/0 to the
// joining b and carries its weight in b's assignment, which b's
// ParseSyncAssignment hands to b's Meter (past the fast re-join envelope),
// so b's next JoinGroupMetadata reports t/0 before b has measured it.
func TestWeightedMeterThroughKgo(t *testing.T) {
	meterA, meterB := weighted.NewMeter(weighted.MeterConfig{}), weighted.NewMeter(weighted.MeterConfig{})
	a, err := Weighted(weighted.Config{Meter: meterA}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Weighted(weighted.Config{Meter: meterB}, Config{})
	start := time.Unix(0, 0)
	for p, perSecond := range []int64{900, 100, 100, 100} {
		meterA.Observe("t", int32(p), 0, start)
		meterA.Observe("t", int32(p), 10*perSecond, start.Add(10*time.Second))
	}
	owned := map[string]map[string][]int32{"a": {"t": {0, 1, 2, 3}}, "b": nil}
	gens := map[string]int32{"a": 1, "b": -1}
	members := func() []kmsg.JoinGroupResponseMember {
		return []kmsg.JoinGroupResponseMember{
			member("a", a.JoinGroupMetadata([]string{"t"}, owned["a"], gens["a"])),
			member("b", b.JoinGroupMetadata([]string{"t"}, owned["b"], gens["b"])),
		}
	}
	for round, gen := range []int32{2, 3} {
		for _, sa := range balanceInto(t, a, gen, counts("t", 4), members()) {
			parse := map[string]*Balancer{"a": a, "b": b}[sa.MemberID]
			got, err := parse.ParseSyncAssignment(sa.MemberAssignment)
			if err != nil {
				t.Fatal(err)
			}
			owned[sa.MemberID], gens[sa.MemberID] = got, gen
		}
		if round == 0 && len(owned["b"]["t"]) != 0 {
			t.Fatalf("round 1 gives b %v while a owns it", owned["b"])
		}
	}
	if got := owned["b"]["t"]; !slices.Equal(got, []int32{0}) {
		t.Fatalf("b holds %v after two rounds, want the hot t/0", got)
	}
	sub, err := wire.DecodeSubscription(b.JoinGroupMetadata([]string{"t"}, owned["b"], gens["b"]))
	if err != nil {
		t.Fatal(err)
	}
	r, err := weighted.DecodeReport(sub.UserData)
	if err != nil || len(r.Topics) != 1 || !slices.Equal(r.Topics[0].Partitions, []int32{0}) || r.Topics[0].Weights[0] != 900 {
		t.Fatalf("b reports %+v (%v), want t/0 at the carried 900", r, err)
	}
}
