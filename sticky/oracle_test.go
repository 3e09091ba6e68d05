package sticky

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/kgroup/assignor"
)

// score is a plan's quality in the order of the package documentation:
// sum of squared loads (lower is better), rack-local partitions (higher is
// better), partitions moved off their valid owner (lower is better).
type score struct {
	squares, local, moves int
}

func (a score) better(b score) bool {
	if a.squares != b.squares {
		return a.squares < b.squares
	}
	if a.local != b.local {
		return a.local > b.local
	}
	return a.moves < b.moves
}

// instance is a small group in dense form, for the brute-force oracle.
type instance struct {
	ix      *assignor.Index
	parts   []int32   // subscribed flat partitions
	options [][]int32 // per entry of parts: the subscribers
	local   [][]bool  // per entry of parts, per member: rack-local
}

func newInstance(t fataler, g assignor.Group) *instance {
	return instanceOf(denseIndex(t, g))
}

// newInstanceWithHistory is newInstance on the group as the assignor sees
// it: members' eager user-data history included.
func newInstanceWithHistory(t fataler, g assignor.Group) *instance {
	return instanceOf(New().withHistory(denseIndex(t, g)))
}

// denseIndex is g's index as the assignor gets it.
func denseIndex(t fataler, g assignor.Group) *assignor.Index {
	ix, err := assignor.NewIndex(g)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func instanceOf(ix *assignor.Index) *instance {
	in := &instance{ix: ix}
	for tp := range int32(ix.NumTopics()) {
		subs := ix.Subscribers(tp)
		if len(subs) == 0 {
			continue
		}
		first, end := ix.TopicRange(tp)
		for p := first; p < end; p++ {
			in.parts = append(in.parts, p)
			in.options = append(in.options, subs)
			loc := make([]bool, ix.NumMembers())
			if racks := ix.Topic(tp).ReplicaRacks; racks != nil {
				for m := range int32(ix.NumMembers()) {
					rack := ix.Member(m).Rack
					loc[m] = rack != "" && slices.Contains(racks[p-first], rack)
				}
			}
			in.local = append(in.local, loc)
		}
	}
	return in
}

// best enumerates every valid plan and returns the best score.
func (in *instance) best() score {
	loads := make([]int, in.ix.NumMembers())
	best := score{squares: 1 << 60}
	var walk func(i, local, moves int)
	walk = func(i, local, moves int) {
		if i == len(in.parts) {
			s := score{local: local, moves: moves}
			for _, l := range loads {
				s.squares += l * l
			}
			if s.better(best) {
				best = s
			}
			return
		}
		p := in.parts[i]
		owner := in.ix.Owner(p)
		for _, m := range in.options[i] {
			loads[m]++
			l, mv := local, moves
			if in.local[i][m] {
				l++
			}
			if owner >= 0 && owner != m {
				mv++
			}
			walk(i+1, l, mv)
			loads[m]--
		}
	}
	walk(0, 0, 0)
	return best
}

// scoreOf scores a plan (which must be valid).
func (in *instance) scoreOf(plan assignor.Plan) score {
	ix := in.ix
	at := make([]int32, ix.NumPartitions())
	for i := range at {
		at[i] = -1
	}
	for m, mp := range plan.Members {
		for _, tp := range mp.Assigned {
			t, _ := ix.TopicNumber(tp.Topic)
			for _, id := range tp.Partitions {
				p, _ := ix.Flat(t, id)
				at[p] = int32(m)
			}
		}
	}
	var s score
	loads := make([]int, ix.NumMembers())
	for i, p := range in.parts {
		m := at[p]
		loads[m]++
		if in.local[i][m] {
			s.local++
		}
		if o := ix.Owner(p); o >= 0 && o != m {
			s.moves++
		}
	}
	for _, l := range loads {
		s.squares += l * l
	}
	return s
}

// randomSmallGroup draws a group of up to 4 members and 8 partitions over up
// to 3 topics, with random subscriptions, racks, replica racks and claims
// (including stale and contested ones).
func randomSmallGroup(r *rand.Rand) assignor.Group {
	var g assignor.Group
	nt := 1 + r.IntN(3)
	budget := 1 + r.IntN(8)
	racks := []string{"", "a", "b", "c"}
	withRacks := r.IntN(2) == 0
	for t := range nt {
		n := r.IntN(budget + 1)
		if t == nt-1 {
			n = budget
		}
		budget -= n
		topic := assignor.Topic{Name: "t" + strconv.Itoa(t), Partitions: assignor.Partitions(int32(n))}
		if withRacks && n > 0 {
			topic.ReplicaRacks = make([][]string, n)
			for p := range n {
				for _, rk := range racks[1:] {
					if r.IntN(2) == 0 {
						topic.ReplicaRacks[p] = append(topic.ReplicaRacks[p], rk)
					}
				}
			}
		}
		g.Topics = append(g.Topics, topic)
	}
	nm := 1 + r.IntN(4)
	for m := range nm {
		mem := assignor.Member{ID: "m" + strconv.Itoa(m), Generation: int32(r.IntN(3)) - 1}
		for t := range nt {
			if r.IntN(3) > 0 {
				mem.Topics = append(mem.Topics, "t"+strconv.Itoa(t))
			}
		}
		if withRacks {
			mem.Rack = racks[r.IntN(len(racks))]
		}
		g.Members = append(g.Members, mem)
	}
	// Claims: each partition claimed by nobody, one member, or (rarely) two.
	for t, topic := range g.Topics {
		for _, p := range topic.Partitions {
			claims := r.IntN(3)
			if r.IntN(8) == 0 {
				claims = 2
			} else if claims == 2 {
				claims = 1
			}
			for range claims {
				m := r.IntN(nm)
				g.Members[m].Owned = append(g.Members[m].Owned, assignor.TopicPartitions{Topic: "t" + strconv.Itoa(t), Partitions: []int32{p}})
			}
		}
	}
	return g
}

// oracleInstances is the number of random instances of TestOracle;
// STICKY_ORACLE overrides it.
func oracleInstances(t *testing.T) int {
	if s := os.Getenv("STICKY_ORACLE"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("STICKY_ORACLE=%q: %v", s, err)
		}
		return n
	}
	return 3000
}

