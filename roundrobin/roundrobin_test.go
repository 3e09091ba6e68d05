package roundrobin_test

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"pgregory.net/rapid"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/roundrobin"
)

// member builds a dynamic member subscribed to topics.
func member(id string, topics ...string) assignor.Member {
	return assignor.Member{ID: id, Topics: topics, Generation: assignor.NoGeneration}
}

// static builds a static member (KIP-345) subscribed to topics.
func static(id, instance string, topics ...string) assignor.Member {
	m := member(id, topics...)
	m.InstanceID = instance
	return m
}

func topic(name string, n int32) assignor.Topic {
	return assignor.Topic{Name: name, Partitions: assignor.Partitions(n)}
}

// TestJavaExamples pins the plans Java's RoundRobinAssignor documents in its
// class comment and asserts in RoundRobinAssignorTest, in our notation.
func TestJavaExamples(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		g    assignor.Group
		want string
	}{
		{
			name: "class doc: two consumers, two topics of three partitions",
			g: assignor.Group{
				Members: []assignor.Member{member("C0", "t0", "t1"), member("C1", "t0", "t1")},
				Topics:  []assignor.Topic{topic("t0", 3), topic("t1", 3)},
			},
			want: "C0: t0[0 2] t1[1]\nC1: t0[1] t1[0 2]\n",
		},
		{
			name: "class doc: heterogeneous subscriptions skip non-subscribers",
			g: assignor.Group{
				Members: []assignor.Member{member("C0", "t0"), member("C1", "t0", "t1"), member("C2", "t0", "t1", "t2")},
				Topics:  []assignor.Topic{topic("t0", 1), topic("t1", 2), topic("t2", 3)},
			},
			want: "C0: t0[0]\nC1: t1[0]\nC2: t1[1] t2[0 1 2]\n",
		},
		{
			name: "class doc: static members before the rolling bounce",
			g: assignor.Group{
				Members: []assignor.Member{static("C0", "I0", "t0", "t1"), static("C1", "I1", "t0", "t1"), static("C2", "I2", "t0", "t1")},
				Topics:  []assignor.Topic{topic("t0", 3), topic("t1", 3)},
			},
			want: "C0: t0[0] t1[0]\nC1: t0[1] t1[1]\nC2: t0[2] t1[2]\n",
		},
		{
			name: "class doc: static members keep their partitions after new member IDs (KIP-345)",
			g: assignor.Group{
				Members: []assignor.Member{static("C5", "I0", "t0", "t1"), static("C3", "I1", "t0", "t1"), static("C4", "I2", "t0", "t1")},
				Topics:  []assignor.Topic{topic("t0", 3), topic("t1", 3)},
			},
			want: "C3: t0[1] t1[1]\nC4: t0[2] t1[2]\nC5: t0[0] t1[0]\n",
		},
		{
			name: "class doc: dynamic members after the rolling bounce are shuffled by member ID",
			g: assignor.Group{
				Members: []assignor.Member{member("C5", "t0", "t1"), member("C3", "t0", "t1"), member("C4", "t0", "t1")},
				Topics:  []assignor.Topic{topic("t0", 3), topic("t1", 3)},
			},
			want: "C3: t0[0] t1[0]\nC4: t0[1] t1[1]\nC5: t0[2] t1[2]\n",
		},
		{
			name: "test: one consumer, no topic",
			g:    assignor.Group{Members: []assignor.Member{member("consumer")}},
			want: "consumer:\n",
		},
		{
			name: "test: one consumer, nonexistent topic",
			g:    assignor.Group{Members: []assignor.Member{member("consumer", "topic")}},
			want: "consumer:\n",
		},
		{
			name: "test: only assigns partitions from subscribed topics",
			g: assignor.Group{
				Members: []assignor.Member{member("consumer", "topic")},
				Topics:  []assignor.Topic{topic("topic", 3), topic("other", 3)},
			},
			want: "consumer: topic[0 1 2]\n",
		},
		{
			name: "test: one consumer, multiple topics",
			g: assignor.Group{
				Members: []assignor.Member{member("consumer", "topic1", "topic2")},
				Topics:  []assignor.Topic{topic("topic1", 1), topic("topic2", 2)},
			},
			want: "consumer: topic1[0] topic2[0 1]\n",
		},
		{
			name: "test: two consumers, one topic, one partition",
			g: assignor.Group{
				Members: []assignor.Member{member("consumer1", "topic"), member("consumer2", "topic")},
				Topics:  []assignor.Topic{topic("topic", 1)},
			},
			want: "consumer1: topic[0]\nconsumer2:\n",
		},
		{
			name: "test: multiple consumers, mixed topics",
			g: assignor.Group{
				Members: []assignor.Member{member("consumer1", "topic1"), member("consumer2", "topic1", "topic2"), member("consumer3", "topic1")},
				Topics:  []assignor.Topic{topic("topic1", 3), topic("topic2", 2)},
			},
			want: "consumer1: topic1[0]\nconsumer2: topic1[1] topic2[0 1]\nconsumer3: topic1[2]\n",
		},
		{
			name: "test: two static consumers are ordered by instance ID, not member ID",
			g: assignor.Group{
				Members: []assignor.Member{static("consumer-b", "instance1", "topic1", "topic2"), static("consumer-a", "instance2", "topic1", "topic2")},
				Topics:  []assignor.Topic{topic("topic1", 3), topic("topic2", 3)},
			},
			want: "consumer-a: topic1[1] topic2[0 2]\nconsumer-b: topic1[0 2] topic2[1]\n",
		},
		{
			name: "test: a static consumer comes before a dynamic one",
			g: assignor.Group{
				Members: []assignor.Member{static("consumer-b", "instance1", "topic1", "topic2"), member("consumer-a", "topic1", "topic2")},
				Topics:  []assignor.Topic{topic("topic1", 3), topic("topic2", 3)},
			},
			want: "consumer-a: topic1[1] topic2[0 2]\nconsumer-b: topic1[0 2] topic2[1]\n",
		},
		{
			name: "test: static member assignment persists; the dynamic member comes last",
			g: assignor.Group{
				Members: []assignor.Member{
					static("consumer1", "instance1", "topic1", "topic2"),
					static("consumer2", "instance2", "topic1", "topic2"),
					static("consumer3", "instance3", "topic1", "topic2"),
					member("consumer4", "topic1", "topic2"),
				},
				Topics: []assignor.Topic{topic("topic1", 3), topic("topic2", 3)},
			},
			want: "consumer1: topic1[0] topic2[1]\nconsumer2: topic1[1] topic2[2]\nconsumer3: topic1[2]\nconsumer4: topic2[0]\n",
		},
		{
			name: "test: a new dynamic member replaces the old one in the same place",
			g: assignor.Group{
				Members: []assignor.Member{
					static("consumer1", "instance1", "topic1", "topic2"),
					static("consumer2", "instance2", "topic1", "topic2"),
					static("consumer3", "instance3", "topic1", "topic2"),
					member("consumer5", "topic1", "topic2"),
				},
				Topics: []assignor.Topic{topic("topic1", 3), topic("topic2", 3)},
			},
			want: "consumer1: topic1[0] topic2[1]\nconsumer2: topic1[1] topic2[2]\nconsumer3: topic1[2]\nconsumer5: topic2[0]\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			plan, err := roundrobin.New().Assign(tt.g)
			if err != nil {
				t.Fatalf("Assign: %v", err)
			}
			if got := plan.String(); got != tt.want {
				t.Errorf("plan:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestRingCarriesOverTopics pins that the ring does not restart per topic:
// the member after the last one served takes the next topic's first
// partition, even when it must skip non-subscribers to find one.
func TestRingCarriesOverTopics(t *testing.T) {
	t.Parallel()
	g := assignor.Group{
		Members: []assignor.Member{member("a", "t0", "t1"), member("b", "t0"), member("c", "t0", "t1")},
		Topics:  []assignor.Topic{topic("t0", 4), topic("t1", 3)},
	}
	// t0: a b c a; next is b, which skips t1, so t1: c a c.
	want := "a: t0[0 3] t1[1]\nb: t0[1]\nc: t0[2] t1[0 2]\n"
	plan, err := roundrobin.New().Assign(g)
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.String(); got != want {
		t.Errorf("plan:\n%s\nwant:\n%s", got, want)
	}
}

// TestNonContiguousPartitions pins that partition IDs, not positions, order
// a topic's partitions, whatever order the metadata lists them in.
func TestNonContiguousPartitions(t *testing.T) {
	t.Parallel()
	g := assignor.Group{
		Members: []assignor.Member{member("a", "t"), member("b", "t")},
		Topics:  []assignor.Topic{{Name: "t", Partitions: []int32{7, 2, 5, -1, 2}}},
	}
	want := "a: t[2 7]\nb: t[5]\n"
	plan, err := roundrobin.New().Assign(g)
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.String(); got != want {
		t.Errorf("plan:\n%s\nwant:\n%s", got, want)
	}
}

func TestInvalidGroup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		g    assignor.Group
		want error
	}{
		{"empty member ID", assignor.Group{Members: []assignor.Member{member("", "t")}}, assignor.ErrEmptyMemberID},
		{"duplicate member ID", assignor.Group{Members: []assignor.Member{member("a", "t"), member("a", "t")}}, assignor.ErrDuplicateMember},
		{"duplicate topic", assignor.Group{Members: []assignor.Member{member("a", "t")}, Topics: []assignor.Topic{topic("t", 1), topic("t", 2)}}, assignor.ErrDuplicateTopic},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := roundrobin.New().Assign(tt.g)
			if !errors.Is(err, tt.want) {
				t.Errorf("Assign error = %v, want %v", err, tt.want)
			}
		})
	}
}

