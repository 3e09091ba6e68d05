package sticky

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// javaMember is one member of a ported scenario. Owned is written as in
// Plan.String ("t[0 2] u[1]"). With UserData set, the claims travel the way
// Java's eager StickyAssignor sends them, in the sticky user data (version 1
// with the generation, or version 0 without one when Generation is
// assignor.NoGeneration), instead of the subscription's owned partitions.
type javaMember struct {
	id, topics, owned string
	generation        int32
	userData          bool
}

// javaCase is a scenario of Kafka's Java sticky-assignor tests
// (AbstractStickyAssignorTest, StickyAssignorTest), written anew as data:
// the input and the properties the Java test asserts. Exact plans are
// pinned only where the criteria force them; where Java pins one of several
// equally good plans, the case pins the properties instead.
type javaCase struct {
	name    string
	topics  string // "t:3 u:2"
	members []javaMember
	want    map[string]string // exact plans
	within  map[string]string // plan ⊆ these partitions
	sizes   map[string]int
	moves   int // partitions leaving their valid owner; -1: unchecked
}

var javaCases = []javaCase{
	{
		// KIP-54, example 1: three members, four topics of two partitions;
		// C1 leaves and the others keep everything they had.
		name:   "KIP54Example1_MemberLeaves",
		topics: "t0:2 t1:2 t2:2 t3:2",
		members: []javaMember{
			{id: "C0", topics: "t0 t1 t2 t3", owned: "t0[0] t1[1] t3[0]", generation: 1},
			{id: "C2", topics: "t0 t1 t2 t3", owned: "t0[1] t2[0] t3[1]", generation: 1},
		},
		within: map[string]string{"C0": "t0[0] t1[0 1] t2[1] t3[0]", "C2": "t0[1] t1[0] t2[0 1] t3[1]"},
		sizes:  map[string]int{"C0": 4, "C2": 4},
		moves:  0,
	},
	{
		// KIP-54, example 2, first rebalance: nested subscriptions; the only
		// balanced plan gives each member the topic only it can take.
		name:   "KIP54Example2_NestedSubscriptions",
		topics: "t0:1 t1:2 t2:3",
		members: []javaMember{
			{id: "C0", topics: "t0"},
			{id: "C1", topics: "t0 t1"},
			{id: "C2", topics: "t0 t1 t2"},
		},
		want:  map[string]string{"C0": "t0[0]", "C1": "t1[0 1]", "C2": "t2[0 1 2]"},
		moves: 0,
	},
	{
		// KIP-54, example 2, C0 leaves: round-robin would move five
		// partitions; sticky moves none and hands t0p0 to C1.
		name:   "KIP54Example2_MemberLeaves",
		topics: "t0:1 t1:2 t2:3",
		members: []javaMember{
			{id: "C1", topics: "t0 t1", owned: "t1[0 1]", generation: 1},
			{id: "C2", topics: "t0 t1 t2", owned: "t2[0 1 2]", generation: 1},
		},
		want:  map[string]string{"C1": "t0[0] t1[0 1]", "C2": "t2[0 1 2]"},
		moves: 0,
	},
	{
		name:    "testOneConsumerOneTopic",
		topics:  "topic:3",
		members: []javaMember{{id: "consumer", topics: "topic"}},
		want:    map[string]string{"consumer": "topic[0 1 2]"},
		moves:   0,
	},
	{
		name:    "testOnlyAssignsPartitionsFromSubscribedTopics",
		topics:  "topic:2",
		members: []javaMember{{id: "consumer", topics: "topic", owned: "topic[0 1] other[0 1]", generation: 1}},
		want:    map[string]string{"consumer": "topic[0 1]"},
		moves:   0,
	},
	{
		name:   "testMultipleConsumersMixedTopicSubscriptions",
		topics: "topic1:3 topic2:2",
		members: []javaMember{
			{id: "consumer1", topics: "topic1"},
			{id: "consumer2", topics: "topic1 topic2"},
			{id: "consumer3", topics: "topic1"},
		},
		within: map[string]string{"consumer2": "topic2[0 1]"},
		sizes:  map[string]int{"consumer1": 2, "consumer2": 2, "consumer3": 1},
		moves:  0,
	},
	{
		// The unowned partition goes to a member that owns its quota: who
		// gets the extra slot is decided by position, consumer1 here as in
		// Java.
		name:   "testConsumerOwningMinQuotaExpectedMaxQuota",
		topics: "topic1:2 topic2:3",
		members: []javaMember{
			{id: "consumer1", topics: "topic1 topic2", owned: "topic1[0] topic2[1]", generation: 1},
			{id: "consumer2", topics: "topic1 topic2", owned: "topic1[1] topic2[2]", generation: 1},
		},
		want:  map[string]string{"consumer1": "topic1[0] topic2[0 1]", "consumer2": "topic1[1] topic2[2]"},
		moves: 0,
	},
	{
		// Two members own the maximum quota but only one may keep it: one
		// partition moves to the new member. Java pins which; any is optimal.
		name:   "testMaxQuotaConsumerMoreThanNumExpectedMaxCapacityMembers",
		topics: "topic1:2 topic2:2",
		members: []javaMember{
			{id: "consumer1", topics: "topic1 topic2", owned: "topic1[0] topic2[0]", generation: 1},
			{id: "consumer2", topics: "topic1 topic2", owned: "topic1[1] topic2[1]", generation: 1},
			{id: "consumer3", topics: "topic1 topic2", generation: 1},
		},
		sizes: map[string]int{"consumer3": 1},
		moves: 1,
	},
	{
		name:   "testAllConsumersReachExpectedQuotaAndAreConsideredFilled",
		topics: "topic:4",
		members: []javaMember{
			{id: "consumer1", topics: "topic", owned: "topic[0 1]", generation: 1},
			{id: "consumer2", topics: "topic", owned: "topic[2]", generation: 1},
			{id: "consumer3", topics: "topic", generation: 1},
		},
		want:  map[string]string{"consumer1": "topic[0 1]", "consumer2": "topic[2]", "consumer3": "topic[3]"},
		moves: 0,
	},
	{
		// Conflicting previous generations (StickyAssignorTest, eager user
		// data): consumer1's gen-1 claims lose to the gen-2 claims of the
		// others, who each give one partition up to it.
		name:   "testAssignmentWithConflictingPreviousGenerations",
		topics: "topic:6",
		members: []javaMember{
			{id: "consumer1", topics: "topic", owned: "topic[0 1 4]", generation: 1, userData: true},
			{id: "consumer2", topics: "topic", owned: "topic[0 1 2]", generation: 2, userData: true},
			{id: "consumer3", topics: "topic", owned: "topic[3 4 5]", generation: 2, userData: true},
		},
		within: map[string]string{"consumer2": "topic[0 1 2]", "consumer3": "topic[3 4 5]"},
		sizes:  map[string]int{"consumer1": 2, "consumer2": 2, "consumer3": 2},
		moves:  2,
	},
	{
		// Version-0 user data has no generation and ranks below version 1.
		name:   "testSchemaBackwardCompatibility",
		topics: "topic:3",
		members: []javaMember{
			{id: "consumer1", topics: "topic", owned: "topic[0 2]", generation: 1, userData: true},
			{id: "consumer2", topics: "topic", owned: "topic[1]", generation: assignor.NoGeneration, userData: true},
			{id: "consumer3", topics: "topic"},
		},
		within: map[string]string{"consumer1": "topic[0 2]", "consumer2": "topic[1]"},
		sizes:  map[string]int{"consumer1": 1, "consumer2": 1, "consumer3": 1},
		moves:  1,
	},
	{
		name:   "testOwnedPartitionsAreInvalidatedForConsumerWithStaleGeneration",
		topics: "topic:3 topic2:3",
		members: []javaMember{
			{id: "consumer1", topics: "topic topic2", owned: "topic[0 2] topic2[1]", generation: 10},
			{id: "consumer2", topics: "topic topic2", owned: "topic[0 2] topic2[1]", generation: 9},
		},
		want:  map[string]string{"consumer1": "topic[0 2] topic2[1]", "consumer2": "topic[1] topic2[0 2]"},
		moves: 0,
	},
	{
		name:   "testOwnedPartitionsAreInvalidatedForConsumerWithNoGeneration",
		topics: "topic:3 topic2:3",
		members: []javaMember{
			{id: "consumer1", topics: "topic topic2", owned: "topic[0 2] topic2[1]", generation: 10},
			{id: "consumer2", topics: "topic topic2", owned: "topic[0 2] topic2[1]", generation: assignor.NoGeneration},
		},
		want:  map[string]string{"consumer1": "topic[0 2] topic2[1]", "consumer2": "topic[1] topic2[0 2]"},
		moves: 0,
	},
	{
		name:   "testOwnedPartitionsAreInvalidatedForConsumerWithMultipleGeneration",
		topics: "topic:3 topic2:3",
		members: []javaMember{
			{id: "consumer1", topics: "topic topic2", owned: "topic[0 1] topic2[1]", generation: 10},
			{id: "consumer2", topics: "topic topic2", owned: "topic[0] topic2[1 2]", generation: 8},
		},
		want:  map[string]string{"consumer1": "topic[0 1] topic2[1]", "consumer2": "topic[2] topic2[0 2]"},
		moves: 0,
	},
	{
		// Same-generation double claim: topic-0 is contested, so nobody
		// owns it and it goes to the member with room.
		name:   "testPartitionsTransferringOwnershipIncludeThePartitionClaimedByMultipleConsumersInSameGeneration",
		topics: "topic:3",
		members: []javaMember{
			{id: "consumer1", topics: "topic", owned: "topic[0 1]", generation: 1},
			{id: "consumer2", topics: "topic", owned: "topic[0 2]", generation: 1},
			{id: "consumer3", topics: "topic", generation: 1},
		},
		want:  map[string]string{"consumer1": "topic[1]", "consumer2": "topic[2]", "consumer3": "topic[0]"},
		moves: 0,
	},
	{
		name:   "testEnsurePartitionsAssignedToHighestGeneration",
		topics: "topic:3 topic2:3 topic3:3",
		members: []javaMember{
			{id: "consumer1", topics: "topic topic2 topic3", owned: "topic[0] topic2[0] topic3[0]", generation: 10},
			{id: "consumer2", topics: "topic topic2 topic3", owned: "topic[1] topic2[1] topic3[1]", generation: 9},
			{id: "consumer3", topics: "topic topic2 topic3", owned: "topic2[1] topic3[0 2]", generation: 8},
		},
		want: map[string]string{
			"consumer1": "topic[0] topic2[0] topic3[0]",
			"consumer2": "topic[1] topic2[1] topic3[1]",
			"consumer3": "topic[2] topic2[2] topic3[2]",
		},
		moves: 0,
	},
	{
		name:   "testNoReassignmentOnCurrentMembers",
		topics: "topic:3 topic1:3 topic2:3 topic3:3",
		members: []javaMember{
			{id: "consumer1", topics: "topic topic1 topic2 topic3", generation: assignor.NoGeneration},
			{id: "consumer2", topics: "topic topic1 topic2 topic3", owned: "topic[0] topic1[0] topic2[0]", generation: 9},
			{id: "consumer3", topics: "topic topic1 topic2 topic3", owned: "topic1[1] topic2[2] topic3[2]", generation: 8},
			{id: "consumer4", topics: "topic topic1 topic2 topic3", owned: "topic[1 2] topic3[1]", generation: 7},
		},
		want:  map[string]string{"consumer1": "topic1[2] topic2[1] topic3[0]"},
		moves: 0,
	},
}

