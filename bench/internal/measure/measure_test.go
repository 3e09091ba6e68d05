package measure

import (
	"strings"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/contender"
)

func tps(topic string, ps ...int32) []assignor.TopicPartitions {
	return []assignor.TopicPartitions{{Topic: topic, Partitions: ps}}
}

func TestEvaluate(t *testing.T) {
	topics := []assignor.Topic{{Name: "t", Partitions: assignor.Partitions(6)}}
	sub := []string{"t"}
	tests := []struct {
		name    string
		members []contender.MemberJoin
		as      []contender.Assignment
		proto   assignor.Protocol
		check   func(t *testing.T, q Quality)
	}{
		{
			name:    "an even eager plan is valid, spread 0",
			members: []contender.MemberJoin{{ID: "a", Topics: sub}, {ID: "b", Topics: sub}},
			as:      []contender.Assignment{{Member: "a", Partitions: tps("t", 0, 1, 2)}, {Member: "b", Partitions: tps("t", 3, 4, 5)}},
			check: func(t *testing.T, q Quality) {
				if !q.Valid || q.Spread != 0 || q.SumSq != 18 || q.Withheld != 0 || q.Assigned != 6 {
					t.Errorf("got %+v", q)
				}
			},
		},
		{
			name:    "a partition given twice is invalid and named",
			members: []contender.MemberJoin{{ID: "a", Topics: sub}, {ID: "b", Topics: sub}},
			as:      []contender.Assignment{{Member: "a", Partitions: tps("t", 0, 1, 2)}, {Member: "b", Partitions: tps("t", 2, 3, 4, 5)}},
			check: func(t *testing.T, q Quality) {
				if q.Valid || q.NumViolations != 1 || !strings.Contains(q.Violations[0], "t/2") {
					t.Errorf("got %+v", q)
				}
			},
		},
		{
			name:    "a member the leader left out gets an empty entry and counts as empty",
			members: []contender.MemberJoin{{ID: "a", Topics: sub}, {ID: "b", Topics: sub}},
			as:      []contender.Assignment{{Member: "a", Partitions: tps("t", 0, 1, 2, 3, 4, 5)}},
			check: func(t *testing.T, q Quality) {
				if !q.Valid || q.Spread != 6 || q.Empty != 1 || q.SumSq != 36 {
					t.Errorf("got %+v", q)
				}
			},
		},
		{
			name: "cooperative: a claimed partition withheld is valid; moves and the minimum count it",
			members: []contender.MemberJoin{
				{ID: "a", Topics: sub, Owned: tps("t", 0, 1, 2), Generation: 1},
				{ID: "b", Topics: sub, Owned: tps("t", 3, 4, 5), Generation: 1},
				{ID: "c", Topics: sub, Generation: assignor.NoGeneration},
			},
			as:    []contender.Assignment{{Member: "a", Partitions: tps("t", 0, 1)}, {Member: "b", Partitions: tps("t", 3, 4)}},
			proto: assignor.Cooperative,
			check: func(t *testing.T, q Quality) {
				if !q.Valid || q.Withheld != 2 || q.Moves != 2 || q.MinMoves != 2 {
					t.Errorf("got %+v", q)
				}
			},
		},
		{
			name:    "eager: an unassigned partition is invalid",
			members: []contender.MemberJoin{{ID: "a", Topics: sub}},
			as:      []contender.Assignment{{Member: "a", Partitions: tps("t", 0, 1, 2, 3, 4)}},
			check: func(t *testing.T, q Quality) {
				if q.Valid || !strings.Contains(q.Violations[0], "t/5") {
					t.Errorf("got %+v", q)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, Evaluate(topics, tt.members, tt.as, tt.proto))
		})
	}
}

func TestRackLocal(t *testing.T) {
	topics := []assignor.Topic{{Name: "t", Partitions: assignor.Partitions(2), ReplicaRacks: [][]string{{"x"}, {"y"}}}}
	members := []contender.MemberJoin{{ID: "a", Topics: []string{"t"}, Rack: "x"}}
	q := Evaluate(topics, members, []contender.Assignment{{Member: "a", Partitions: tps("t", 0, 1)}}, assignor.Eager)
	if q.RackTotal != 2 || q.RackLocal != 1 {
		t.Errorf("rack-local %d of %d, want 1 of 2", q.RackLocal, q.RackTotal)
	}
}

func TestMinMoves(t *testing.T) {
	tests := []struct {
		name   string
		counts []int
		p      int
		want   int
	}{
		{"balanced group keeps everything", []int{3, 3}, 6, 0},
		{"a newcomer takes what balance needs", []int{5, 5, 0}, 10, 3},
		{"a departed member's partitions are not counted", []int{4, 4}, 12, 0},
		{"the largest owners keep the larger targets", []int{7, 3, 0}, 10, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ms []contender.MemberJoin
			next := int32(0)
			for _, n := range tt.counts {
				var ps []int32
				for range n {
					ps = append(ps, next)
					next++
				}
				m := contender.MemberJoin{ID: string(rune('a' + len(ms)))}
				if n > 0 {
					m.Owned = tps("t", ps...)
				}
				ms = append(ms, m)
			}
			if got := minMoves(ms, tt.p); got != tt.want {
				t.Errorf("minMoves(%v, %d) = %d, want %d", tt.counts, tt.p, got, tt.want)
			}
		})
	}
}
