package assignor_test

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kgroup/assignor"
)

// set parses the notation of [assignor.FormatTopicPartitions], "a[0 2] b[1]",
// keeping order, duplicates and empty entries ("c[]") as written, so that a
// row can state a non-canonical input.
func set(t testing.TB, s string) []assignor.TopicPartitions {
	t.Helper()
	var out []assignor.TopicPartitions
	for _, entry := range strings.SplitAfter(s, "]") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		topic, ids, ok := strings.Cut(strings.TrimSuffix(entry, "]"), "[")
		if !ok {
			t.Fatalf("bad set %q at %q", s, entry)
		}
		tp := assignor.TopicPartitions{Topic: topic, Partitions: []int32{}}
		for _, f := range strings.Fields(ids) {
			p, err := strconv.ParseInt(f, 10, 32)
			if err != nil {
				t.Fatalf("bad set %q: %v", s, err)
			}
			tp.Partitions = append(tp.Partitions, int32(p))
		}
		out = append(out, tp)
	}
	return out
}

// isCanonical is the contract, checked independently of the package's own
// check: topics sorted and distinct, each topic's partitions sorted and
// distinct, no empty entry, nil for the empty set.
func isCanonical(tps []assignor.TopicPartitions) bool {
	if tps != nil && len(tps) == 0 {
		return false
	}
	var topics []string
	for _, tp := range tps {
		topics = append(topics, tp.Topic)
		if len(tp.Partitions) == 0 || !sortedDistinct(tp.Partitions) {
			return false
		}
	}
	return sortedDistinct(topics)
}

func sortedDistinct[E cmp.Ordered](s []E) bool {
	return slices.IsSorted(s) && len(slices.Compact(slices.Clone(s))) == len(s)
}

func TestNormalizeTopicPartitions(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"empty stays empty", "", ""},
		{"an empty entry is dropped", "a[]", ""},
		{"canonical input is copied as is", "a[0 2] b[1]", "a[0 2] b[1]"},
		{"topics are sorted by name", "b[1] a[0]", "a[0] b[1]"},
		{"partitions are sorted", "a[3 1 2]", "a[1 2 3]"},
		{"duplicate partitions are dropped", "a[1 1 0 1]", "a[0 1]"},
		{"entries of one topic are merged", "a[2] b[0] a[0 2]", "a[0 2] b[0]"},
		{"empty entries between others are dropped", "a[] b[1] a[] c[]", "b[1]"},
		{"negative IDs are kept, sorted first", "a[0 -1]", "a[-1 0]"},
		{"the empty topic name is a name", "b[0] [1]", "[1] b[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := set(t, tt.in)
			got := assignor.NormalizeTopicPartitions(in)
			if s := assignor.FormatTopicPartitions(got); s != tt.want {
				t.Errorf("NormalizeTopicPartitions(%s) = %s, want %s", tt.in, s, tt.want)
			}
			if !isCanonical(got) {
				t.Errorf("result %#v is not canonical", got)
			}
		})
	}
}

