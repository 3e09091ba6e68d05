package workload

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kgroup/assignor"
)

func weighed(t *testing.T, s Shape, sc Scenario, k Skew, seed uint64) Case {
	t.Helper()
	c, err := Build(s, sc, seed)
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.Weigh(k, seed)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// flat returns the case's weights, topic by topic.
func flat(c Case) []int64 {
	var out []int64
	for _, t := range c.Topics {
		out = append(out, t.Weights...)
	}
	return out
}

func sum(ws []int64) int64 {
	var s int64
	for _, w := range ws {
		s += w
	}
	return s
}

func TestWeighIsDeterministic(t *testing.T) {
	s := Shape{Topics: 6, Partitions: 50, Members: 7}
	for _, k := range Skews() {
		a, b := weighed(t, s, Fresh, k, 3), weighed(t, s, Fresh, k, 3)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two weighings from one seed differ", k)
		}
		if c := weighed(t, s, Fresh, k, 4); slices.Equal(flat(a), flat(c)) {
			t.Errorf("%s: seeds 3 and 4 give the same weights", k)
		}
	}
}

func TestWeighShape(t *testing.T) {
	s := Shape{Topics: 9, Partitions: 200, Members: 30}
	for _, sc := range []Scenario{Fresh, Join, Mixed, MixedJoin} {
		base, _ := Build(s, sc, 1)
		for _, k := range Skews() {
			c := weighed(t, s, sc, k, 1)
			for i, tp := range c.Topics {
				if len(tp.Weights) != len(tp.Partitions) {
					t.Fatalf("%s/%s: topic %q has %d weights for %d partitions", sc, k, tp.Name, len(tp.Weights), len(tp.Partitions))
				}
				if slices.ContainsFunc(tp.Weights, func(w int64) bool { return w < 0 }) {
					t.Errorf("%s/%s: topic %q has a negative weight", sc, k, tp.Name)
				}
				if base.Topics[i].Weights != nil {
					t.Fatalf("%s/%s: Weigh wrote into the case it was given", sc, k)
				}
			}
			if !reflect.DeepEqual(c.After, base.After) || !reflect.DeepEqual(c.Before, base.Before) {
				t.Errorf("%s/%s: Weigh changed the members", sc, k)
			}
			if _, err := assignor.NewIndex(c.Group(c.RoundRobin())); err != nil {
				t.Errorf("%s/%s: the weighted group is invalid: %v", sc, k, err)
			}
		}
	}
}

// TestSkewPatterns checks what each skew promises.
func TestSkewPatterns(t *testing.T) {
	s := Shape{Topics: 30, Partitions: 400, Members: 100}
	zipf := func(k Skew) {
		ws := flat(weighed(t, s, Fresh, k, 1))
		sorted := slices.Clone(ws)
		slices.SortFunc(sorted, func(a, b int64) int { return int(b - a) })
		if sorted[0] != ZipfScale {
			t.Errorf("%s: heaviest partition %d, want %d", k, sorted[0], ZipfScale)
		}
		if ws[0] == sorted[0] && ws[1] == sorted[1] {
			t.Errorf("%s: partitions are in rank order, want a random order", k)
		}
	}
	zipf(Zipf11)
	zipf(Zipf15)
	top := func(k Skew) float64 { // the heaviest partition's share
		ws := flat(weighed(t, s, Fresh, k, 1))
		return float64(slices.Max(ws)) / float64(sum(ws))
	}
	if a, b := top(Zipf11), top(Zipf15); !(b > 2*a) {
		t.Errorf("heaviest share zipf1.1 %.4f, zipf1.5 %.4f: want s = 1.5 much steeper", a, b)
	}

	ws := flat(weighed(t, s, Fresh, Hot5, 1))
	sorted := slices.Clone(ws)
	slices.SortFunc(sorted, func(a, b int64) int { return int(b - a) })
	hot := sum(sorted[:len(ws)/20])
	if share := float64(hot) / float64(sum(ws)); share < 0.47 || share > 0.53 {
		t.Errorf("hot5%%: the heaviest 5%% carry %.3f of the load, want about half", share)
	}

	c := weighed(t, s, Fresh, IdleTopics, 1)
	for i, tp := range c.Topics {
		idle := !slices.ContainsFunc(tp.Weights, func(w int64) bool { return w != 0 })
		if idle != (i%3 == 0) {
			t.Errorf("idle-topics: topic %q idle %v, want idle exactly for every third topic", tp.Name, idle)
		}
	}
}

func TestWeighUnknownSkew(t *testing.T) {
	c, _ := Build(small, Fresh, 1)
	_, err := c.Weigh("zipf9", 1)
	if err == nil || !strings.Contains(err.Error(), `"zipf9"`) {
		t.Errorf("unknown skew: error %v, want one naming it", err)
	}
}

func TestLowerBoundAndLoads(t *testing.T) {
	topics := []assignor.Topic{
		{Name: "a", Partitions: []int32{0, 1, 2}, Weights: []int64{10, 0, 3}},
		{Name: "b", Partitions: []int32{1, 0}, Weights: []int64{assignor.UnknownWeight, 4}},
		{Name: "c", Partitions: []int32{0}},
	}
	tests := []struct {
		members int
		want    int64
	}{
		{0, 0}, {1, 17}, {2, 10}, {10, 10},
	}
	for _, tt := range tests {
		if got := LowerBound(topics, tt.members); got != tt.want {
			t.Errorf("LowerBound over %d members: %d, want %d", tt.members, got, tt.want)
		}
	}
	big := []assignor.Topic{{Name: "a", Partitions: []int32{0, 1, 2}, Weights: []int64{4, 4, 3}}}
	if got := LowerBound(big, 2); got != 6 {
		t.Errorf("LowerBound of 11 over 2: %d, want 6 (rounded up)", got)
	}
	plan := assignor.Plan{Members: []assignor.MemberPlan{
		{Member: "m1", Assigned: []assignor.TopicPartitions{{Topic: "a", Partitions: []int32{0, 2}}, {Topic: "b", Partitions: []int32{0}}}},
		{Member: "m2", Assigned: []assignor.TopicPartitions{{Topic: "a", Partitions: []int32{1}}, {Topic: "b", Partitions: []int32{1}}, {Topic: "c", Partitions: []int32{0}}, {Topic: "x", Partitions: []int32{0}}}},
	}}
	want := map[string]int64{"m1": 17, "m2": 0}
	if got := Loads(topics, plan); !reflect.DeepEqual(got, want) {
		t.Errorf("Loads: %v, want %v", got, want)
	}
}

func TestSkewShapes(t *testing.T) {
	shapes := SkewShapes()
	if first, last := shapes[0].Total(), shapes[len(shapes)-1].Total(); first != 1000 || last != 1_000_000 {
		t.Errorf("SkewShapes run from %d to %d partitions, want 1k to 1M", first, last)
	}
	perMember := map[int]bool{}
	for i, s := range shapes {
		if i > 0 && s.Total() < shapes[i-1].Total() {
			t.Errorf("shape %v after %v: want smallest first", s, shapes[i-1])
		}
		perMember[s.Total()/s.Members] = true
	}
	for _, want := range []int{5, 10, 100, 500} {
		if !perMember[want] {
			t.Errorf("no shape with %d partitions per member (have %v)", want, perMember)
		}
	}
	shapes[0].Members = -1
	if SkewShapes()[0].Members < 0 {
		t.Error("SkewShapes shares its slice between calls")
	}
}
