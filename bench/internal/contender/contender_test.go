package contender_test

import (
	"os"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/bench/internal/measure"
)

// TestEveryContender runs every contender in-process on a small group,
// twice (a fresh round, then a round with one member more and the first
// round's plan as history), and checks each plan with assignor.CheckPlan.
func TestEveryContender(t *testing.T) {
	topics := []assignor.Topic{
		{Name: "a", Partitions: assignor.Partitions(7)},
		{Name: "b", Partitions: assignor.Partitions(5), ReplicaRacks: [][]string{{"r1"}, {"r2"}, {"r1"}, {"r2"}, {"r1"}}},
	}
	first := []contender.MemberJoin{
		{ID: "m2", Topics: []string{"a", "b"}, Rack: "r1", Generation: assignor.NoGeneration},
		{ID: "m1", Topics: []string{"a"}, Rack: "r2", Generation: assignor.NoGeneration},
		{ID: "m3", Topics: []string{"a", "b"}, Generation: assignor.NoGeneration},
	}
	for _, c := range contender.All() {
		t.Run(c.Key, func(t *testing.T) {
			if c.Setup != nil && os.Getenv("ASSIGNOR_KAFKA") != "1" {
				t.Skip("a JVM contender: set ASSIGNOR_KAFKA=1 (needs Java 17+ and Maven)")
			}
			proto := assignor.Eager
			if c.Cooperative {
				proto = assignor.Cooperative
			}
			r := c.New()
			if err := r.Prepare(topics, first, 1); err != nil {
				t.Fatal(err)
			}
			if err := r.Lead(); err != nil {
				t.Fatal(err)
			}
			as, err := r.Result()
			if err != nil {
				t.Fatal(err)
			}
			if q := measure.Evaluate(topics, first, as, proto); !q.Valid {
				t.Fatalf("fresh round: %v", q.Violations)
			}
			var second []contender.MemberJoin
			for _, m := range first {
				for _, a := range as {
					if a.Member == m.ID {
						m.Owned, m.Generation, m.AssignmentUserData = a.Partitions, 1, a.UserData
					}
				}
				second = append(second, m)
			}
			second = append(second, contender.MemberJoin{ID: "m0", Topics: []string{"a", "b"}, Generation: assignor.NoGeneration})
			r = c.New()
			if err := r.Prepare(topics, second, 2); err != nil {
				t.Fatal(err)
			}
			if err := r.Lead(); err != nil {
				t.Fatal(err)
			}
			as, err = r.Result()
			if err != nil {
				t.Fatal(err)
			}
			q := measure.Evaluate(topics, second, as, proto)
			if !q.Valid {
				t.Fatalf("join round: %v", q.Violations)
			}
			if len(as) == 0 {
				t.Fatal("no assignments")
			}
		})
	}
}

// TestEveryContenderSaysWhatItTimes: results.md prints each contender's
// timed section; none may be left out.
func TestEveryContenderSaysWhatItTimes(t *testing.T) {
	for _, c := range contender.All() {
		if c.Timed == "" {
			t.Errorf("contender %q has no Timed description", c.Key)
		}
	}
}