func TestSetOperations(t *testing.T) {
	tests := []struct {
		name                       string
		a, b                       string
		merge, subtract, intersect string
		equal                      bool
	}{
		{name: "empty sets", equal: true},
		{name: "a set and the empty set", a: "a[0 1]", merge: "a[0 1]", subtract: "a[0 1]"},
		{name: "the empty set and a set", b: "a[0 1]", merge: "a[0 1]"},
		{name: "equal sets", a: "a[0 1] b[2]", b: "a[0 1] b[2]", merge: "a[0 1] b[2]", intersect: "a[0 1] b[2]", equal: true},
		{name: "disjoint topics interleave by name", a: "a[0] c[0]", b: "b[1] d[1]", merge: "a[0] b[1] c[0] d[1]", subtract: "a[0] c[0]"},
		{name: "one topic, overlapping partitions", a: "a[0 1 2]", b: "a[1 2 3]", merge: "a[0 1 2 3]", subtract: "a[0]", intersect: "a[1 2]"},
		{name: "a topic emptied by the subtraction is dropped", a: "a[0] b[1]", b: "a[0 5]", merge: "a[0 5] b[1]", subtract: "b[1]", intersect: "a[0]"},
		{name: "subset", a: "a[1]", b: "a[0 1 2]", merge: "a[0 1 2]", intersect: "a[1]"},
		{name: "unsorted inputs are normalised first", a: "b[1] a[2 0]", b: "a[0] a[2]", merge: "a[0 2] b[1]", subtract: "b[1]", intersect: "a[0 2]"},
		{name: "duplicates and empty entries do not make sets differ", a: "a[1 1] c[]", b: "a[1]", merge: "a[1]", intersect: "a[1]", equal: true},
		{name: "same topics, different partitions", a: "a[0]", b: "a[1]", merge: "a[0 1]", subtract: "a[0]"},
		{name: "negative IDs", a: "a[-1 0]", b: "a[-1]", merge: "a[-1 0]", subtract: "a[0]", intersect: "a[-1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := set(t, tt.a), set(t, tt.b)
			for _, op := range []struct {
				name string
				got  []assignor.TopicPartitions
				want string
			}{
				{"MergeTopicPartitions", assignor.MergeTopicPartitions(a, b), tt.merge},
				{"SubtractTopicPartitions", assignor.SubtractTopicPartitions(a, b), tt.subtract},
				{"IntersectTopicPartitions", assignor.IntersectTopicPartitions(a, b), tt.intersect},
			} {
				if s := assignor.FormatTopicPartitions(op.got); s != op.want {
					t.Errorf("%s(%s, %s) = %s, want %s", op.name, tt.a, tt.b, s, op.want)
				}
				if !isCanonical(op.got) {
					t.Errorf("%s: result %#v is not canonical", op.name, op.got)
				}
			}
			if got := assignor.EqualTopicPartitions(a, b); got != tt.equal {
				t.Errorf("EqualTopicPartitions(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.equal)
			}
			if got := assignor.EqualTopicPartitions(b, a); got != tt.equal {
				t.Errorf("EqualTopicPartitions(%s, %s) = %v, want %v", tt.b, tt.a, got, tt.equal)
			}
		})
	}
}

func TestTopicPartitionsMaps(t *testing.T) {
	tests := []struct {
		name string
		m    map[string][]int32
		want string
	}{
		{"nil map", nil, ""},
		{"topics without partitions are left out", map[string][]int32{"a": nil, "b": {}}, ""},
		{"topics sorted, partitions sorted and distinct", map[string][]int32{"b": {3, 1, 3}, "a": {0}, "c": nil}, "a[0] b[1 3]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := assignor.TopicPartitionsFromMap(tt.m)
			if s := assignor.FormatTopicPartitions(got); s != tt.want {
				t.Errorf("TopicPartitionsFromMap(%v) = %s, want %s", tt.m, s, tt.want)
			}
			if !isCanonical(got) {
				t.Errorf("result %#v is not canonical", got)
			}
			back := assignor.TopicPartitionsMap(got)
			if s := assignor.FormatTopicPartitions(assignor.TopicPartitionsFromMap(back)); s != tt.want {
				t.Errorf("round trip through TopicPartitionsMap gives %s, want %s", s, tt.want)
			}
			if len(got) == 0 && back != nil {
				t.Errorf("TopicPartitionsMap of the empty set = %#v, want nil", back)
			}
		})
	}
	t.Run("a non-canonical set becomes one key per topic", func(t *testing.T) {
		got := assignor.TopicPartitionsMap(set(t, "b[2 1] a[0] b[1] c[]"))
		if want := map[string][]int32{"a": {0}, "b": {1, 2}}; !reflect.DeepEqual(got, want) {
			t.Errorf("TopicPartitionsMap = %v, want %v", got, want)
		}
	})
}

