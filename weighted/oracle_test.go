package weighted

import (
	"flag"
	"math/rand/v2"
	"testing"
)

var oracleInstances = flag.Int("oracle.n", 3000, "instances per row of TestOracle")

// smallGroup draws a group of 1 to 4 members and 1 to 8 partitions (4
// and 8 when full) on 1 to 3 topics, subscriptions differing (every topic has a subscriber),
// weights uniform in [1, 100] with a quarter idle and one dominant
// partition (2 to 10 times the heaviest other), no owners.
func smallGroup(rng *rand.Rand, full bool) *group {
	members := 1 + rng.IntN(4)
	topics := 1 + rng.IntN(3)
	partitions := 1 + rng.IntN(8)
	if full {
		members, partitions = 4, 8
	}
	g := &group{members: members, subscribers: make([][]int32, topics)}
	for t := range topics {
		for m := range members {
			if rng.IntN(4) > 0 {
				g.subscribers[t] = append(g.subscribers[t], int32(m))
			}
		}
		if len(g.subscribers[t]) == 0 {
			g.subscribers[t] = []int32{int32(rng.IntN(members))}
		}
	}
	var heaviest int64
	for range partitions {
		g.topic = append(g.topic, int32(rng.IntN(topics)))
		w := int64(1 + rng.IntN(100))
		if rng.IntN(4) == 0 {
			w = 0
		}
		g.weight = append(g.weight, w)
		heaviest = max(heaviest, w)
	}
	g.weight[rng.IntN(partitions)] = max(1, heaviest) * int64(2+rng.IntN(9))
	return g
}

// bruteForce enumerates every valid plan of g and returns the count bands
// of the count-balanced plans (least sum of squared counts) and the least
// heaviest load among plans whose counts are within skew of the bands.
func bruteForce(g *group, skew int32) (lo, hi []int32, best int64) {
	members := g.members
	count := make([]int32, members)
	load := make([]int64, members)
	bestSquares := int64(1) << 62
	lo, hi = make([]int32, members), make([]int32, members)
	var walk func(p int, visit func())
	walk = func(p int, visit func()) {
		if p == len(g.topic) {
			visit()
			return
		}
		for _, m := range g.subscribers[g.topic[p]] {
			count[m]++
			load[m] += g.weight[p]
			walk(p+1, visit)
			count[m]--
			load[m] -= g.weight[p]
		}
	}
	walk(0, func() {
		var sq int64
		for _, c := range count {
			sq += int64(c) * int64(c)
		}
		switch {
		case sq < bestSquares:
			bestSquares = sq
			copy(lo, count)
			copy(hi, count)
		case sq == bestSquares:
			for m, c := range count {
				lo[m], hi[m] = min(lo[m], c), max(hi[m], c)
			}
		}
	})
	best = int64(1) << 62
	walk(0, func() {
		for m, c := range count {
			if c < minimumCount(lo[m], config{countTolerance: skew}) || c > hi[m]+skew {
				return
			}
		}
		best = min(best, maxOf(load))
	})
	return lo, hi, best
}

// TestOracle compares the solver with enumeration of every valid plan on
// small random groups with no owners (issue 16, item 7): the count bands
// must match exactly, and the heaviest load must be the optimum under the
// same count skew on at least 95% of instances and never above 4/3 of it.
func TestOracle(t *testing.T) {
	for _, row := range []struct {
		name string
		skew int32
		full bool // 4 members and 8 partitions every time
		seed uint64
	}{
		{"default skew 1", 1, false, 1},
		{"default skew 1, 4 members, 8 partitions", 1, true, 4},
		{"skew 0", 0, false, 2},
		{"skew 0, 4 members, 8 partitions", 0, true, 5},
		{"skew 2", 2, false, 3},
	} {
		t.Run(row.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(row.seed, 16))
			cfg := defaultConfig()
			cfg.countTolerance = row.skew
			optimal, worstNum, worstDen := 0, int64(1), int64(1)
			// hard: instances whose optimum is above the simple lower bound
			// max(⌈total/members⌉, heaviest partition), and how many of
			// those the solver solves.
			hard, hardOptimal := 0, 0
			for i := range *oracleInstances {
				g := smallGroup(rng, row.full)
				lo, hi, best := bruteForce(g, row.skew)
				ss := newSubscriberSets(g.members, g.subscribers, g.topic)
				gotLo, gotHi := countBands(ss)
				for m := range g.members {
					if gotLo[m] != lo[m] || gotHi[m] != hi[m] {
						t.Fatalf("instance %d: member %d band [%d, %d], enumeration [%d, %d]; %+v", i, m, gotLo[m], gotHi[m], lo[m], hi[m], g)
					}
				}
				holder := mustSolve(t, g, cfg)
				load, _ := loadsOf(g, holder)
				got := maxOf(load)
				if got < best {
					t.Fatalf("instance %d: heaviest %d below the optimum %d", i, got, best)
				}
				if best > simpleBound(g) {
					hard++
					if got == best {
						hardOptimal++
					}
				}
				if got == best {
					optimal++
				} else if got*worstDen > worstNum*best {
					worstNum, worstDen = got, best
				}
			}
			n := *oracleInstances
			t.Logf("%d instances: optimal heaviest load on %d (%.2f%%), worst ratio %d/%d = %.4f",
				n, optimal, 100*float64(optimal)/float64(n), worstNum, worstDen, float64(worstNum)/float64(worstDen))
			t.Logf("%d instances with the optimum above max(⌈total/members⌉, heaviest): optimal on %d (%.2f%%)",
				hard, hardOptimal, 100*float64(hardOptimal)/float64(max(1, hard)))
			if optimal*100 < 95*n {
				t.Errorf("optimal on %d of %d instances, want at least 95%%", optimal, n)
			}
			if worstNum*3 > worstDen*4 {
				t.Errorf("worst ratio %d/%d above 4/3", worstNum, worstDen)
			}
		})
	}
}

// simpleBound is max(⌈total/members⌉, heaviest partition) over the members
// subscribed to something.
func simpleBound(g *group) int64 {
	active := 0
	for m := range int32(g.members) {
		for t := range g.subscribers {
			if subscribes(g, m, int32(t)) {
				active++
				break
			}
		}
	}
	var total, heaviest int64
	for p, w := range g.weight {
		if len(g.subscribers[g.topic[p]]) > 0 {
			total += w
			heaviest = max(heaviest, w)
		}
	}
	return max(heaviest, (total+int64(active)-1)/int64(active))
}