// javaOracle is a direct model of Java's RoundRobinAssignor.assign: a
// circular iterator over the sorted members, peeked and advanced one member
// at a time, over partitions listed topic by topic. It is O(P·M) and
// compares strings through their UTF-16 encoding, independently of the
// assignor's shortcut.
func javaOracle(g assignor.Group) map[string][]string {
	type info struct {
		id, instance string
		topics       map[string]bool
	}
	var members []info
	topicSet := map[string]bool{}
	for _, m := range g.Members {
		subs := map[string]bool{}
		for _, t := range m.Topics {
			subs[t] = true
			topicSet[t] = true
		}
		members = append(members, info{m.ID, m.InstanceID, subs})
	}
	utf16Cmp := func(a, b string) int {
		return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
	}
	slices.SortFunc(members, func(a, b info) int {
		switch {
		case a.instance != "" && b.instance != "":
			return utf16Cmp(a.instance, b.instance)
		case a.instance != "":
			return -1
		case b.instance != "":
			return 1
		}
		return utf16Cmp(a.id, b.id)
	})
	partitions := map[string][]int32{}
	for _, t := range g.Topics {
		ps := slices.Clone(t.Partitions)
		slices.Sort(ps)
		partitions[t.Name] = ps
	}
	topics := slices.Sorted(func(yield func(string) bool) {
		for t := range topicSet {
			if !yield(t) {
				return
			}
		}
	})
	out := map[string][]string{}
	next := 0
	for _, t := range topics {
		for _, p := range partitions[t] {
			for !members[next].topics[t] {
				next = (next + 1) % len(members)
			}
			out[members[next].id] = append(out[members[next].id], fmt.Sprintf("%s/%d", t, p))
			next = (next + 1) % len(members)
		}
	}
	return out
}

