package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/wire"
)

// classicMember is a Stable classic member: subscription v2 to a and b
// claiming gen, assigned assigned.
func classicMember(id string, gen int32, assigned string) rawMember {
	return rawMember{MemberID: id + "-uuid", ClientID: id, ClientHost: "/127.0.0.1",
		Metadata: wire.Subscription{Version: 2, Topics: []string{"a", "b"}, Owned: tps(assigned), Generation: gen}.AppendTo(nil), Assignment: assignment(assigned, nil)}
}

// skewedSnapshot is a Stable group of three members over a (4 partitions)
// and b (2): a[0] carries 100 records/s, a[1] 40, everything else 10.
func skewedSnapshot() snapshot {
	s := snapshot{At: time.Unix(1000, 0), Group: "g", Type: typeClassic, State: "Stable", ProtocolType: "consumer", Protocol: "sticky",
		Members: []rawMember{
			classicMember("m1", 6, "a:0,1"),
			classicMember("m2", 6, "a:2,3"),
			classicMember("m3", -1, "b:0,1"),
		},
		Topics:    []topicMeta{{Name: "a", Partitions: []int32{0, 1, 2, 3}}, {Name: "b", Partitions: []int32{0, 1}}},
		Committed: map[tp]int64{{"a", 0}: 50, {"a", 1}: 90, {"a", 2}: 95, {"a", 3}: 95, {"b", 0}: 100},
		End:       map[tp]int64{{"a", 0}: 150, {"a", 1}: 100, {"a", 2}: 100, {"a", 3}: 100, {"b", 0}: 100, {"b", 1}: 100},
		Rates:     map[tp]float64{{"a", 0}: 100, {"a", 1}: 40, {"a", 2}: 10, {"a", 3}: 10, {"b", 0}: 10, {"b", 1}: 10},
		Window:    5 * time.Second,
	}
	return s
}

