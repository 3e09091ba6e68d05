package saramaassignor

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// A sarama-only group, rebalance by rebalance, with a member whose
// subscription sarama reads cut short before its owned partitions (the one
// unreadable case that reaches a sarama leader: sarama's decoder stops
// there and reports a v1+ member that owns nothing, generation 0). The
// leader's strategy lives across rounds, as sarama keeps it. Members follow
// sarama's cooperative lifecycle: they take their assignment, tell the
// strategy (OnAssignment), revoke what they lost, and rejoin at once only if
// they revoked something (a sarama member cannot act on the fast re-join
// mark).

type saramaMember struct {
	id        string
	strategy  Strategy
	owned     map[string][]int32
	gen       int32
	cutShort  bool // its subscription reaches the leader without owned partitions
	subscribe []string
}

// metadata is the member's subscription as sarama's leader decodes it.
func (m *saramaMember) metadata(t *testing.T) sarama.ConsumerGroupMemberMetadata {
	ud, err := m.strategy.(sarama.SubscriptionUserDataBalanceStrategy).SubscriptionUserData(m.subscribe)
	if err != nil {
		t.Fatal(err)
	}
	meta := sarama.ConsumerGroupMemberMetadata{Version: 3, Topics: m.subscribe, UserData: ud, GenerationID: m.gen}
	if m.cutShort {
		meta.GenerationID = 0 // sarama's decoder stopped before it
		return meta
	}
	for _, topic := range slices.Sorted(maps.Keys(m.owned)) {
		meta.OwnedPartitions = append(meta.OwnedPartitions, &sarama.OwnedPartition{Topic: topic, Partitions: m.owned[topic]})
	}
	return meta
}

type saramaGroup struct {
	t       *testing.T
	members []*saramaMember
	topics  map[string][]int32
	gen     int32
}

func (g *saramaGroup) add(id string, cutShort bool) {
	g.members = append(g.members, &saramaMember{id: id, strategy: mustNew(g.t, cooperative.Wrap(sticky.New()), Config{Logger: discard}),
		gen: assignor.NoGeneration, cutShort: cutShort, subscribe: slices.Sorted(maps.Keys(g.topics))})
}

// round runs one rebalance led by the first member, checks that no
// partition goes to a member while another still holds it, applies it, and
// reports whether a member revoked something (and so rejoins at once).
func (g *saramaGroup) round() (revoked bool) {
	g.t.Helper()
	g.gen++
	leader := g.members[0].strategy
	members := make(map[string]sarama.ConsumerGroupMemberMetadata)
	holder := make(map[string]string)
	for _, m := range g.members {
		members[m.id] = m.metadata(g.t)
		for topic, ps := range m.owned {
			for _, p := range ps {
				holder[fmt.Sprint(topic, "/", p)] = m.id
			}
		}
	}
	plan, err := leader.Plan(members, g.topics)
	if err != nil {
		g.t.Fatalf("generation %d: %v", g.gen, err)
	}
	for _, m := range g.members {
		ud, _ := leader.AssignmentData(m.id, plan[m.id], g.gen)
		for topic, ps := range plan[m.id] {
			for _, p := range ps {
				if h, held := holder[fmt.Sprint(topic, "/", p)]; held && h != m.id {
					g.t.Fatalf("generation %d: %s/%d given to %s while %s still holds it", g.gen, topic, p, m.id, h)
				}
			}
		}
		for topic, ps := range m.owned {
			for _, p := range ps {
				revoked = revoked || !slices.Contains(plan[m.id][topic], p)
			}
		}
		m.strategy.(sarama.OnAssignmentBalanceStrategy).OnAssignment(&sarama.ConsumerGroupMemberAssignment{Topics: plan[m.id], UserData: ud}, g.gen)
		m.owned, m.gen = plan[m.id], g.gen
	}
	return revoked
}