// TestMatchesJavaModel compares the assignor against javaOracle on random
// groups: heterogeneous subscriptions, static and dynamic members, unknown
// topics, and IDs with characters whose UTF-16 order differs from their
// UTF-8 order.
func TestMatchesJavaModel(t *testing.T) {
	t.Parallel()
	idRunes := []rune{'a', 'b', 'z', 'é', '\uE000', '\uFFFD', '\U0001F600', '\U00010000'}
	id := rapid.Custom(func(t *rapid.T) string {
		return string(rapid.SliceOfN(rapid.SampledFrom(idRunes), 1, 4).Draw(t, "runes"))
	})
	rapid.Check(t, func(t *rapid.T) {
		names := []string{"t0", "t1", "t2", "t3"}
		var g assignor.Group
		for i, name := range names[:rapid.IntRange(0, 3).Draw(t, "topics")] {
			n := int32(rapid.IntRange(0, 7).Draw(t, fmt.Sprint("partitions", i)))
			g.Topics = append(g.Topics, topic(name, n))
		}
		ids := rapid.SliceOfNDistinct(id, 1, 8, func(s string) string { return s }).Draw(t, "ids")
		instances := rapid.SliceOfNDistinct(id, len(ids), len(ids), func(s string) string { return s }).Draw(t, "instances")
		for i, mid := range ids {
			m := member(mid, rapid.SliceOfDistinct(rapid.SampledFrom(names), func(s string) string { return s }).Draw(t, "subs")...)
			if rapid.Bool().Draw(t, "static") {
				m.InstanceID = instances[i]
			}
			g.Members = append(g.Members, m)
		}
		plan, err := roundrobin.New().Assign(g)
		if err != nil {
			t.Fatal(err)
		}
		want := javaOracle(g)
		for _, mp := range plan.Members {
			var got []string
			for _, tp := range mp.Assigned {
				for _, p := range tp.Partitions {
					got = append(got, fmt.Sprintf("%s/%d", tp.Topic, p))
				}
			}
			w := want[mp.Member]
			slices.SortFunc(w, func(a, b string) int { return cmp.Compare(a, b) })
			slices.SortFunc(got, func(a, b string) int { return cmp.Compare(a, b) })
			if !slices.Equal(got, w) {
				t.Fatalf("member %q: got %s, Java model %s", mp.Member, strings.Join(got, " "), strings.Join(w, " "))
			}
		}
	})
}
