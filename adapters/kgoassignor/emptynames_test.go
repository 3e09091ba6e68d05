package kgoassignor

import (
	"fmt"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
)

// TestEmptyNames: an empty member ID and an empty topic name (Kafka allows
// neither, but JoinGroup metadata and kgo's partition counts are input)
// have one defined outcome through the franz-go adapter, under this
// module's cooperative-sticky (issue 24, item 5): the member with the
// empty ID gets no assignment, the empty topic is skipped, each with one
// warning naming it, and the rebalance goes on: every partition of t goes
// to the other members, but what the member with the empty ID claims,
// which it holds until it revokes it (KIP-429).
func TestEmptyNames(t *testing.T) {
	honest := func(id string) kmsg.JoinGroupResponseMember {
		return member(id, v3([]string{"t"}, nil, -1, nil, ""))
	}
	for _, tc := range []struct {
		name    string
		members []kmsg.JoinGroupResponseMember
		counts  map[string]int32
		want    []string // the members assigned t's partitions
		warning string   // logged once
		// withheld: t's partitions claimed by the member with the empty
		// ID, withheld (it holds them until it revokes them), with one
		// more warning.
		withheld int
	}{
		{
			name:    "an empty member ID: no assignment",
			members: []kmsg.JoinGroupResponseMember{honest("a"), member("", v3([]string{"t"}, nil, -1, nil, "")), honest("b")},
			counts:  counts("t", 6),
			want:    []string{"a", "b"},
			warning: `WARN "a member has an empty member ID; assigned nothing" adapter=kgoassignor assignor=cooperative-sticky`,
		},
		{
			name:    "an empty member ID that claims partitions: no assignment, its claims withheld",
			members: []kmsg.JoinGroupResponseMember{honest("a"), member("", v3([]string{"t"}, tps("t", []int32{0, 1}), 3, nil, "")), honest("b")},
			counts:  counts("t", 6),
			want:    []string{"a", "b"},
			warning: `WARN "a member has an empty member ID; assigned nothing" adapter=kgoassignor assignor=cooperative-sticky`, withheld: 2,
		},
		{
			name:    "an empty topic name in a subscription: ignored",
			members: []kmsg.JoinGroupResponseMember{member("a", v3([]string{"", "t"}, nil, -1, nil, "")), honest("b")},
			counts:  counts("t", 6),
			want:    []string{"a", "b"},
			warning: `WARN "subscription names an empty topic; ignored" adapter=kgoassignor assignor=cooperative-sticky member=a`,
		},
		{
			name:    "an empty topic name in kgo's counts: left out",
			members: []kmsg.JoinGroupResponseMember{honest("a"), honest("b")},
			counts:  counts("t", 6, "", 4),
			want:    []string{"a", "b"},
			warning: `WARN "metadata names an empty topic; left out" adapter=kgoassignor assignor=cooperative-sticky partitions=4`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l logs
			b, _ := New(CooperativeSticky().Assignor(), Config{Logger: l.logger()})
			got := decoded(t, balanceInto(t, b, 4, tc.counts, tc.members))
			if _, ok := got[""]; ok {
				t.Fatalf("an assignment for the empty member ID: %s", render(got))
			}
			var assigned []string
			n := 0
			for id, a := range got {
				for _, tp := range a.Partitions {
					if tp.Topic != "t" {
						t.Fatalf("%s given topic %q: %s", id, tp.Topic, render(got))
					}
				}
				if c := assignor.CountPartitions(a.Partitions); c > 0 {
					assigned = append(assigned, id)
					n += c
				}
			}
			slices.Sort(assigned)
			if n != 6-tc.withheld || !slices.Equal(assigned, tc.want) {
				t.Fatalf("t's 6 partitions: %d assigned, to %v; want %d, to %v: %s", n, assigned, 6-tc.withheld, tc.want, render(got))
			}
			lines := 1
			if tc.withheld > 0 {
				lines++
				if w := fmt.Sprintf("may still hold, until they revoke them\" adapter=kgoassignor assignor=cooperative-sticky partitions=%d", tc.withheld); l.count(w) != 1 {
					t.Errorf("want one log line with %q", w)
				}
			}
			if l.count(tc.warning) != 1 || len(l.all()) != lines {
				t.Fatalf("logs %q, want %d lines, one of them: %s", l.all(), lines, tc.warning)
			}
		})
	}
}
