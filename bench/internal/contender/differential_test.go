package contender_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/bench/internal/measure"
)

// randomInstance builds a small group with random subscriptions and a random
// previous plan (each partition with one subscriber or nobody), as every
// member's history.
func randomInstance(rng *rand.Rand) ([]assignor.Topic, []contender.MemberJoin) {
	topics := make([]assignor.Topic, 1+rng.IntN(4))
	for i := range topics {
		topics[i] = assignor.Topic{Name: fmt.Sprintf("t%d", i), Partitions: assignor.Partitions(int32(1 + rng.IntN(10)))}
	}
	members := make([]contender.MemberJoin, 1+rng.IntN(7))
	for i := range members {
		m := contender.MemberJoin{ID: fmt.Sprintf("m%d", i), Generation: assignor.NoGeneration}
		for _, t := range topics {
			if rng.IntN(3) > 0 {
				m.Topics = append(m.Topics, t.Name)
			}
		}
		if len(m.Topics) == 0 {
			m.Topics = []string{topics[rng.IntN(len(topics))].Name}
		}
		members[i] = m
	}
	owned := make([]map[string][]int32, len(members))
	for i := range owned {
		owned[i] = map[string][]int32{}
	}
	for _, t := range topics {
		for _, p := range t.Partitions {
			var subs []int
			for i, m := range members {
				if slices.Contains(m.Topics, t.Name) {
					subs = append(subs, i)
				}
			}
			if len(subs) == 0 || rng.IntN(4) == 0 {
				continue
			}
			i := subs[rng.IntN(len(subs))]
			owned[i][t.Name] = append(owned[i][t.Name], p)
		}
	}
	for i := range members {
		for _, t := range topics {
			if ps := owned[i][t.Name]; len(ps) > 0 {
				members[i].Owned = append(members[i].Owned, assignor.TopicPartitions{Topic: t.Name, Partitions: ps})
			}
		}
		if members[i].Owned != nil {
			members[i].Generation = 1
		}
	}
	return topics, members
}

func runOnce(t *testing.T, key string, topics []assignor.Topic, members []contender.MemberJoin) measure.Quality {
	t.Helper()
	c, ok := contender.Lookup(key)
	if !ok {
		t.Fatalf("no contender %q", key)
	}
	r := c.New()
	if err := r.Prepare(topics, members, 2); err != nil {
		t.Fatal(err)
	}
	if err := r.Lead(); err != nil {
		t.Fatal(err)
	}
	as, err := r.Result()
	if err != nil {
		t.Fatal(err)
	}
	return measure.Evaluate(topics, members, as, assignor.Eager)
}

// TestDifferentialSticky compares our sticky with franz-go v1.22.3's on
// 2,000 random small groups (fixed seed), both through the bytes and each
// member's history in the sticky user data: our plan's balance (sum of
// squared loads) is never worse, and where the balance is equal our plan
// never moves more partitions.
func TestDifferentialSticky(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 7))
	worseBalance, moreMoves, fewerMoves, betterBalance, oursMoves, franzMoves := 0, 0, 0, 0, 0, 0
	for i := range 2000 {
		topics, members := randomInstance(rng)
		ours := runOnce(t, "ours-sticky", topics, members)
		franz := runOnce(t, "franz-sticky", topics, members)
		if !ours.Valid || !franz.Valid {
			t.Fatalf("instance %d: ours valid %v %v, franz-go valid %v %v", i, ours.Valid, ours.Violations, franz.Valid, franz.Violations)
		}
		oursMoves += ours.Moves
		franzMoves += franz.Moves
		switch {
		case ours.SumSq < franz.SumSq:
			betterBalance++
		case ours.SumSq > franz.SumSq:
			worseBalance++
			t.Errorf("instance %d: our sum of squares %d > franz-go's %d\ntopics %v\nmembers %+v", i, ours.SumSq, franz.SumSq, topics, members)
		case ours.SumSq == franz.SumSq && ours.Moves > franz.Moves:
			moreMoves++
			t.Errorf("instance %d: equal balance, our moves %d > franz-go's %d\ntopics %v\nmembers %+v", i, ours.Moves, franz.Moves, topics, members)
		case ours.SumSq == franz.SumSq && ours.Moves < franz.Moves:
			fewerMoves++
		}
		if t.Failed() && worseBalance+moreMoves >= 3 {
			t.FailNow()
		}
	}
	t.Logf("2000 instances against franz-go: balance better %d, worse %d; at equal balance fewer moves %d, more %d; moves in all %d (franz-go %d)",
		betterBalance, worseBalance, fewerMoves, moreMoves, oursMoves, franzMoves)
	if oursMoves == 0 {
		t.Error("no instance moved a partition: the history did not reach the assignors")
	}
}
