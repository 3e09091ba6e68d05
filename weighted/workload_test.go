package weighted

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// workload is a skewed weight pattern of issue 16's benchmarks.
type workload int

const (
	zipf11      workload = iota // Zipf rates, s = 1.1, over the partitions in random order
	zipf15                      // Zipf rates, s = 1.5
	topicZipf11                 // Zipf rates, s = 1.1, over the topics; ±50% per partition
	topicZipf15                 // the same with s = 1.5
	hot5                        // 5% of the partitions carry half the load
	idleZipf                    // a third of the topics idle, the rest as topicZipf11
	mixedZipf                   // as topicZipf11, members on different topic groups
)

func workloads() []workload {
	return []workload{zipf11, zipf15, topicZipf11, topicZipf15, hot5, idleZipf, mixedZipf}
}

func (w workload) String() string {
	return [...]string{"zipf1.1", "zipf1.5", "topic-zipf1.1", "topic-zipf1.5", "hot5%", "idle-topics", "mixed-subs"}[w]
}

// shape is a group's size: topics of partitionsPerTopic partitions, and
// members.
type shape struct{ topics, partitionsPerTopic, members int }

func (s shape) partitions() int { return s.topics * s.partitionsPerTopic }

func (s shape) String() string {
	return fmt.Sprintf("partitions=%d/members=%d", s.partitions(), s.members)
}

// zipfScale is the weight of the heaviest partition under a Zipf pattern.
const zipfScale = 1 << 30

// build returns a group of the shape with the workload's weights, no
// owners and no racks. Generated from seed only.
func (w workload) build(sh shape, seed uint64) *group {
	rng := rand.New(rand.NewPCG(seed, uint64(w)))
	n := sh.partitions()
	g := &group{members: sh.members, subscribers: make([][]int32, sh.topics)}
	g.topic = make([]int32, n)
	for p := range n {
		g.topic[p] = int32(p / sh.partitionsPerTopic)
	}
	g.weight = make([]int64, n)
	rank := rng.Perm(n)
	topicRank := rng.Perm(sh.topics)
	for p := range n {
		switch w {
		case topicZipf11, topicZipf15, idleZipf, mixedZipf:
			s := 1.1
			if w == topicZipf15 {
				s = 1.5
			}
			rate := zipfScale / math.Pow(float64(topicRank[g.topic[p]]+1), s) / float64(sh.partitionsPerTopic)
			g.weight[p] = int64(rate * (0.5 + rng.Float64()))
		case zipf15:
			g.weight[p] = int64(zipfScale / math.Pow(float64(rank[p]+1), 1.5))
		case hot5:
			cold := int64(100 + rng.IntN(100))
			if rank[p] < n/20 {
				cold *= 19
			}
			g.weight[p] = cold
		default:
			g.weight[p] = int64(zipfScale / math.Pow(float64(rank[p]+1), 1.1))
		}
	}
	if w == idleZipf {
		for p := range n {
			if g.topic[p]%3 == 0 {
				g.weight[p] = 0
			}
		}
	}
	w.subscribe(g, sh, rng)
	return g
}

// subscribe gives every member every topic, or, for mixedZipf, splits the
// topics into four groups and each member subscribes to one to three of
// them (each group has about half the members).
func (w workload) subscribe(g *group, sh shape, rng *rand.Rand) {
	if w != mixedZipf {
		for t := range sh.topics {
			for m := range sh.members {
				g.subscribers[t] = append(g.subscribers[t], int32(m))
			}
		}
		return
	}
	for m := range sh.members {
		first, span := rng.IntN(4), 1+rng.IntN(3)
		for k := range span {
			group := (first + k) % 4
			for t := group; t < sh.topics; t += 4 {
				g.subscribers[t] = append(g.subscribers[t], int32(m))
			}
		}
	}
}

// zeroWeights returns a copy of g whose weights are all 0: the solver then
// returns a count-balanced plan, the count-only baseline.
func zeroWeights(g *group) *group {
	z := *g
	z.weight = make([]int64, len(g.weight))
	return &z
}
