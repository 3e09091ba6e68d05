package workload

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/fnv1a"
)

// DefaultSeed is the seed of the published figures (`go run ./bench`
// without -seed).
const DefaultSeed uint64 = 1

// Scenario is one kind of rebalance.
type Scenario string

// The scenarios. Join, Leave and MixedJoin have history (Case.Before).
const (
	// Fresh: every member subscribes to every topic; nobody owns anything.
	Fresh Scenario = "fresh"
	// Join: one new member, subscribed to every topic, joins a group that
	// holds the history.
	Join Scenario = "join"
	// Leave: one member, chosen from the seed, leaves a group that holds the
	// history.
	Leave Scenario = "leave"
	// Mixed: odd members (in build order) subscribe to the first half of the
	// topics, even members to all of them; nobody owns anything.
	Mixed Scenario = "mixed"
	// Racks: as Fresh, but members have racks and partitions replica racks
	// (KIP-881): members spread over three racks, each partition's two
	// replicas on two distinct racks chosen from the seed.
	Racks Scenario = "racks"
	// MixedJoin: one new member, subscribed to every topic, joins a group
	// with Mixed subscriptions that holds the history.
	MixedJoin Scenario = "mixed-join"
)

// Scenarios returns every scenario in the results tables' order. The slice
// is the caller's.
func Scenarios() []Scenario { return []Scenario{Fresh, Join, Leave, Mixed, Racks, MixedJoin} }

// rackNames are the racks of the Racks scenario.
var rackNames = [...]string{"rack-a", "rack-b", "rack-c"}

// Member is one member of a built group: what its JoinGroup says besides
// history.
type Member struct {
	ID     string
	Topics []string // sorted
	Rack   string   // "" outside the Racks scenario
}

// Case is one scenario built on one shape. Its slices are shared with the
// groups built from it ([Case.Group], [Case.BeforeGroup]); treat them as
// read-only, as assignors treat their input.
type Case struct {
	// Topics is the metadata: the shape's topics, with partitions 0..n-1.
	Topics []assignor.Topic
	// Before is the group whose plan becomes the history of After (see the
	// package documentation), or nil when the scenario has no history.
	Before []Member
	// After is the group of the measured rebalance, in JoinGroup order.
	After []Member
}

// Build returns scenario sc on shape s, from seed. The same arguments always
// give the same Case. It fails on a shape with no topics, partitions or
// members, and on an unknown scenario. O(partitions + members × topics).
func Build(s Shape, sc Scenario, seed uint64) (Case, error) {
	if s.Topics <= 0 || s.Partitions <= 0 || s.Members <= 0 {
		return Case{}, fmt.Errorf("workload: empty shape %v", s)
	}
	g := newGen(seed, string(sc)+s.String())
	all := topicNames(s)
	firstHalf := all[:max(1, len(all)/2)]
	c := Case{Topics: metadata(s, g.rng, sc == Racks)}
	members := make([]Member, s.Members)
	for i := range members {
		m := Member{ID: g.memberID(), Topics: all}
		if (sc == Mixed || sc == MixedJoin) && i%2 == 1 {
			m.Topics = firstHalf
		}
		if sc == Racks {
			m.Rack = rackNames[i%len(rackNames)]
		}
		members[i] = m
	}
	switch sc {
	case Fresh, Mixed, Racks:
		c.After = members
	case Join, MixedJoin:
		c.Before = members
		c.After = append(slices.Clone(members), Member{ID: g.memberID(), Topics: all})
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

// gen draws member IDs and racks from one stream, seeded by the seed and a
// salt that names what is built, so that two scenarios on one seed differ.
type gen struct {
	rng  *rand.Rand
	seen map[string]bool
}

func newGen(seed uint64, salt string) *gen {
	return &gen{rng: rand.New(rand.NewPCG(seed, fnv1a.String(salt))), seen: map[string]bool{}}
}

// memberID returns a new random member ID, distinct from every other of g.
func (g *gen) memberID() string {
	for {
		id := fmt.Sprintf("consumer-%016x", g.rng.Uint64())
		if !g.seen[id] {
			g.seen[id] = true
			return id
		}
	}
}

// topicNames returns the shape's topic names, sorted: "topic-0000", ….
func topicNames(s Shape) []string {
	names := make([]string, s.Topics)
	for i := range names {
		names[i] = fmt.Sprintf("topic-%04d", i)
	}
	return names
}

// metadata returns the shape's topics with partitions 0..n-1; with racks,
// each partition gets two replicas on distinct racks drawn from rng.
func metadata(s Shape, rng *rand.Rand, racks bool) []assignor.Topic {
	names := topicNames(s)
	topics := make([]assignor.Topic, len(names))
	for i, name := range names {
		t := assignor.Topic{Name: name, Partitions: assignor.Partitions(int32(s.Partitions))}
		if racks {
			t.ReplicaRacks = make([][]string, s.Partitions)
			for p := range t.ReplicaRacks {
				a := rng.IntN(len(rackNames))
				b := (a + 1 + rng.IntN(len(rackNames)-1)) % len(rackNames)
				t.ReplicaRacks[p] = []string{rackNames[a], rackNames[b]}
			}
		}
		topics[i] = t
	}
	return topics
}

func shuffle(rng *rand.Rand, ms []Member) {
	rng.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
}