func TestCountPartitions(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
	}{
		{"empty", "", 0},
		{"empty entries count nothing", "a[] b[]", 0},
		{"canonical: the set's size", "a[0 1] b[5]", 3},
		{"duplicates count each time", "a[1 1] a[1]", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := assignor.CountPartitions(set(t, tt.in)); got != tt.want {
				t.Errorf("CountPartitions(%s) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

// model is the naive oracle: a set of partitions as a map.
type model map[string]map[int32]bool

func modelOf(tps []assignor.TopicPartitions) model {
	m := model{}
	for _, tp := range tps {
		for _, p := range tp.Partitions {
			if m[tp.Topic] == nil {
				m[tp.Topic] = map[int32]bool{}
			}
			m[tp.Topic][p] = true
		}
	}
	return m
}

// where returns the partitions of a ∪ b that keep accepts.
func (a model) where(b model, keep func(inA, inB bool) bool) model {
	out := model{}
	for _, m := range []model{a, b} {
		for topic, ps := range m {
			for p := range ps {
				if keep(a[topic][p], b[topic][p]) {
					if out[topic] == nil {
						out[topic] = map[int32]bool{}
					}
					out[topic][p] = true
				}
			}
		}
	}
	return out
}

func (a model) equal(b model) bool {
	return maps.EqualFunc(a, b, func(x, y map[int32]bool) bool { return maps.Equal(x, y) })
}

// drawSet draws any []TopicPartitions: unsorted, with duplicate topics and
// partitions, empty entries, nil or empty partition lists, negative IDs.
func drawSet(t *rapid.T, label string) []assignor.TopicPartitions {
	if rapid.IntRange(0, 9).Draw(t, label+" nil") == 0 {
		return nil
	}
	canonical := rapid.Bool().Draw(t, label+" canonical")
	n := rapid.IntRange(0, 5).Draw(t, label+" entries")
	out := make([]assignor.TopicPartitions, n)
	for i := range out {
		out[i] = assignor.TopicPartitions{
			Topic:      rapid.SampledFrom([]string{"", "a", "b", "c", "d"}).Draw(t, fmt.Sprint(label, " topic ", i)),
			Partitions: rapid.SliceOfN(rapid.Int32Range(-2, 6), 0, 6).Draw(t, fmt.Sprint(label, " partitions ", i)),
		}
	}
	if canonical {
		return assignor.NormalizeTopicPartitions(out)
	}
	return out
}

// TestSetOperationsProperties checks every operation against the map model
// on any input, canonical or not, and that no result aliases or changes its
// inputs.
func TestSetOperationsProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := drawSet(t, "a"), drawSet(t, "b")
		aCopy, bCopy := assignor.CloneTopicPartitions(a), assignor.CloneTopicPartitions(b)
		ma, mb := modelOf(a), modelOf(b)
		results := []struct {
			name string
			got  []assignor.TopicPartitions
			want model
		}{
			{"NormalizeTopicPartitions", assignor.NormalizeTopicPartitions(a), ma},
			{"MergeTopicPartitions", assignor.MergeTopicPartitions(a, b), ma.where(mb, func(x, y bool) bool { return x || y })},
			{"SubtractTopicPartitions", assignor.SubtractTopicPartitions(a, b), ma.where(mb, func(x, y bool) bool { return x && !y })},
			{"IntersectTopicPartitions", assignor.IntersectTopicPartitions(a, b), ma.where(mb, func(x, y bool) bool { return x && y })},
			{"TopicPartitionsFromMap", assignor.TopicPartitionsFromMap(assignor.TopicPartitionsMap(a)), ma},
		}
		for _, r := range results {
			if !isCanonical(r.got) {
				t.Fatalf("%s: %#v is not canonical", r.name, r.got)
			}
			if !modelOf(r.got).equal(r.want) {
				t.Fatalf("%s = %s, want the partitions %v", r.name, assignor.FormatTopicPartitions(r.got), r.want)
			}
		}
		if got, want := assignor.EqualTopicPartitions(a, b), ma.equal(mb); got != want {
			t.Fatalf("EqualTopicPartitions = %v, the models say %v", got, want)
		}
		if got, want := assignor.CountPartitions(assignor.NormalizeTopicPartitions(a)), countModel(ma); got != want {
			t.Fatalf("CountPartitions of the canonical set = %d, want %d", got, want)
		}
		m := assignor.TopicPartitionsMap(a)
		for topic, ps := range m {
			if !slices.IsSorted(ps) || len(slices.Compact(slices.Clone(ps))) != len(ps) || len(ps) != len(ma[topic]) {
				t.Fatalf("TopicPartitionsMap[%q] = %v, want the sorted distinct %v", topic, ps, ma[topic])
			}
		}
		for _, r := range results {
			scribble(r.got)
		}
		for _, ps := range m {
			for i := range ps {
				ps[i] = -99
			}
		}
		if !reflect.DeepEqual(a, aCopy) || !reflect.DeepEqual(b, bCopy) {
			t.Fatalf("inputs changed: %#v %#v, were %#v %#v", a, b, aCopy, bCopy)
		}
	})
}

func countModel(m model) int {
	n := 0
	for _, ps := range m {
		n += len(ps)
	}
	return n
}

// scribble overwrites everything tps holds, so that a result sharing memory
// with an input shows up as a changed input.
func scribble(tps []assignor.TopicPartitions) {
	for i := range tps {
		tps[i].Topic = "scribbled"
		for j := range tps[i].Partitions {
			tps[i].Partitions[j] = -99
		}
	}
}
