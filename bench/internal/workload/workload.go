package workload

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/kgroup/assignor"
)

// Shape is the size of a benchmark group: Topics topics of Partitions
// partitions each, and Members members.
type Shape struct {
	Topics     int `json:"topics"`
	Partitions int `json:"partitions"`
	Members    int `json:"members"`
}

// Total is the number of partitions in the shape.
func (s Shape) Total() int { return s.Topics * s.Partitions }

// Short names the shape by its partition count: "1k", "10k", "1M".
func (s Shape) Short() string {
	n := s.Total()
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}

// String renders the shape as the results table shows it: "10x100/50 (1k)".
func (s Shape) String() string {
	return fmt.Sprintf("%dx%d/%d (%s)", s.Topics, s.Partitions, s.Members, s.Short())
}

// Shapes are the default shapes, smallest first; Full is the one-million
// partition shape that -full adds.
var (
	Shapes = []Shape{
		{Topics: 10, Partitions: 100, Members: 50},
		{Topics: 20, Partitions: 500, Members: 100},
		{Topics: 50, Partitions: 800, Members: 800},
		{Topics: 100, Partitions: 1000, Members: 1000},
	}
	Full = Shape{Topics: 500, Partitions: 2000, Members: 2000}
	// Growth is the growth series: 1,000 members subscribed to 100 topics
	// of 100, 1,000, 3,000 and 10,000 partitions (10k to 1M partitions), so
	// that only the partition count changes.
	Growth = []Shape{
		{Topics: 100, Partitions: 100, Members: 1000},
		{Topics: 100, Partitions: 1000, Members: 1000},
		{Topics: 100, Partitions: 3000, Members: 1000},
		{Topics: 100, Partitions: 10000, Members: 1000},
	}
)

// Scenario is one kind of rebalance.
type Scenario string

// The scenarios. Join and Leave start from the plan the contender itself
// made for the fresh group (Case.Before).
const (
	// Fresh: every member subscribes to every topic; nobody owns anything.
	Fresh Scenario = "fresh"
	// Join: one new member joins a group that holds its fresh plan.
	Join Scenario = "join"
	// Leave: one member leaves a group that holds its fresh plan.
	Leave Scenario = "leave"
	// Mixed: odd members subscribe to the first half of the topics, even
	// members to all; nobody owns anything.
	Mixed Scenario = "mixed"
	// Racks: as Fresh, but members have racks and partitions replica racks
	// (KIP-881): three racks, two replicas per partition on distinct racks.
	Racks Scenario = "racks"
	// MixedJoin: one new member, subscribed to every topic, joins a group
	// with Mixed subscriptions that holds its fresh plan. Not in the default
	// list; run it with -scenarios.
	MixedJoin Scenario = "mixed-join"
)

// Scenarios lists the default scenarios in table order; Optional lists the
// others.
var (
	Scenarios = []Scenario{Fresh, Join, Leave, Mixed, Racks}
	Optional  = []Scenario{MixedJoin}
)

// MemberSpec is one member of a generated group.
type MemberSpec struct {
	ID     string
	Topics []string // sorted
	Rack   string
}

// Case is one scenario's input.
type Case struct {
	Topics []assignor.Topic
	// Before is the group whose plan is the history of After, or nil when
	// the scenario has no history.
	Before []MemberSpec
	// After is the group of the measured rebalance, in JoinGroup order.
	After []MemberSpec
}

// RackNames are the racks of the Racks scenario.
var RackNames = []string{"rack-a", "rack-b", "rack-c"}

type gen struct {
	rng  *rand.Rand
	seen map[string]bool
}

func newGen(seed uint64, salt string) *gen {
	var h uint64 = 14695981039346656037
	for _, c := range []byte(salt) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return &gen{rng: rand.New(rand.NewPCG(seed, h)), seen: map[string]bool{}}
}

func (g *gen) memberID() string {
	for {
		id := fmt.Sprintf("consumer-%016x", g.rng.Uint64())
		if !g.seen[id] {
			g.seen[id] = true
			return id
		}
	}
}

// TopicNames returns the shape's topic names, sorted.
func TopicNames(s Shape) []string {
	names := make([]string, s.Topics)
	for i := range names {
		names[i] = fmt.Sprintf("topic-%04d", i)
	}
	return names
}

// Metadata returns the shape's topics with partitions 0..n-1; with racks, each
// partition gets two replicas on distinct racks chosen from rng.
func metadata(s Shape, rng *rand.Rand, racks bool) []assignor.Topic {
	names := TopicNames(s)
	topics := make([]assignor.Topic, len(names))
	for i, name := range names {
		t := assignor.Topic{Name: name, Partitions: assignor.Partitions(int32(s.Partitions))}
		if racks {
			t.ReplicaRacks = make([][]string, s.Partitions)
			for p := range t.ReplicaRacks {
				a := rng.IntN(len(RackNames))
				b := (a + 1 + rng.IntN(len(RackNames)-1)) % len(RackNames)
				t.ReplicaRacks[p] = []string{RackNames[a], RackNames[b]}
			}
		}
		topics[i] = t
	}
	return topics
}

// Build returns the input of scenario sc on shape s from seed. The same
// arguments always give the same Case.
func Build(s Shape, sc Scenario, seed uint64) (Case, error) {
	if s.Topics <= 0 || s.Partitions <= 0 || s.Members <= 0 {
		return Case{}, fmt.Errorf("workload: empty shape %v", s)
	}
	g := newGen(seed, string(sc)+s.String())
	all := TopicNames(s)
	firstHalf := all[:max(1, len(all)/2)]
	c := Case{Topics: metadata(s, g.rng, sc == Racks)}
	members := make([]MemberSpec, s.Members)
	for i := range members {
		m := MemberSpec{ID: g.memberID(), Topics: all}
		if (sc == Mixed || sc == MixedJoin) && i%2 == 1 {
			m.Topics = firstHalf
		}
		if sc == Racks {
			m.Rack = RackNames[i%len(RackNames)]
		}
		members[i] = m
	}
	switch sc {
	case Fresh, Mixed, Racks:
		c.After = members
	case Join, MixedJoin:
		c.Before = members
		c.After = append(slices.Clone(members), MemberSpec{ID: g.memberID(), Topics: all})
	case Leave:
		c.Before = members
		gone := g.rng.IntN(len(members))
		c.After = slices.Delete(slices.Clone(members), gone, gone+1)
	default:
		return Case{}, fmt.Errorf("workload: unknown scenario %q", sc)
	}
	shuffle(g.rng, c.Before)
	shuffle(g.rng, c.After)
	return c, nil
}

func shuffle(rng *rand.Rand, ms []MemberSpec) {
	rng.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
}
