package weighted

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// drawGroup draws a group of 1 to 10 members and 1 to 5 topics of up to 12
// partitions: random subscriptions, weights with idle partitions and heavy
// ones, and, if racks, member racks and replica racks over three racks.
func drawGroup(t *rapid.T, racks bool) *group {
	members := rapid.IntRange(1, 10).Draw(t, "members")
	topics := rapid.IntRange(1, 5).Draw(t, "topics")
	g := &group{members: members, subscribers: make([][]int32, topics)}
	for tp := range topics {
		for m := range members {
			if rapid.IntRange(0, 3).Draw(t, "subscribes") > 0 {
				g.subscribers[tp] = append(g.subscribers[tp], int32(m))
			}
		}
		for range rapid.IntRange(0, 12).Draw(t, "partitions") {
			g.topic = append(g.topic, int32(tp))
			w := int64(rapid.IntRange(0, 1000).Draw(t, "weight"))
			switch rapid.IntRange(0, 9).Draw(t, "kind") {
			case 0, 1:
				w = 0
			case 2:
				w *= 100
			}
			g.weight = append(g.weight, w)
		}
	}
	if racks {
		g.rackSets = [][]int32{{0}, {1}, {2}, {0, 1}, {1, 2}, {0, 2}}
		for range members {
			g.memberRack = append(g.memberRack, int32(rapid.IntRange(-1, 2).Draw(t, "rack")))
		}
		for range g.topic {
			g.replicaRacks = append(g.replicaRacks, int32(rapid.IntRange(-1, len(g.rackSets)-1).Draw(t, "replicas")))
		}
	}
	return g
}

// withOwners returns a copy of g owned as holder says.
func withOwners(g *group, holder []int32) *group {
	o := *g
	o.owner = slices.Clone(holder)
	return &o
}

// TestPropertyValid: every plan is valid (each partition of a subscribed
// topic to a subscriber, the others to -1) and every member's count within
// the skew of its count-balanced band, with or without owners and racks,
// for skews 0 to 2.
func TestPropertyValid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGroup(t, rapid.Bool().Draw(t, "racks"))
		cfg := defaultConfig()
		cfg.countTolerance = int32(rapid.IntRange(0, 2).Draw(t, "skew"))
		if rapid.Bool().Draw(t, "owned") {
			g.owner = make([]int32, len(g.topic))
			for p := range g.owner {
				g.owner[p] = int32(rapid.IntRange(-1, g.members-1).Draw(t, "owner"))
			}
		}
		mustSolve(t, g, cfg)
	})
}

// TestPropertyDeterministic: the same input gives the same plan, and so
// does the same group with each topic's subscriber list and each rack set
// listed in another order, with repeats (the solver reads them as sets).
// Relabelling members or partitions may change the plan: ties are broken by
// member and partition number, which the caller assigns canonically (member
// ID order, topic then partition order).
func TestPropertyDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGroup(t, rapid.Bool().Draw(t, "racks"))
		first := mustSolve(t, g, defaultConfig())
		if again := mustSolve(t, g, defaultConfig()); !slices.Equal(first, again) {
			t.Fatalf("second solve differs: %v, then %v", first, again)
		}
		shuffled := *g
		shuffled.subscribers = make([][]int32, len(g.subscribers))
		for tp, subs := range g.subscribers {
			list := rapid.Permutation(subs).Draw(t, "order")
			if len(list) > 0 && rapid.Bool().Draw(t, "repeat") {
				list = append(list, list[0])
			}
			shuffled.subscribers[tp] = list
		}
		if g.rackSets != nil {
			shuffled.rackSets = make([][]int32, len(g.rackSets))
			for i, set := range g.rackSets {
				shuffled.rackSets[i] = rapid.Permutation(set).Draw(t, "racks order")
			}
		}
		if got := mustSolve(t, &shuffled, defaultConfig()); !slices.Equal(first, got) {
			t.Fatalf("reordered lists change the plan: %v, then %v", first, got)
		}
	})
}

// TestPropertyHysteresis: with the same members and subscriptions, weights
// perturbed by up to ±5% per partition move nothing at the default margin
// (issue 16, item 7).
func TestPropertyHysteresis(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGroup(t, rapid.Bool().Draw(t, "racks"))
		plan := mustSolve(t, g, defaultConfig())
		next := withOwners(g, plan)
		next.weight = slices.Clone(g.weight)
		for p, w := range g.weight {
			next.weight[p] = w + w*int64(rapid.IntRange(-5, 5).Draw(t, "noise %"))/100
		}
		got := mustSolve(t, next, defaultConfig())
		if n, w := moved(next, got); n > 0 {
			t.Fatalf("%d partitions (weight %d) moved under ±5%% noise: %v, then %v; group %+v", n, w, plan, got, *next)
		}
	})
}

// TestPropertyFollowUp: after a plan P, a group whose members own P less
// the partitions P took from their claimants (what a cooperative round
// leaves them: KIP-429 revokes those before it reassigns them) gets a plan
// that moves no partition its owner holds, so the group settles in two
// rounds.
func TestPropertyFollowUp(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := drawGroup(t, false)
		g.owner = make([]int32, len(g.topic))
		for p := range g.owner {
			g.owner[p] = int32(rapid.IntRange(-1, g.members-1).Draw(t, "owner"))
		}
		plan := mustSolve(t, g, defaultConfig())
		kept := followUp(g, plan)
		if second := mustSolve(t, kept, defaultConfig()); true {
			if n, w := moved(kept, second); n > 0 {
				t.Fatalf("the follow-up round moves %d owned partitions (weight %d); group %+v, plan %v, second %v", n, w, *kept, plan, second)
			}
		}
	})
}
