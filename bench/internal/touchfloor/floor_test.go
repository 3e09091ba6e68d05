package touchfloor_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/touchfloor"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/workload"
)

// normal returns p with every empty Assigned as nil, so that plans compare
// by content.
func normal(p assignor.Plan) assignor.Plan {
	out := assignor.Plan{Members: slices.Clone(p.Members)}
	for i := range out.Members {
		out.Members[i].Revoked, out.Members[i].UserData = nil, nil
		if len(out.Members[i].Assigned) == 0 {
			out.Members[i].Assigned = nil
		}
	}
	return out
}

// The floor writes exactly the plan it was given, in either layout, on the
// bench's scenarios and on a group whose members and topics come in no
// particular order; and the plan is valid for the group.
func TestPlanIsTheDecision(t *testing.T) {
	type input struct {
		name string
		g    assignor.Group
	}
	var inputs []input
	for _, sc := range []workload.Scenario{workload.Fresh, workload.Join, workload.Leave, workload.Mixed, workload.MixedJoin} {
		c, err := workload.Build(workload.Shapes()[0], sc, workload.DefaultSeed)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{string(sc), c.Group(c.RoundRobin())})
	}
	inputs = append(inputs, input{"topics and members unsorted, gaps in partition IDs, odd claims", assignor.Group{
		Topics: []assignor.Topic{{Name: "z", Partitions: []int32{0, 3, 7}}, {Name: "a", Partitions: assignor.Partitions(4)}},
		Members: []assignor.Member{
			{ID: "m3", Topics: []string{"a", "z", "gone"}, Owned: []assignor.TopicPartitions{{Topic: "z", Partitions: []int32{7, 5}}, {Topic: "gone", Partitions: []int32{1}}}},
			{ID: "m1", Topics: []string{"z"}},
			{ID: "m2", Topics: []string{"a"}, Owned: []assignor.TopicPartitions{{Topic: "a", Partitions: []int32{9, 0}}}},
		},
	}})
	for _, in := range inputs {
		for _, layout := range []touchfloor.Layout{touchfloor.Shared, touchfloor.PerList} {
			t.Run(in.name, func(t *testing.T) {
				for _, a := range []assignor.Assignor{sticky.New(), roundrobin.New()} {
					want, err := a.Assign(in.g)
					if err != nil {
						t.Fatal(err)
					}
					f, err := touchfloor.New(in.g, want, layout)
					if err != nil {
						t.Fatal(err)
					}
					got := f.Plan(in.g)
					if !reflect.DeepEqual(normal(got), normal(want)) {
						t.Fatalf("layout %d: got\n%v\nwant\n%v", layout, got, want)
					}
					if err := assignor.CheckPlan(in.g, got, assignor.Eager); err != nil {
						t.Errorf("layout %d: %v", layout, err)
					}
				}
			})
		}
	}
}

// The shared layout makes each member's lists slices of common arrays,
// capped so that appending to one never writes into the next.
func TestSharedLayoutCaps(t *testing.T) {
	c, err := workload.Build(workload.Shape{Topics: 3, Partitions: 4, Members: 3}, workload.Fresh, workload.DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	g := c.Group(assignor.Plan{})
	plan, err := sticky.New().Assign(g)
	if err != nil {
		t.Fatal(err)
	}
	f, err := touchfloor.New(g, plan, touchfloor.Shared)
	if err != nil {
		t.Fatal(err)
	}
	got := f.Plan(g)
	for _, mp := range got.Members {
		if cap(mp.Assigned) != len(mp.Assigned) {
			t.Errorf("%s: Assigned len %d cap %d", mp.Member, len(mp.Assigned), cap(mp.Assigned))
		}
		for _, tp := range mp.Assigned {
			if cap(tp.Partitions) != len(tp.Partitions) {
				t.Errorf("%s %s: len %d cap %d", mp.Member, tp.Topic, len(tp.Partitions), cap(tp.Partitions))
			}
		}
	}
}

func TestNewRejects(t *testing.T) {
	g := assignor.Group{
		Topics:  []assignor.Topic{{Name: "a", Partitions: assignor.Partitions(2)}},
		Members: []assignor.Member{{ID: "m1", Topics: []string{"a"}}, {ID: "m2", Topics: []string{"a"}}},
	}
	give := func(member, topic string, ps ...int32) assignor.MemberPlan {
		return assignor.MemberPlan{Member: member, Assigned: []assignor.TopicPartitions{{Topic: topic, Partitions: ps}}}
	}
	tests := []struct {
		name  string
		group func(assignor.Group) assignor.Group
		plan  assignor.Plan
		want  string
	}{
		{"an unknown member", nil, assignor.Plan{Members: []assignor.MemberPlan{give("m9", "a", 0)}}, `member "m9", which the group lacks`},
		{"an unknown topic", nil, assignor.Plan{Members: []assignor.MemberPlan{give("m1", "b", 0)}}, `topic "b", which the group lacks`},
		{"an unknown partition", nil, assignor.Plan{Members: []assignor.MemberPlan{give("m1", "a", 2)}}, "a-2, which the group lacks"},
		{"a partition given twice", nil, assignor.Plan{Members: []assignor.MemberPlan{give("m1", "a", 0), give("m2", "a", 0)}}, `a-0 is given to "m1" and "m2"`},
		{"partitions out of order", func(g assignor.Group) assignor.Group { g.Topics[0].Partitions = []int32{1, 0}; return g }, assignor.Plan{}, "not ascending"},
		{"a topic twice", func(g assignor.Group) assignor.Group { g.Topics = append(g.Topics, g.Topics[0]); return g }, assignor.Plan{}, `"a" listed twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gg := g.Clone()
			if tt.group != nil {
				gg = tt.group(gg)
			}
			_, err := touchfloor.New(gg, tt.plan, touchfloor.Shared)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
