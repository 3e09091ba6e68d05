package weighted_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/weighted"
)

// skewedGroup is members m0..m{members-1} on one topic of n partitions
// with Zipf-like weights (partition i of rank r weighs 10000/(r+1)), every
// fifth idle, and no owners.
func skewedGroup(members, n int, seed uint64) assignor.Group {
	rng := rand.New(rand.NewPCG(seed, 16))
	w := make([]int64, n)
	for i, r := range rng.Perm(n) {
		if w[i] = int64(10000 / (r + 1)); i%5 == 4 {
			w[i] = 0
		}
	}
	g := assignor.Group{Topics: []assignor.Topic{{Name: "t", Partitions: assignor.Partitions(int32(n)), Weights: w}}}
	for m := range members {
		g.Members = append(g.Members, assignor.Member{ID: fmt.Sprintf("m%d", m), Topics: []string{"t"}, Generation: assignor.NoGeneration})
	}
	return g
}

// applyPlan returns g with each member owning what plan assigns it, at
// generation gen.
func applyPlan(g assignor.Group, plan assignor.Plan, gen int32) assignor.Group {
	h := g.Clone()
	for i := range h.Members {
		mp, _ := plan.Member(h.Members[i].ID)
		h.Members[i].Owned, h.Members[i].Generation = assignor.CloneTopicPartitions(mp.Assigned), gen
	}
	return h
}

// maxLoad is the heaviest member's load in plan.
func maxLoad(g assignor.Group, plan assignor.Plan) int64 {
	return slices.Max(loads(g, plan))
}

// TestCooperativeRounds runs cooperative-weighted through whole
// rebalances: a group on a count-balanced plan (round-robin) switches to
// it, then a member joins, then another leaves. Every plan passes CheckPlan for the cooperative
// protocol (no partition with two owners in a round), the group settles
// in the follow-up round, and what each member holds after the rounds
// (withheld partitions handed over) is the weighted plan's balance: the
// heaviest load within the margin of what the eager assignor reaches on
// the same start, and a third round moves nothing.
func TestCooperativeRounds(t *testing.T) {
	for seed := range uint64(32) {
		g := skewedGroup(4, 40, seed)
		start, err := roundrobin.New().Assign(g)
		if err != nil {
			t.Fatal(err)
		}
		g = applyPlan(g, start, 1)
		coop := cooperative.Wrap(weighted.New())
		gen := int32(1)
		settle := func(stage string, g assignor.Group) assignor.Group {
			eager, err := weighted.New().Assign(g)
			if err != nil {
				t.Fatal(err)
			}
			for round := 1; ; round++ {
				plan, err := coop.Assign(g)
				if err != nil {
					t.Fatalf("seed %d %s round %d: %v", seed, stage, round, err)
				}
				if err := assignor.CheckPlan(g, plan, assignor.Cooperative); err != nil {
					t.Fatalf("seed %d %s round %d: %v", seed, stage, round, err)
				}
				gen++
				g = applyPlan(g, plan, gen)
				if !plan.FollowUp {
					if round > 2 {
						t.Fatalf("seed %d %s: settled in %d rounds, want at most 2", seed, stage, round)
					}
					if got, best := maxLoad(g, plan), maxLoad(g, eager); got*1000 > best*1100 {
						t.Fatalf("seed %d %s: heaviest load %d after the rounds, eager weighted %d", seed, stage, got, best)
					}
					again, err := coop.Assign(g)
					if err != nil || again.String() != plan.String() {
						t.Fatalf("seed %d %s: a settled group moved:\n%s\nwas:\n%s", seed, stage, again, plan)
					}
					return g
				}
			}
		}
		g = settle("switch", g)
		g.Members = append(g.Members, assignor.Member{ID: "m9", Topics: []string{"t"}, Generation: assignor.NoGeneration})
		g = settle("join", g)
		g.Members = slices.Delete(g.Members, 1, 2)
		settle("leave", g)
	}
}
