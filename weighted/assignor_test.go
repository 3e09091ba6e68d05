package weighted

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// TestNewWithConfig pins which fields are validated and how the zero
// values and overrides map onto the solver's knobs.
func TestNewWithConfig(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		want    config
		wantErr string
	}{
		{name: "zero value is the default", cfg: Config{}, want: defaultConfig()},
		{name: "tolerance set", cfg: Config{CountTolerance: 3}, want: config{countTolerance: 3, marginPPM: 100_000, bandPPM: 10_000}},
		{name: "strict counts override the tolerance", cfg: Config{CountTolerance: 3, StrictCounts: true}, want: config{countTolerance: 0, marginPPM: 100_000, bandPPM: 10_000}},
		{name: "hysteresis set", cfg: Config{HysteresisPercent: 25}, want: config{countTolerance: 1, marginPPM: 250_000, bandPPM: 10_000}},
		{name: "no hysteresis overrides the margin", cfg: Config{HysteresisPercent: 25, NoHysteresis: true}, want: config{countTolerance: 1, marginPPM: 0, bandPPM: 10_000}},
		{name: "tie band set, to a millionth", cfg: Config{TiePercent: 0.5}, want: config{countTolerance: 1, marginPPM: 100_000, bandPPM: 5_000}},
		{name: "tie band of 100%", cfg: Config{TiePercent: 100}, want: config{countTolerance: 1, marginPPM: 100_000, bandPPM: 1_000_000}},
		{name: "negative tolerance", cfg: Config{CountTolerance: -1}, wantErr: "CountTolerance -1"},
		{name: "hysteresis above 100%", cfg: Config{HysteresisPercent: 100.5}, wantErr: "HysteresisPercent 100.5"},
		{name: "hysteresis not a number", cfg: Config{HysteresisPercent: math.NaN()}, wantErr: "HysteresisPercent NaN"},
		{name: "negative tie band", cfg: Config{TiePercent: -5}, wantErr: "TiePercent -5"},
		{name: "tie band below a millionth", cfg: Config{TiePercent: 0.00001}, wantErr: "TiePercent 1e-05"},
		{name: "negative default weight", cfg: Config{DefaultWeight: -2}, wantErr: "DefaultWeight -2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := NewWithConfig(tt.cfg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "weighted: ") {
					t.Fatalf("err = %v, want one naming %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.solver != tt.want {
				t.Fatalf("solver config %+v, want %+v", a.solver, tt.want)
			}
		})
	}
}

