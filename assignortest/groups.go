package assignortest

import (
	"fmt"
	"math/rand/v2"

	"github.com/kgroup/assignor"
)

// member builds a dynamic member without claims, subscribed to topics.
func member(id string, topics ...string) assignor.Member {
	return assignor.Member{ID: id, Topics: topics, Generation: assignor.NoGeneration}
}

// owning returns m claiming owned at generation gen.
func owning(m assignor.Member, gen int32, owned ...assignor.TopicPartitions) assignor.Member {
	m.Generation, m.Owned = gen, owned
	return m
}

func tps(topic string, ids ...int32) assignor.TopicPartitions {
	return assignor.TopicPartitions{Topic: topic, Partitions: ids}
}

func topic(name string, n int32) assignor.Topic {
	return assignor.Topic{Name: name, Partitions: assignor.Partitions(n)}
}

// uniform returns n members named by memberID, each subscribed to every
// topic of topics.
func uniform(n int, topics ...assignor.Topic) assignor.Group {
	names := make([]string, len(topics))
	for i, t := range topics {
		names[i] = t.Name
	}
	g := assignor.Group{Topics: topics}
	for i := range n {
		g.Members = append(g.Members, member(memberID(i, n), names...))
	}
	return g
}

// memberID names member i of n so that names sort like numbers.
func memberID(i, n int) string { return fmt.Sprintf("m%0*d", len(fmt.Sprint(max(n-1, 0))), i) }

// partitionKey names one partition of one topic.
type partitionKey struct {
	topic string
	id    int32
}

// withBlockOwnership returns g with its partitions (topics in g's order,
// partitions ascending) claimed at generation gen in contiguous blocks by
// the first owners members of g, balanced, the larger blocks last:
//
//	7 partitions, 3 owners: m0: t0[0 1]  m1: t0[2 3]  m2: t0[4 5 6]
//
// Round-robin never lays partitions out like this, so a plan equal to it
// comes from keeping ownership.
func withBlockOwnership(g assignor.Group, owners int, gen int32) assignor.Group {
	g = g.Clone()
	var all []partitionKey
	for _, t := range g.Topics {
		for _, p := range t.Partitions {
			all = append(all, partitionKey{t.Name, p})
		}
	}
	base, extra := len(all)/owners, len(all)%owners
	next := 0
	for i := range owners {
		n := base
		if i >= owners-extra {
			n++
		}
		var owned []assignor.TopicPartitions
		for _, k := range all[next : next+n] {
			if len(owned) == 0 || owned[len(owned)-1].Topic != k.topic {
				owned = append(owned, tps(k.topic))
			}
			last := &owned[len(owned)-1]
			last.Partitions = append(last.Partitions, k.id)
		}
		next += n
		g.Members[i] = owning(g.Members[i], gen, owned...)
	}
	return g
}

// javaHeterogeneous is Java's RoundRobinAssignor example of different
// subscriptions.
func javaHeterogeneous() assignor.Group {
	return assignor.Group{
		Members: []assignor.Member{member("C0", "t0"), member("C1", "t0", "t1"), member("C2", "t0", "t1", "t2")},
		Topics:  []assignor.Topic{topic("t0", 1), topic("t1", 2), topic("t2", 3)},
	}
}

// mixedSubscriptions has overlapping, disjoint, empty and unknown
// subscriptions, and an empty topic.
func mixedSubscriptions() assignor.Group {
	return assignor.Group{
		Members: []assignor.Member{
			member("m0", "a"),
			member("m1", "b", "c"),
			member("m2", "a", "b", "c", "d"),
			member("m3", "d"),
			member("m4"),
			member("m5", "c", "missing"),
		},
		Topics: []assignor.Topic{topic("a", 5), topic("b", 3), topic("c", 8), topic("d", 2), topic("e", 4), topic("empty", 0)},
	}
}

// richGroup uses every field of a Group: static members, racks, replica
// racks, user data, unsorted partition lists, repeated subscriptions,
// valid, stale and outside claims.
func richGroup() assignor.Group {
	a := owning(member("a", "t0", "t1", "t1"), 4, tps("t0", 0, 1), tps("t1", 3))
	a.InstanceID, a.Rack, a.UserData = "i-a", "r1", []byte{1, 2, 3}
	b := owning(member("b", "t0", "t2", "missing"), 3, tps("t0", 2, 3, 1))
	b.Rack = "r2"
	c := owning(member("c", "t1", "t2"), 4, tps("t2", 0), tps("t9", 1))
	e := owning(member("e", "t2"), assignor.NoGeneration, tps("t2", 1))
	e.InstanceID = "i-e"
	return assignor.Group{
		Members: []assignor.Member{a, b, c, member("d", "t0", "t1", "t2"), e},
		Topics: []assignor.Topic{
			{Name: "t0", Partitions: assignor.Partitions(6), ReplicaRacks: [][]string{{"r1", "r2"}, {"r2"}, {"r1"}, {"r2", "r1"}, {"r1"}, {"r2"}}},
			{Name: "t1", Partitions: []int32{3, 1, 0, 2}},
			topic("t2", 2),
		},
	}
}

// shuffled returns a copy of g with its members, topics, each member's
// subscriptions and claims, and each topic's partitions (with their replica
// racks) in an order drawn from seed.
func shuffled(g assignor.Group, seed uint64) assignor.Group {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	s := g.Clone()
	rng.Shuffle(len(s.Members), func(i, j int) { s.Members[i], s.Members[j] = s.Members[j], s.Members[i] })
	for i := range s.Members {
		m := &s.Members[i]
		rng.Shuffle(len(m.Topics), func(i, j int) { m.Topics[i], m.Topics[j] = m.Topics[j], m.Topics[i] })
		rng.Shuffle(len(m.Owned), func(i, j int) { m.Owned[i], m.Owned[j] = m.Owned[j], m.Owned[i] })
		for _, tp := range m.Owned {
			rng.Shuffle(len(tp.Partitions), func(i, j int) { tp.Partitions[i], tp.Partitions[j] = tp.Partitions[j], tp.Partitions[i] })
		}
	}
	rng.Shuffle(len(s.Topics), func(i, j int) { s.Topics[i], s.Topics[j] = s.Topics[j], s.Topics[i] })
	for i := range s.Topics {
		t := &s.Topics[i]
		rng.Shuffle(len(t.Partitions), func(i, j int) {
			t.Partitions[i], t.Partitions[j] = t.Partitions[j], t.Partitions[i]
			if t.ReplicaRacks != nil {
				t.ReplicaRacks[i], t.ReplicaRacks[j] = t.ReplicaRacks[j], t.ReplicaRacks[i]
			}
		})
	}
	return s
}

// withoutMember returns a copy of g without its member i.
func withoutMember(g assignor.Group, i int) assignor.Group {
	g = g.Clone()
	g.Members = append(g.Members[:i], g.Members[i+1:]...)
	return g
}
