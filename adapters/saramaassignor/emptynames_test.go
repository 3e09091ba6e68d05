package saramaassignor

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// TestEmptyNames: an empty member ID and an empty topic name (Kafka allows
// neither, but what sarama decodes is input) have one defined outcome
// through the sarama adapter, under this module's cooperative-sticky
// (issue 24, item 5): the member with the empty ID gets no plan entry, the
// empty topic is skipped, each with one warning naming it, and the
// rebalance goes on: every partition of t goes to the other members, but
// what the member with the empty ID claims, which it holds until it
// revokes it (KIP-429).
func TestEmptyNames(t *testing.T) {
	honest := sarama.ConsumerGroupMemberMetadata{Version: 3, Topics: []string{"t"}, GenerationID: -1}
	t6 := map[string][]int32{"t": {0, 1, 2, 3, 4, 5}}
	for _, tc := range []struct {
		name    string
		members map[string]sarama.ConsumerGroupMemberMetadata
		topics  map[string][]int32
		want    []string // the members assigned t's partitions
		warning string   // logged once
		// withheld: t's partitions claimed by the member with the empty
		// ID, withheld, with one more warning.
		withheld int
	}{
		{
			name:    "an empty member ID: no plan entry",
			members: map[string]sarama.ConsumerGroupMemberMetadata{"a": honest, "": honest, "b": honest},
			topics:  t6,
			want:    []string{"a", "b"},
			warning: `WARN "a member has an empty member ID; assigned nothing" adapter=saramaassignor assignor=cooperative-sticky`,
		},
		{
			name: "an empty member ID that claims partitions: no plan entry, its claims withheld",
			members: map[string]sarama.ConsumerGroupMemberMetadata{"a": honest, "b": honest,
				"": {Version: 3, Topics: []string{"t"}, OwnedPartitions: owned("t", []int32{0, 1}), GenerationID: 3}},
			topics:  t6,
			want:    []string{"a", "b"},
			warning: `WARN "a member has an empty member ID; assigned nothing" adapter=saramaassignor assignor=cooperative-sticky`, withheld: 2,
		},
		{
			name:    "an empty topic name in a subscription: ignored",
			members: map[string]sarama.ConsumerGroupMemberMetadata{"a": {Version: 3, Topics: []string{"", "t"}, GenerationID: -1}, "b": honest},
			topics:  t6,
			want:    []string{"a", "b"},
			warning: `WARN "subscription names an empty topic; ignored" adapter=saramaassignor assignor=cooperative-sticky member=a`,
		},
		{
			name:    "an empty topic name in the topic metadata: left out",
			members: map[string]sarama.ConsumerGroupMemberMetadata{"a": honest, "b": honest},
			topics:  map[string][]int32{"t": t6["t"], "": {0, 1, 2, 3}},
			want:    []string{"a", "b"},
			warning: `WARN "metadata names an empty topic; left out" adapter=saramaassignor assignor=cooperative-sticky partitions=4`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l logs
			s := mustNew(t, cooperative.Wrap(sticky.New()), Config{Logger: l.logger()})
			plan, err := s.Plan(tc.members, tc.topics)
			if err != nil {
				t.Fatalf("the rebalance failed: %v", err)
			}
			if _, ok := plan[""]; ok {
				t.Fatalf("a plan entry for the empty member ID: %v", plan)
			}
			var assigned []string
			n := 0
			for _, id := range slices.Sorted(maps.Keys(plan)) {
				for topic := range plan[id] {
					if topic != "t" {
						t.Fatalf("%s given topic %q: %v", id, topic, plan)
					}
				}
				if c := len(plan[id]["t"]); c > 0 {
					assigned = append(assigned, id)
					n += c
				}
			}
			if n != 6-tc.withheld || !slices.Equal(assigned, tc.want) {
				t.Fatalf("t's 6 partitions: %d assigned, to %v; want %d, to %v: %v", n, assigned, 6-tc.withheld, tc.want, plan)
			}
			lines := 1
			if tc.withheld > 0 {
				lines++
				if w := fmt.Sprintf("may still hold, until they revoke them\" adapter=saramaassignor assignor=cooperative-sticky partitions=%d", tc.withheld); l.count(w) != 1 {
					t.Errorf("want one log line with %q", w)
				}
			}
			if l.count(tc.warning) != 1 || len(l.all()) != lines {
				t.Fatalf("logs %q, want %d lines, one of them: %s", l.all(), lines, tc.warning)
			}
		})
	}
}