func TestJavaScenarios(t *testing.T) {
	for _, tc := range javaCases {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.group(t)
			plan, err := New().Assign(g)
			if err != nil {
				t.Fatal(err)
			}
			if err := assignor.CheckPlan(g, plan, assignor.Eager); err != nil {
				t.Fatalf("invalid plan: %v\n%s", err, plan)
			}
			checkBalanced(t, g, plan)
			for id, want := range tc.want {
				if mp, _ := plan.Member(id); assignor.FormatTopicPartitions(mp.Assigned) != want {
					t.Errorf("%s: got %s, want %s", id, assignor.FormatTopicPartitions(mp.Assigned), want)
				}
			}
			for id, within := range tc.within {
				allowed := parseTopicPartitions(t, within)
				mp, _ := plan.Member(id)
				for _, tp := range mp.Assigned {
					for _, p := range tp.Partitions {
						if !containsPartition(allowed, tp.Topic, p) {
							t.Errorf("%s: got %s/%d, outside %s", id, tp.Topic, p, within)
						}
					}
				}
			}
			for id, n := range tc.sizes {
				if mp, _ := plan.Member(id); mp.NumAssigned() != n {
					t.Errorf("%s: %d partitions, want %d", id, mp.NumAssigned(), n)
				}
			}
			if tc.moves >= 0 {
				// The history the assignor saw, user data included.
				in := newInstanceWithHistory(t, g)
				if got := in.scoreOf(plan).moves; got != tc.moves {
					t.Errorf("%d partitions left their valid owner, want %d", got, tc.moves)
				}
			}
			if t.Failed() {
				t.Logf("plan:\n%s", plan)
			}
		})
	}
}

