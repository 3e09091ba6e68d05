package scenario

import (
	"fmt"
	"math/rand/v2"

	"github.com/kgroup/assignor"
)

// Shape is the size of a benchmark group: Topics topics of
// PartitionsPerTopic partitions each, and Members members.
type Shape struct {
	Topics             int
	PartitionsPerTopic int
	Members            int
}

// Partitions is the number of partitions of the shape.
func (s Shape) Partitions() int { return s.Topics * s.PartitionsPerTopic }

// String renders the shape as in the benchmark tables: "10x100/50".
func (s Shape) String() string {
	return fmt.Sprintf("%dx%d/%d", s.Topics, s.PartitionsPerTopic, s.Members)
}

// Shapes returns the five shapes of the benchmark issue, from one thousand
// to one million partitions.
func Shapes() []Shape {
	return []Shape{
		{Topics: 10, PartitionsPerTopic: 100, Members: 50},
		{Topics: 20, PartitionsPerTopic: 500, Members: 100},
		{Topics: 50, PartitionsPerTopic: 800, Members: 800},
		{Topics: 100, PartitionsPerTopic: 1000, Members: 1000},
		{Topics: 500, PartitionsPerTopic: 2000, Members: 2000},
	}
}

// GrowthShapes returns the growth series: 1,000 members subscribed to 100
// topics of 100, 1,000, 3,000 and 10,000 partitions (10k to 1M partitions).
func GrowthShapes() []Shape {
	var out []Shape
	for _, n := range []int{100, 1000, 3000, 10000} {
		out = append(out, Shape{Topics: 100, PartitionsPerTopic: n, Members: 1000})
	}
	return out
}

// Kind is a benchmark scenario.
type Kind int

// The scenarios; see the package documentation.
const (
	Fresh Kind = iota
	Join
	Leave
	Mixed
	MixedJoin
	Racks
)

// Kinds returns every scenario, in declaration order.
func Kinds() []Kind { return []Kind{Fresh, Join, Leave, Mixed, MixedJoin, Racks} }

func (k Kind) String() string {
	switch k {
	case Fresh:
		return "fresh"
	case Join:
		return "join"
	case Leave:
		return "leave"
	case Mixed:
		return "mixed"
	case MixedJoin:
		return "mixed-join"
	case Racks:
		return "racks"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Seed is the fixed seed of the input shuffle.
const Seed = 1

// TopicName is the name of topic i: "t0000", "t0001", ...
func TopicName(i int) string { return fmt.Sprintf("t%04d", i) }

// MemberID is the ID of member i: "m00000", "m00001", ...
func MemberID(i int) string { return fmt.Sprintf("m%05d", i) }

// RackName is the name of rack i: "r0", "r1", "r2".
func RackName(i int) string { return fmt.Sprintf("r%d", i) }

// Build returns the group of scenario k on shape s. It returns an empty group
// for an unknown kind or a shape with no members.
func Build(k Kind, s Shape) assignor.Group {
	if s.Members <= 0 || s.Topics < 0 || s.PartitionsPerTopic < 0 {
		return assignor.Group{}
	}
	g := assignor.Group{Topics: topics(s, k == Racks)}
	all := topicNames(0, s.Topics)
	firstHalf := topicNames(0, s.Topics/2)
	mixed := k == Mixed || k == MixedJoin
	for i := range s.Members {
		m := assignor.Member{ID: MemberID(i), Topics: all, Generation: assignor.NoGeneration}
		if mixed && i%2 == 1 {
			m.Topics = firstHalf
		}
		if k == Racks {
			m.Rack = RackName(i % 3)
		}
		g.Members = append(g.Members, m)
	}
	switch k {
	case Join, Leave, MixedJoin:
		previousPlan(g, s, mixed)
	case Fresh, Mixed, Racks:
	default:
		return assignor.Group{}
	}
	switch k {
	case Join, MixedJoin:
		g.Members = append(g.Members, assignor.Member{ID: MemberID(s.Members), Topics: all, Generation: assignor.NoGeneration})
	case Leave:
		g.Members = g.Members[1:]
	}
	shuffle(g)
	return g
}

func topicNames(from, to int) []string {
	names := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		names = append(names, TopicName(i))
	}
	return names
}

func topics(s Shape, racks bool) []assignor.Topic {
	ts := make([]assignor.Topic, s.Topics)
	partitions := assignor.Partitions(int32(s.PartitionsPerTopic))
	for i := range ts {
		ts[i] = assignor.Topic{Name: TopicName(i), Partitions: partitions}
		if racks {
			rr := make([][]string, s.PartitionsPerTopic)
			for p := range rr {
				a := (i + p) % 3
				rr[p] = []string{RackName(a), RackName((a + 1) % 3)}
			}
			ts[i].ReplicaRacks = rr
		}
	}
	return ts
}

// previousPlan gives the members a valid, balanced previous plan at
// generation 1: each topic's partitions dealt round-robin over its
// subscribers, one running counter per subscriber set. With mixed
// subscriptions the first half of the topics goes to the odd members and the
// second half to the even ones, which is balanced when the members are even
// in number.
func previousPlan(g assignor.Group, s Shape, mixed bool) {
	var odd, even, everyone []int
	for i := range g.Members {
		everyone = append(everyone, i)
		if i%2 == 1 {
			odd = append(odd, i)
		} else {
			even = append(even, i)
		}
	}
	var counters [3]int
	for t := range s.Topics {
		holders, key := everyone, 0
		if mixed {
			holders, key = even, 1
			if t < s.Topics/2 && len(odd) > 0 {
				holders, key = odd, 2
			}
		}
		name := TopicName(t)
		for p := range s.PartitionsPerTopic {
			m := &g.Members[holders[counters[key]%len(holders)]]
			counters[key]++
			if n := len(m.Owned); n == 0 || m.Owned[n-1].Topic != name {
				m.Owned = append(m.Owned, assignor.TopicPartitions{Topic: name})
			}
			last := &m.Owned[len(m.Owned)-1]
			last.Partitions = append(last.Partitions, int32(p))
		}
	}
	for i := range g.Members {
		g.Members[i].Generation = 1
	}
}

func shuffle(g assignor.Group) {
	r := rand.New(rand.NewPCG(Seed, Seed))
	r.Shuffle(len(g.Members), func(i, j int) { g.Members[i], g.Members[j] = g.Members[j], g.Members[i] })
	r.Shuffle(len(g.Topics), func(i, j int) { g.Topics[i], g.Topics[j] = g.Topics[j], g.Topics[i] })
}
