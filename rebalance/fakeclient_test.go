package rebalance_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/rebalance"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/wire"
)

// This file is a third adapter, for a fake client whose group protocol
// speaks raw bytes (JoinGroup metadata in, SyncGroup assignments out),
// written on package rebalance alone: what a user writes to plug this
// module's assignors into a client it does not support. The fake
// coordinator below drives members through join and leave events, and the
// test checks what a group relies on: no partition ever held by two
// members, every partition held once the group settles, and a cooperative
// event settled in two rounds thanks to fast re-join.

// fakeMember is one member of the fake client: its own assignor instance
// and leader, what it owns, and the fast re-join guard.
type fakeMember struct {
	id     string
	newA   func() assignor.Assignor
	cfg    rebalance.Config
	a      assignor.Assignor
	leader *rebalance.Leader
	topics []string
	owned  []assignor.TopicPartitions
	gen    int32
	guard  rebalance.FastRejoinGuard

	// truncated: its client sends its metadata cut short before the owned
	// partitions (a v1 header on v0 bytes, as franz-go issue #493).
	truncated bool
	// slow: it misses the SyncGroup of every round whose assignments are
	// marked (the others rejoin at once and start the next round first),
	// keeping what it held.
	slow   bool
	missed int // SyncGroups missed
}

func newFakeMember(id string, topics []string) *fakeMember {
	return newFake(id, topics, func() assignor.Assignor { return cooperative.Wrap(sticky.New()) }, rebalance.Config{})
}

func newFake(id string, topics []string, newA func() assignor.Assignor, cfg rebalance.Config) *fakeMember {
	m := &fakeMember{id: id, newA: newA, cfg: cfg, topics: topics, gen: assignor.NoGeneration}
	m.restart()
	return m
}

// restart is a process restart: a new assignor and leader (no memory), and
// nothing owned (the old process revoked everything as it stopped).
func (m *fakeMember) restart() {
	m.a = m.newA()
	m.leader = rebalance.NewLeader(m.a, m.cfg)
	m.owned, m.gen, m.guard = nil, assignor.NoGeneration, rebalance.FastRejoinGuard{}
}