func TestViewGeneration(t *testing.T) {
	for _, tc := range []struct {
		name     string
		snap     func() snapshot
		gen      int32
		inferred bool
		stable   bool
	}{
		{name: "classic: the highest claim plus one", snap: skewedSnapshot, gen: 7, inferred: true, stable: true},
		{name: "classic: no claim, no generation", snap: func() snapshot {
			s := skewedSnapshot()
			s.Members = []rawMember{classicMember("m1", -1, "a:0")}
			return s
		}, gen: -1, inferred: true, stable: true},
		{name: "classic, rebalancing: nothing to read", snap: func() snapshot {
			s := skewedSnapshot()
			s.State = "PreparingRebalance"
			s.Members = []rawMember{{MemberID: "m1"}, {MemberID: "m2"}}
			return s
		}, gen: -1, inferred: true, stable: false},
		{name: "KIP-848: the group epoch, exact", snap: func() snapshot {
			return snapshot{Group: "g", Type: typeConsumer, State: "Stable", Epoch: 12, AssignmentEpoch: 12, AssignorName: "uniform",
				Members: []rawMember{{MemberID: "x", MemberType: 1, MemberEpoch: 12, SubscribedTopics: []string{"a"}, Assigned: tps("a:0")}}}
		}, gen: 12, inferred: false, stable: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newView(tc.snap())
			if v.gen != tc.gen || v.inferred != tc.inferred || v.stable != tc.stable {
				t.Errorf("gen %d inferred %v stable %v, want %d %v %v", v.gen, v.inferred, v.stable, tc.gen, tc.inferred, tc.stable)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	d := describe(newView(skewedSnapshot()))
	if d.Generation != 7 || !d.GenerationInferred || !d.Assignments {
		t.Errorf("generation %d inferred %v assignments %v", d.Generation, d.GenerationInferred, d.Assignments)
	}
	want := []struct {
		name       string
		count      int
		lag        int64
		uncommited int
		load       float64
	}{
		{"m1", 2, 100 + 10, 0, 140},
		{"m2", 2, 5 + 5, 0, 20},
		{"m3", 2, 0, 1, 20}, // b[1] has no committed offset: counted 0, reported
	}
	if len(d.Members) != len(want) {
		t.Fatalf("%d members", len(d.Members))
	}
	for i, w := range want {
		m := d.Members[i]
		if m.Name != w.name || m.Count != w.count || m.Lag != w.lag || m.LagUncommitted != w.uncommited || math.Abs(m.Measured-w.load) > 1e-9 {
			t.Errorf("member %d: %s count %d lag %d (%d uncommitted) load %v, want %+v", i, m.Name, m.Count, m.Lag, m.LagUncommitted, m.Measured, w)
		}
	}
	tt := d.Totals
	if tt.Partitions != 6 || tt.Assigned != 6 || tt.CountSpread != 0 || tt.Heaviest != "m1" || tt.LoadMax != 140 || tt.LoadMin != 20 || tt.LoadSpread != 120 {
		t.Errorf("totals %+v", tt)
	}
	if math.Abs(tt.LoadMean-60) > 1e-9 || math.Abs(tt.HeaviestOverMean-140.0/60) > 1e-9 {
		t.Errorf("mean %v, heaviest over mean %v", tt.LoadMean, tt.HeaviestOverMean)
	}
	if len(d.Unassigned) != 0 {
		t.Errorf("unassigned %v", d.Unassigned)
	}
	if !strings.Contains(strings.Join(d.Notes, "\n"), "leader: not visible") {
		t.Errorf("notes do not say the leader is invisible: %q", d.Notes)
	}
	// JSON for scripts: the schema's names.
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"generation":7`, `"generation_inferred":true`, `"measured_load":140`, `"heaviest":"m1"`, `"claim_generation":6`} {
		if !bytes.Contains(b, []byte(key)) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestDescribeUnassignedAndMarked(t *testing.T) {
	s := skewedSnapshot()
	s.Members[2] = rawMember{MemberID: "m3-uuid", ClientID: "m3", Metadata: []byte{0, 2, 0}, Assignment: assignment("b:0", nil)}
	d := describe(newView(s))
	if got := formatJSONTPs(d.Unassigned); got != "b[1]" {
		t.Errorf("unassigned %q, want b[1]", got)
	}
	if len(d.Members[2].Problems) == 0 {
		t.Errorf("member with undecodable metadata not marked")
	}
	var buf bytes.Buffer
	if err := renderDescribe(&buf, d); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "! subscription metadata (3 bytes) does not decode") {
		t.Errorf("the table does not mark the member:\n%s", buf.String())
	}
	if !strings.Contains(buf.String(), "unassigned: b[1]") {
		t.Errorf("the unassigned partition is not shown:\n%s", buf.String())
	}
}

func TestShortNames(t *testing.T) {
	ms := []member{{ID: "a-123456789", ClientID: "a"}, {ID: "b-1111111", ClientID: "b"}, {ID: "b-2222222", ClientID: "b"}, {ID: "x"}}
	got := shortNames(ms)
	want := map[string]string{"a-123456789": "a", "b-1111111": "b/111111", "b-2222222": "b/222222", "x": "x"}
	for id, n := range want {
		if got[id] != n {
			t.Errorf("%s: %q, want %q", id, got[id], n)
		}
	}
}

func TestRates(t *testing.T) {
	got := rates(map[tp]int64{{"a", 0}: 10, {"a", 1}: 50, {"a", 2}: 5},
		map[tp]int64{{"a", 0}: 30, {"a", 1}: 40, {"b", 0}: 9}, 2*time.Second)
	if len(got) != 1 || got[tp{"a", 0}] != 10 {
		t.Errorf("rates %v, want a[0] 10/s only (a[1] went down, a[2] and b[0] in one sample)", got)
	}
	if len(rates(nil, map[tp]int64{{"a", 0}: 1}, 0)) != 0 {
		t.Error("a zero window gives rates")
	}
}

func TestBuildGroup(t *testing.T) {
	s := skewedSnapshot()
	s.Topics[0].Racks = [][]string{{"r1"}, {"r2"}, {"r1"}, {"r2"}}
	g := buildGroup(newView(s), nil)
	if len(g.Members) != 3 || len(g.Topics) != 2 {
		t.Fatalf("%d members, %d topics", len(g.Members), len(g.Topics))
	}
	for _, m := range g.Members {
		if m.Generation != 7 {
			t.Errorf("%s owns at generation %d, want the group's 7", m.ID, m.Generation)
		}
	}
	if w := g.Topics[0].Weights; len(w) != 4 || w[0] != 100_000 || w[1] != 40_000 {
		t.Errorf("weights %v, want milli-records/s", w)
	}
	if g.Topics[0].ReplicaRacks == nil || g.Topics[1].ReplicaRacks != nil {
		t.Errorf("replica racks %v %v", g.Topics[0].ReplicaRacks, g.Topics[1].ReplicaRacks)
	}
	s.Rates = nil
	if g := buildGroup(newView(s), nil); g.Topics[0].Weights != nil {
		t.Errorf("weights without a measure: %v", g.Topics[0].Weights)
	}
}

func TestDescribeConsumerGroup(t *testing.T) {
	s := snapshot{Group: "g", Type: typeConsumer, State: "Reconciling", Epoch: 9, AssignmentEpoch: 9, AssignorName: "uniform",
		Members: []rawMember{
			{MemberID: "x", ClientID: "cx", MemberType: 1, MemberEpoch: 9, SubscribedTopics: []string{"a"}, Assigned: tps("a:0,1"), Target: tps("a:0")},
			{MemberID: "y", ClientID: "cy", MemberType: 1, MemberEpoch: 8, SubscribedTopics: []string{"a"}, Target: tps("a:1")},
		},
		Topics: []topicMeta{{Name: "a", Partitions: []int32{0, 1}}}}
	d := describe(newView(s))
	if d.GenerationInferred || d.Generation != 9 || d.Protocol != "uniform" {
		t.Errorf("epoch %d inferred %v assignor %s", d.Generation, d.GenerationInferred, d.Protocol)
	}
	var buf bytes.Buffer
	if err := renderDescribe(&buf, d); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"group epoch 9, assignment epoch 9", "cx: a[0 1]", "target: a[0]", "cy: -", "target: a[1]", "KIP-848 group: the broker assigns"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("missing %q in\n%s", want, buf.String())
		}
	}
}

func TestDescribeEmptyGroup(t *testing.T) {
	d := describe(newView(snapshot{Group: "g", Type: typeClassic, State: "Empty", ProtocolType: "consumer"}))
	if d.Assignments || len(d.Members) != 0 || !strings.Contains(strings.Join(d.Notes, "\n"), "the group has no members (state Empty)") {
		t.Errorf("assignments %v, members %d, notes %q", d.Assignments, len(d.Members), d.Notes)
	}
	var buf bytes.Buffer
	if err := renderDescribe(&buf, d); err != nil {
		t.Fatal(err)
	}
	if _, err := planWhatIf(newView(snapshot{Group: "g", Type: typeClassic, State: "Empty"}), Assignor("s", "", sticky.New)); err == nil || !strings.Contains(err.Error(), "no members") {
		t.Errorf("whatif on a group with no members: %v", err)
	}
}