func (tc javaCase) group(t *testing.T) assignor.Group {
	var g assignor.Group
	for _, spec := range strings.Fields(tc.topics) {
		name, n, _ := strings.Cut(spec, ":")
		count, err := strconv.Atoi(n)
		if err != nil {
			t.Fatalf("topic %q: %v", spec, err)
		}
		g.Topics = append(g.Topics, assignor.Topic{Name: name, Partitions: assignor.Partitions(int32(count))})
	}
	for _, jm := range tc.members {
		m := assignor.Member{ID: jm.id, Topics: strings.Fields(jm.topics), Generation: jm.generation}
		owned := parseTopicPartitions(t, jm.owned)
		if jm.userData {
			m.UserData = wire.StickyUserData{Owned: owned, Generation: jm.generation}.AppendTo(nil)
			if jm.generation == assignor.NoGeneration {
				m.UserData = m.UserData[:len(m.UserData)-4] // version 0: no generation
			}
			m.Generation = assignor.NoGeneration
		} else {
			m.Owned = owned
		}
		g.Members = append(g.Members, m)
	}
	return g
}

// parseTopicPartitions reads "t[0 2] u[1]" as written by
// assignor.FormatTopicPartitions.
func parseTopicPartitions(t *testing.T, s string) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		name, rest, ok := strings.Cut(s, "[")
		ids, after, ok2 := strings.Cut(rest, "]")
		if !ok || !ok2 {
			t.Fatalf("bad partitions %q", s)
		}
		tp := assignor.TopicPartitions{Topic: name}
		for _, f := range strings.Fields(ids) {
			p, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("bad partition %q: %v", f, err)
			}
			tp.Partitions = append(tp.Partitions, int32(p))
		}
		out = append(out, tp)
		s = after
	}
	return out
}

func containsPartition(tps []assignor.TopicPartitions, topic string, p int32) bool {
	for _, tp := range tps {
		if tp.Topic == topic && slices.Contains(tp.Partitions, p) {
			return true
		}
	}
	return false
}