// indexOf builds the index of g.
func indexOf(t *testing.T, g assignor.Group) *assignor.Index {
	t.Helper()
	ix, err := assignor.NewIndex(g)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestWeightsOf pins the default weight of unknown partitions: the rounded
// mean of the known ones, DefaultWeight when set, 1 when none is known;
// weights follow the partitions when they are given out of order.
func TestWeightsOf(t *testing.T) {
	u := assignor.UnknownWeight
	tests := []struct {
		name   string
		topics []assignor.Topic
		def    int64
		want   []int64
	}{
		{name: "mean of known, rounded", topics: []assignor.Topic{
			{Name: "a", Partitions: []int32{0, 1, 2}, Weights: []int64{10, u, 5}},
			{Name: "b", Partitions: []int32{0}},
		}, want: []int64{10, 8, 5, 8}},
		{name: "explicit default", def: 3, topics: []assignor.Topic{
			{Name: "a", Partitions: []int32{0, 1}, Weights: []int64{10, u}},
		}, want: []int64{10, 3}},
		{name: "none known weighs 1", topics: []assignor.Topic{
			{Name: "a", Partitions: []int32{0, 1}},
		}, want: []int64{1, 1}},
		{name: "all known idle: unknown idle too", topics: []assignor.Topic{
			{Name: "a", Partitions: []int32{0, 1}, Weights: []int64{0, u}},
		}, want: []int64{0, 0}},
		{name: "permuted partitions keep their weights", topics: []assignor.Topic{
			{Name: "a", Partitions: []int32{2, 0, 1}, Weights: []int64{7, 5, 6}},
		}, want: []int64{5, 6, 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix := indexOf(t, assignor.Group{Topics: tt.topics, Members: []assignor.Member{{ID: "m", Topics: []string{"a"}}}})
			got, err := weightsOf(ix, topicWeights(ix), tt.def)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Fatalf("weightsOf = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// TestTotalTooLarge: weights adding up beyond 2^61 are an error naming the
// topic and partition, never a panic or an overflow.
func TestTotalTooLarge(t *testing.T) {
	g := assignor.Group{
		Topics:  []assignor.Topic{{Name: "hot", Partitions: assignor.Partitions(3), Weights: []int64{math.MaxInt64 / 2, math.MaxInt64 / 2, 1}}},
		Members: []assignor.Member{{ID: "m", Topics: []string{"hot"}}},
	}
	_, err := New().Assign(g)
	if !errors.Is(err, errInput) || !strings.Contains(err.Error(), `topic "hot" partition 0`) {
		t.Fatalf("err = %v", err)
	}
	a, _ := NewWithConfig(Config{DefaultWeight: math.MaxInt64})
	g.Topics[0].Weights = []int64{1, assignor.UnknownWeight, 1}
	if _, err := a.Assign(g); !errors.Is(err, errInput) || !strings.Contains(err.Error(), `topic "hot" partition 1`) {
		t.Fatalf("huge default: err = %v", err)
	}
}

// TestRacksRead: racks reach the solver as sticky reads them (member racks
// in member order, rack sets keeping only member racks), and with equal
// weights every partition goes to the member in its replica's rack.
func TestRacksRead(t *testing.T) {
	g := assignor.Group{
		Topics: []assignor.Topic{{Name: "t", Partitions: assignor.Partitions(6), Weights: []int64{5, 5, 5, 5, 5, 5},
			ReplicaRacks: [][]string{{"zc", "other"}, {"za"}, {"zb"}, {"zc"}, {"za"}, {"zb"}}}},
		Members: []assignor.Member{
			{ID: "A", Rack: "za", Topics: []string{"t"}},
			{ID: "B", Rack: "zb", Topics: []string{"t"}},
			{ID: "C", Rack: "zc", Topics: []string{"t"}},
		},
	}
	ix := indexOf(t, g)
	in, err := inputOf(ix, topicWeights(ix), 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(in.memberRack, []int32{0, 1, 2}) || !slices.Equal(in.replicaRacks, []int32{0, 1, 2, 0, 1, 2}) ||
		len(in.rackSets) != 3 || !slices.Equal(in.rackSets[0], []int32{2}) {
		t.Fatalf("racks %v %v %v", in.memberRack, in.replicaRacks, in.rackSets)
	}
	plan, err := New().Assign(g)
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.String(); got != "A: t[1 4]\nB: t[2 5]\nC: t[0 3]\n" {
		t.Fatalf("rack-aware plan:\n%s", got)
	}
	if in, _ := inputOf(ix, topicWeights(ix), 0, true); in.memberRack != nil || in.replicaRacks != nil {
		t.Fatal("IgnoreRacks read racks")
	}
}

// TestUserData: the layout round-trips, its generation is what this
// module's adapters read from a subscription v0/v1 (wire.UserDataGeneration),
// and other layouts are errors.
func TestUserData(t *testing.T) {
	for _, gen := range []int32{-1, 0, 7, math.MaxInt32} {
		b, err := New().SubscriptionUserData(assignor.MemberState{Generation: gen})
		if err != nil || len(b) != userDataSize {
			t.Fatalf("generation %d: %x, %v", gen, b, err)
		}
		if got, v, err := DecodeUserData(b); got != gen || v != 0 || err != nil {
			t.Fatalf("generation %d: decoded %d v%d %v", gen, got, v, err)
		}
		if got, err := wire.UserDataGeneration(b); got != gen || err != nil {
			t.Fatalf("generation %d: wire.UserDataGeneration = %d, %v", gen, got, err)
		}
	}
	if got, err := New().SubscriptionUserData(assignor.MemberState{Generation: 3}); err != nil || string(got) != "\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00" {
		t.Fatalf("layout %x", got)
	}
	for _, bad := range [][]byte{
		wire.CooperativeUserData(3),
		wire.StickyUserData{Generation: 3, Owned: []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{0}}}}.AppendTo(nil),
		{0, 0, 0, 0, 0, 0, 0, 3, 0, 1},
		{0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 9},
	} {
		if _, _, err := DecodeUserData(bad); !errors.Is(err, ErrUserData) {
			t.Fatalf("%x: err = %v", bad, err)
		}
	}
	if gen, _, err := DecodeUserData(nil); gen != assignor.NoGeneration || err != nil {
		t.Fatalf("empty: %d %v", gen, err)
	}
}

// TestAssignFlatMatchesAssign: AssignFlat on a prebuilt index, and the
// plan for permuted members and topics, equal Assign's.
func TestAssignFlatMatchesAssign(t *testing.T) {
	g := assignor.Group{
		Topics: []assignor.Topic{
			{Name: "a", Partitions: assignor.Partitions(5), Weights: []int64{50, 1, 0, 30, assignor.UnknownWeight}},
			{Name: "b", Partitions: assignor.Partitions(3), Weights: []int64{20, 20, 20}},
		},
		Members: []assignor.Member{
			{ID: "m1", Topics: []string{"a", "b"}, Generation: 2, Owned: []assignor.TopicPartitions{{Topic: "a", Partitions: []int32{0, 1, 2}}}},
			{ID: "m2", Topics: []string{"a"}, Generation: 2, Owned: []assignor.TopicPartitions{{Topic: "a", Partitions: []int32{3}}}},
			{ID: "m3", Topics: []string{"b"}},
		},
	}
	want, err := New().Assign(g)
	if err != nil {
		t.Fatal(err)
	}
	ix, _ := assignor.NewIndex(g)
	fp, err := New().AssignFlat(ix)
	if got := ix.PlanOf(fp); err != nil || fp.UserData != nil || got.String() != want.String() {
		t.Fatalf("AssignFlat (user data %q, error %v):\n%s\nAssign:\n%s", fp.UserData, err, got, want)
	}
	h := g.Clone()
	slices.Reverse(h.Members)
	slices.Reverse(h.Topics)
	if got, err := New().Assign(h); err != nil || got.String() != sortedPlan(t, got, want) {
		t.Fatalf("permuted:\n%s\nwant:\n%s", got, want)
	}
}

// sortedPlan returns want as the text got's member order gives it.
func sortedPlan(t *testing.T, got, want assignor.Plan) string {
	t.Helper()
	var b strings.Builder
	for _, mp := range got.Members {
		i := slices.IndexFunc(want.Members, func(w assignor.MemberPlan) bool { return w.Member == mp.Member })
		b.WriteString(assignor.Plan{Members: want.Members[i : i+1]}.String())
	}
	return b.String()
}

// TestWeightsSupplied: Config.Weights fills what the Group leaves unknown,
// the Group's own weights win, the index is not written, and a bad answer
// is an error naming the topic.
func TestWeightsSupplied(t *testing.T) {
	u := assignor.UnknownWeight
	g := assignor.Group{
		Topics: []assignor.Topic{
			{Name: "a", Partitions: []int32{1, 0}, Weights: []int64{u, 7}},
			{Name: "b", Partitions: assignor.Partitions(2)},
			{Name: "c", Partitions: assignor.Partitions(1), Weights: []int64{4}},
		},
		Members: []assignor.Member{{ID: "m", Topics: []string{"a", "b", "c"}}},
	}
	var asked []string
	source := func(topics []assignor.TopicPartitions) [][]int64 {
		asked = append(asked, assignor.FormatTopicPartitions(topics))
		return [][]int64{
			{100, 200}, // a: partition 0 keeps the Group's 7
			{u, 30},    // b
		}
	}
	ix := indexOf(t, g)
	w := topicWeights(ix)
	if err := supplied(ix, w, source); err != nil {
		t.Fatal(err)
	}
	w, _ = weightsOf(ix, w, 0)
	if want := []int64{7, 200, 60, 30, 4}; !slices.Equal(w, want) {
		t.Fatalf("weights %v, want %v (asked %v)", w, want, asked)
	}
	if !slices.Equal(asked, []string{"a[0 1] b[0 1]"}) {
		t.Fatalf("asked %v: once, only topics with unknown weights, partitions ascending", asked)
	}
	if ix.Topic(1).Weights != nil || ix.Topic(0).Weights[1] != u {
		t.Fatal("supplied wrote the index")
	}
	for _, bad := range []struct {
		answer [][]int64
		want   string
	}{
		{[][]int64{nil}, "answered for 1 topics, asked for 2"},
		{[][]int64{{1}, nil}, `1 weights for the 2 partitions of topic "a"`},
		{[][]int64{{1, -3}, nil}, `topic "a" partition 1 the negative weight -3`},
	} {
		a, _ := NewWithConfig(Config{Weights: func([]assignor.TopicPartitions) [][]int64 { return bad.answer }})
		if _, err := a.Assign(g); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Fatalf("answer %v: err = %v, want %q", bad.answer, err, bad.want)
		}
	}
	none, _ := NewWithConfig(Config{Weights: func([]assignor.TopicPartitions) [][]int64 { return nil }})
	if _, err := none.Assign(g); err != nil {
		t.Fatalf("a source that knows nothing: %v", err)
	}
}