// settle runs rounds while a member revoked something, at most six, and
// returns how many.
func (g *saramaGroup) settle() int {
	for rounds := 1; rounds <= 6; rounds++ {
		if !g.round() {
			return rounds
		}
	}
	g.t.Fatal("no settle in 6 rounds")
	return 0
}

// held returns how many partitions the members hold.
func (g *saramaGroup) held() int {
	n := 0
	for _, m := range g.members {
		for _, ps := range m.owned {
			n += len(ps)
		}
	}
	return n
}

func TestCutShortSubscription(t *testing.T) {
	g := &saramaGroup{t: t, topics: map[string][]int32{"a": assignor.Partitions(8), "b": assignor.Partitions(5)}}
	g.add("m0", false)
	g.add("m1", true)
	g.add("m2", false)

	// The group forms: no plan yet to read m1's claims from, so every
	// partition is withheld; nobody holds anything, so nobody revokes and
	// nothing brings a second round: the partitions wait for the next
	// rebalance (here m3 joining). With members that act on the fast
	// re-join mark (franz-go's) the second round comes at once.
	if rounds := g.settle(); rounds != 1 || g.held() != 0 {
		t.Fatalf("the group forms: %d rounds, %d partitions held; want 1 and 0", rounds, g.held())
	}
	g.add("m3", false)
	g.settle()
	if g.held() != 13 || len(g.members[1].owned) == 0 {
		t.Fatalf("the next rebalance: %d of 13 partitions held, m1 holds %v", g.held(), g.members[1].owned)
	}

	// A join takes partitions from m1 too: its claims come from the
	// leader's last plan, so they are withheld until it revokes them.
	g.add("m4", false)
	g.settle()
	if g.held() != 13 {
		t.Fatalf("after a join: %d of 13 partitions held", g.held())
	}

	// The leader leaves; m1's claims are unknown to the new leader (m2,
	// no memory), which withholds what nobody readable claims (m0's
	// partitions) and takes one partition from a member that holds it, so
	// that member revokes and rejoins: the second round comes at once.
	g.members = g.members[1:]
	g.members[0], g.members[1] = g.members[1], g.members[0] // m2 leads
	if rounds := g.settle(); rounds > 3 || g.held() != 13 {
		t.Fatalf("the leader leaves: %d rounds, %d of 13 partitions held", rounds, g.held())
	}
}

// TestImpossibleGenerationWithoutTheGeneration: sarama does not tell Plan
// the generation being balanced into, so a claim at a generation the group
// cannot have reached is recognised from the newest one the leader's own
// member synced: more than 16 past it, the claim is dropped and cannot
// outrank the partition's true holder.
func TestImpossibleGenerationWithoutTheGeneration(t *testing.T) {
	members := map[string]sarama.ConsumerGroupMemberMetadata{
		"h": {Version: 2, Topics: []string{"t"}, OwnedPartitions: owned("t", []int32{0, 1}), GenerationID: 5},
		"x": {Version: 2, Topics: []string{"t"}, OwnedPartitions: owned("t", []int32{0, 1}), GenerationID: 1<<31 - 1},
	}
	topics := map[string][]int32{"t": {0, 1}}
	for _, tc := range []struct {
		name   string
		synced int32 // the generation the leader's member synced; 0: none yet
		xGets  bool  // x is given a partition h holds
	}{
		{"the leader's member synced generation 5: x's claim is impossible", 5, false},
		{"the leader's member never synced: x's claim outranks h's, as it would in sarama's own leader", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustNew(t, cooperative.Wrap(sticky.New()), Config{Logger: discard})
			if tc.synced > 0 {
				s.(sarama.OnAssignmentBalanceStrategy).OnAssignment(&sarama.ConsumerGroupMemberAssignment{}, tc.synced)
			}
			plan, err := s.Plan(members, topics)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(plan["x"]["t"]) > 0; got != tc.xGets {
				t.Fatalf("x gets a partition h holds: %v, want %v (plan %v)", got, tc.xGets, plan)
			}
		})
	}
}
