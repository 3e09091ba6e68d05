package kafka

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor"
)

func twoTopics() assignor.Group {
	return assignor.Group{
		Topics: []assignor.Topic{
			{Name: "b", Partitions: assignor.Partitions(2)},
			{Name: "a", Partitions: assignor.Partitions(3)},
		},
		Members: []assignor.Member{
			{ID: "m2", Topics: []string{"a", "b", "gone", "a"}, Generation: 4,
				Owned: []assignor.TopicPartitions{{Topic: "a", Partitions: []int32{2, 0}}, {Topic: "b", Partitions: []int32{1}}}},
			{ID: "m1", Topics: []string{"a"}, Rack: "r1", Generation: -7},
		},
	}
}

// The text form is the contract with GroupInput.java: topics and members by
// index in the group's order, subscriptions to unknown topics left out and
// deduplicated, negative generations written as NoGeneration, owned rows
// as given.
func TestEncodeGroup(t *testing.T) {
	got, err := encodeGroup(nil, "7", twoTopics())
	if err != nil {
		t.Fatal(err)
	}
	want := `group 7
topics 2
b 2
a 3
members 2
m2 4 - 2 0 1
m1 -1 r1 1 1
owned 2
0 1 2 0
0 0 1
end
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestEncodeGroupRejects(t *testing.T) {
	tests := []struct {
		name   string
		change func(g *assignor.Group)
		want   string
	}{
		{"partitions not 0..n-1", func(g *assignor.Group) { g.Topics[1].Partitions = []int32{0, 2, 1} }, `topic "a": partition 2 at position 1`},
		{"a topic twice", func(g *assignor.Group) { g.Topics[1].Name = "b" }, `topic "b" listed twice`},
		{"a claim on a topic the metadata lacks", func(g *assignor.Group) { g.Members[0].Owned[0].Topic = "gone" }, `member "m2" owns partitions of topic "gone"`},
		{"a claim on a partition the metadata lacks", func(g *assignor.Group) { g.Members[0].Owned[1].Partitions = []int32{2} }, `member "m2" owns b-2`},
		{"a member ID with a space", func(g *assignor.Group) { g.Members[1].ID = "m 1" }, `member "m 1": empty or with white space`},
		{"an empty member ID", func(g *assignor.Group) { g.Members[1].ID = "" }, `member "": empty`},
		{"a rack with a tab", func(g *assignor.Group) { g.Members[1].Rack = "r\t1" }, `member "m1": kafka: rack`},
		{"a topic name with a newline", func(g *assignor.Group) { g.Topics[0].Name = "b\n" }, `topic "b\n": empty or with white space`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := twoTopics().Clone()
			tt.change(&g)
			_, err := encodeGroup(nil, "0", g)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// decodeResults turns the harness's rows (member and topic indices) into a
// Plan sorted by member ID, each member's topics sorted by name, with an
// empty entry for a member the assignor left out.
func TestDecodeResults(t *testing.T) {
	g := twoTopics()
	out := `jvm 17.0.15 OpenJDK gc=G1 args=-Xms1g,-Xmx1g
result 0
subscription heterogeneous
warmup 3 900
times 30 10 20
allocs 300 100 200
gcs 0 1 0
capped 0
plan 2
0 1 0 1
0 0 0 1
end
`
	jvm, res, err := decodeResults(strings.NewReader(out), []assignor.Group{g})
	if err != nil {
		t.Fatal(err)
	}
	if jvm != "17.0.15 OpenJDK gc=G1 args=-Xms1g,-Xmx1g" || len(res) != 1 {
		t.Fatalf("jvm %q, %d results", jvm, len(res))
	}
	r := res[0]
	want := assignor.Plan{Members: []assignor.MemberPlan{
		{Member: "m1"},
		{Member: "m2", Assigned: []assignor.TopicPartitions{{Topic: "a", Partitions: []int32{0, 1}}, {Topic: "b", Partitions: []int32{0, 1}}}},
	}}
	if !reflect.DeepEqual(r.Plan, want) {
		t.Errorf("plan\n%v\nwant\n%v", r.Plan, want)
	}
	if r.Median() != 20 || !reflect.DeepEqual(r.AllocBytes, []uint64{300, 100, 200}) || !reflect.DeepEqual(r.GCs, []uint32{0, 1, 0}) ||
		r.WarmupRuns != 3 || r.Warmup != 900 || r.Subscription != "heterogeneous" || r.Capped || r.JVM != jvm {
		t.Errorf("got %+v", r)
	}
}

func TestDecodeResultsRejects(t *testing.T) {
	head := "jvm x\nresult 0\nsubscription -\nwarmup 0 0\n"
	tests := []struct{ name, out, want string }{
		{"no jvm line", "result 0\n", `want "jvm"`},
		{"output ends early", head, `where "times" was expected`},
		{"counts disagree", head + "times 1 2\nallocs 1\ngcs 1 1\n", "2 times, 1 allocs, 2 gcs"},
		{"member index out of range", head + "times 1\nallocs 1\ngcs 0\ncapped 0\nplan 1\n2 0 1\nend\n", "out of range"},
		{"topic index out of range", head + "times 1\nallocs 1\ngcs 0\ncapped 0\nplan 1\n0 2 1\nend\n", "out of range"},
		{"a row without a topic", head + "times 1\nallocs 1\ngcs 0\ncapped 0\nplan 1\n0\nend\n", "want a member, a topic"},
		{"a prefix is not a keyword", "jvmx\n", `want "jvm"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := decodeResults(strings.NewReader(tt.out), []assignor.Group{twoTopics()})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestMedian(t *testing.T) {
	tests := []struct {
		name  string
		times []time.Duration
		want  time.Duration
	}{
		{"none", nil, 0},
		{"odd count: the middle one", []time.Duration{5, 1, 3}, 3},
		{"even count: the mean of the middle two", []time.Duration{4, 1, 2, 8}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (Result{Times: tt.times}).Median(); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// Run refuses what no JVM could run before starting one.
func TestRunRejects(t *testing.T) {
	h := &Harness{Java: "/nonexistent/java", Classpath: "x"}
	if _, err := h.Run(t.Context(), "sticky", nil, DefaultOptions()); err == nil || !strings.Contains(err.Error(), `unknown assignor "sticky"`) {
		t.Errorf("unknown assignor: %v", err)
	}
	if _, err := h.Run(t.Context(), Uniform, nil, Options{}); err == nil || !strings.Contains(err.Error(), "MinRuns") {
		t.Errorf("no timed run: %v", err)
	}
	g := twoTopics()
	g.Members[0].ID = ""
	if _, err := h.Run(t.Context(), Uniform, []assignor.Group{g}, PlanOnly()); err == nil || !strings.Contains(err.Error(), "group 0") {
		t.Errorf("bad group: %v", err)
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv(ClasspathEnv, "")
	if _, err := FromEnv(); err == nil {
		t.Error("FromEnv without the variable: no error")
	}
	h := &Harness{Java: "/usr/bin/java", Classpath: "/a.jar:/b.jar"}
	name, value, _ := strings.Cut(h.Env(), "=")
	t.Setenv(name, value)
	got, err := FromEnv()
	if err != nil || *got != *h {
		t.Errorf("FromEnv() = %v, %v; want %v", got, err, h)
	}
}
