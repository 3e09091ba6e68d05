package workload

import (
	"testing"

	"github.com/kgroup/assignor"
)

// TestRoundRobin pins the assignor-independent history on every scenario
// with history: a valid, complete and balanced plan for the group before,
// which the measured group then owns, less the partitions of a member that
// left.
func TestRoundRobin(t *testing.T) {
	for _, s := range []Shape{small, {Topics: 3, Partitions: 7, Members: 4}, Shapes()[0]} {
		for _, sc := range []Scenario{Join, Leave, MixedJoin} {
			t.Run(string(sc)+"/"+s.String(), func(t *testing.T) {
				c, err := Build(s, sc, DefaultSeed)
				if err != nil {
					t.Fatal(err)
				}
				history := c.RoundRobin()
				if err := assignor.CheckPlan(c.BeforeGroup(), history, assignor.Eager); err != nil {
					t.Fatalf("history is not a valid plan for the group before: %v", err)
				}
				lo, hi := s.Total(), 0
				for _, mp := range history.Members {
					lo, hi = min(lo, mp.NumAssigned()), max(hi, mp.NumAssigned())
				}
				// Mixed subscriptions balance only when the topics halve
				// and the two kinds of member are as many.
				balanced := sc != MixedJoin || s.Topics%2 == 0 && s.Members%2 == 0
				if balanced && hi-lo > 1 {
					t.Errorf("history loads from %d to %d, want a spread of at most one", lo, hi)
				}
				g := c.Group(history)
				claimed, left := 0, 0
				for _, m := range g.Members {
					claimed += assignor.CountPartitions(m.Owned)
					if (m.Owned == nil) != (m.Generation == assignor.NoGeneration) {
						t.Errorf("member %s owns %v at generation %d", m.ID, m.Owned, m.Generation)
					}
				}
				for _, mp := range history.Members {
					if !hasMember(g, mp.Member) {
						left += mp.NumAssigned()
					}
				}
				if claimed+left != s.Total() {
					t.Errorf("the group owns %d partitions and the member who left %d, want %d in all", claimed, left, s.Total())
				}
				if (sc == Leave) != (left > 0) {
					t.Errorf("%s: the members gone own %d partitions", sc, left)
				}
			})
		}
	}
}

func hasMember(g assignor.Group, id string) bool {
	for _, m := range g.Members {
		if m.ID == id {
			return true
		}
	}
	return false
}

// TestRoundRobinDeal pins the deal on the package documentation's example:
// partitions in ID order, one counter over the topics, in Before's order.
func TestRoundRobinDeal(t *testing.T) {
	c := Case{
		Topics: []assignor.Topic{{Name: "t1", Partitions: []int32{2, 0, 1}}, {Name: "t0", Partitions: assignor.Partitions(3)}},
		Before: []Member{{ID: "b", Topics: []string{"t0", "t1"}}, {ID: "a", Topics: []string{"t0", "t1"}}, {ID: "c", Topics: []string{"t1"}}},
	}
	tests := []struct {
		name   string
		member string
		want   string
	}{
		{"the first in Before's order starts the deal", "b", "t0[0 2]"},
		{"the second gets the rest of the topic its class holds", "a", "t0[1]"},
		{"a topic goes to its narrowest subscribers", "c", "t1[0 1 2]"},
	}
	plan := c.RoundRobin()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mp, ok := plan.Member(tt.member)
			if got := assignor.FormatTopicPartitions(mp.Assigned); !ok || got != tt.want {
				t.Errorf("member %s: %s, want %s", tt.member, got, tt.want)
			}
		})
	}
	if plan.Members[0].Member != "a" || plan.Members[2].Member != "c" {
		t.Errorf("plan members not sorted by ID: %v", plan)
	}
}

// TestNoHistory pins the scenarios without history: nothing before, no
// round-robin history, and a measured group that owns nothing.
func TestNoHistory(t *testing.T) {
	for _, sc := range []Scenario{Fresh, Mixed, Racks} {
		t.Run(string(sc), func(t *testing.T) {
			c, err := Build(small, sc, DefaultSeed)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.BeforeGroup().Members) != 0 || len(c.RoundRobin().Members) != 0 {
				t.Fatalf("%s has history: %v", sc, c.RoundRobin())
			}
			g := c.Group(assignor.Plan{})
			if len(g.Members) != small.Members || len(g.Topics) != small.Topics {
				t.Fatalf("%d members and %d topics, want %d and %d", len(g.Members), len(g.Topics), small.Members, small.Topics)
			}
			for _, m := range g.Members {
				if m.Owned != nil || m.Generation != assignor.NoGeneration {
					t.Errorf("member %s owns %v at generation %d", m.ID, m.Owned, m.Generation)
				}
			}
		})
	}
}