// metadata is the member's JoinGroup metadata.
func (m *fakeMember) metadata(t *testing.T) []byte {
	if m.truncated {
		b := wire.Subscription{Version: 0, Topics: m.topics}.AppendTo(nil)
		b[1] = 1 // says v1, ends before the owned partitions
		return b
	}
	b, err := rebalance.SubscriptionMetadata(m.a, assignor.MemberState{Topics: m.topics, Owned: m.owned, Generation: m.gen}, "")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// lead is the leader's side: every member's raw metadata in, every
// member's assignment bytes out, and the round's result.
func (m *fakeMember) lead(t *testing.T, gen int32, metadata map[string][]byte, partitions map[string]int32) (map[string][]byte, *rebalance.Result) {
	round := m.leader.NewRound()
	for _, id := range slices.Sorted(maps.Keys(metadata)) {
		round.AddMetadata(id, "", metadata[id])
	}
	for _, name := range round.Topics() {
		round.AddTopic(assignor.Topic{Name: name, Partitions: assignor.Partitions(partitions[name])})
	}
	res, err := round.Assign(gen)
	if err != nil {
		t.Fatalf("generation %d: %v", gen, err)
	}
	out := make(map[string][]byte, len(res.Assignments))
	for _, a := range res.Assignments {
		out[a.Member] = a.AppendTo(nil)
	}
	return out, res
}

// sync is the member's side of SyncGroup: it takes its assignment, revokes
// what it lost, tells its own leader side the generation was delivered,
// and reports whether it rejoins at once (it revoked something, or the
// leader marked the assignment).
func (m *fakeMember) sync(t *testing.T, gen int32, b []byte) (revoked []assignor.TopicPartitions, rejoin bool) {
	a, err := rebalance.ParseAssignment(b)
	if err != nil {
		t.Fatalf("%s: %v", m.id, err)
	}
	revoked = assignor.SubtractTopicPartitions(m.owned, a.Partitions)
	m.owned, m.gen = a.Partitions, gen
	m.leader.Delivered(gen)
	return revoked, len(revoked) > 0 || !m.cfg.DisableFastRejoin && m.guard.Honour(a.Rejoin)
}

// fakeGroup is the fake coordinator: it runs rounds until no member asks to
// rejoin, and checks ownership after every member's sync.
type fakeGroup struct {
	t          *testing.T
	members    []*fakeMember
	lead       int // the leader's index in members
	partitions map[string]int32
	gen        int32
	results    []*rebalance.Result // of the last settle, one per round
}

// settle runs rounds until the group is stable and returns how many.
func (g *fakeGroup) settle() int {
	g.results = nil
	for round := 1; round <= 8; round++ {
		g.gen++
		metadata := make(map[string][]byte)
		for _, m := range g.members {
			metadata[m.id] = m.metadata(g.t)
		}
		assignments, res := g.members[g.lead].lead(g.t, g.gen, metadata, g.partitions)
		g.results = append(g.results, res)
		marked := slices.ContainsFunc(res.Assignments, func(a rebalance.Assignment) bool { return a.Rejoin })
		again := false
		for _, m := range g.members {
			if m.slow && marked {
				m.missed++
				again = true // its SyncGroup failed: it rejoins, holding what it held
				continue
			}
			if _, rejoin := m.sync(g.t, g.gen, assignments[m.id]); rejoin {
				again = true
			}
			g.checkNoOverlap()
		}
		if !again {
			return round
		}
	}
	g.t.Fatal("the group did not settle in 8 rounds")
	return 0
}

// marked returns how many rounds of the last settle were marked.
func (g *fakeGroup) marked() int {
	n := 0
	for _, res := range g.results {
		if slices.ContainsFunc(res.Assignments, func(a rebalance.Assignment) bool { return a.Rejoin }) {
			n++
		}
	}
	return n
}

// checkNoOverlap fails when two members hold one partition.
func (g *fakeGroup) checkNoOverlap() {
	holder := map[string]string{}
	for _, m := range g.members {
		for _, tp := range m.owned {
			for _, p := range tp.Partitions {
				k := fmt.Sprintf("%s/%d", tp.Topic, p)
				if other, ok := holder[k]; ok {
					g.t.Fatalf("generation %d: %s held by %s and %s", g.gen, k, other, m.id)
				}
				holder[k] = m.id
			}
		}
	}
}

// checkComplete fails when a partition has no holder.
func (g *fakeGroup) checkComplete() {
	g.t.Helper()
	held := 0
	for _, m := range g.members {
		held += assignor.CountPartitions(m.owned)
	}
	total := 0
	for _, n := range g.partitions {
		total += int(n)
	}
	if held != total {
		g.t.Fatalf("generation %d: %d of %d partitions held", g.gen, held, total)
	}
}

// leave takes member i out of the group; it revoked everything as it left.
func (g *fakeGroup) leave(i int) {
	g.members = slices.Delete(g.members, i, i+1)
	if g.lead >= len(g.members) || g.lead == i {
		g.lead = 0
	} else if g.lead > i {
		g.lead--
	}
}

func TestFakeClientAdapter(t *testing.T) {
	topics := []string{"orders", "audit"}
	g := &fakeGroup{t: t, partitions: map[string]int32{"orders": 12, "audit": 5}}
	for i := range 3 {
		g.members = append(g.members, newFakeMember(fmt.Sprint("m", i), topics))
	}
	g.settle()
	g.checkComplete()

	g.members = append(g.members, newFakeMember("m3", topics))
	if rounds := g.settle(); rounds != 2 {
		t.Fatalf("a join settled in %d rounds, want 2 (withhold, then hand over)", rounds)
	}
	g.checkComplete()
	for _, m := range g.members {
		if n := assignor.CountPartitions(m.owned); n < 4 || n > 5 {
			t.Fatalf("%s holds %d of 17 partitions over 4 members: not balanced", m.id, n)
		}
	}

	g.leave(0)
	if rounds := g.settle(); rounds != 1 {
		t.Fatalf("a leave settled in %d rounds, want 1 (nothing to withhold)", rounds)
	}
	g.checkComplete()
}