// TestOracle checks, against exhaustive enumeration of every valid plan,
// that the plan is lexicographically optimal on balance (sum of squared
// loads), then rack-local partitions, then moves, on thousands of small
// random instances with fixed seeds.
func TestOracle(t *testing.T) {
	n := oracleInstances(t)
	for _, cfg := range []Config{{}, {IgnoreRacks: true}} {
		a, _ := NewWithConfig(cfg)
		for i := range n {
			r := rand.New(rand.NewPCG(42, uint64(i)))
			g := randomSmallGroup(r)
			plan, err := a.Assign(g)
			if err != nil {
				t.Fatalf("instance %d: %v", i, err)
			}
			if err := assignor.CheckPlan(g, plan, assignor.Eager); err != nil {
				t.Fatalf("instance %d: invalid plan: %v\n%s", i, err, describe(g))
			}
			in := newInstance(t, g)
			if cfg.IgnoreRacks {
				for _, loc := range in.local {
					clear(loc)
				}
			}
			want, got := in.best(), in.scoreOf(plan)
			if want != got {
				t.Fatalf("instance %d (%+v): score %+v, optimum %+v\n%s\nplan:\n%s", i, cfg, got, want, describe(g), plan)
			}
		}
	}
	t.Logf("%d instances, each with and without racks, all optimal", n)
}

func describe(g assignor.Group) string {
	s := ""
	for _, t := range g.Topics {
		s += fmt.Sprintf("topic %s %v racks %v\n", t.Name, t.Partitions, t.ReplicaRacks)
	}
	for _, m := range g.Members {
		s += fmt.Sprintf("member %s rack %q topics %v owned %v gen %d\n", m.ID, m.Rack, m.Topics, m.Owned, m.Generation)
	}
	return s
}
