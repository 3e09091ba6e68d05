package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/fnv1a"
)

// Skew is a per-partition load pattern: what [Case.Weigh] puts in each
// topic's [assignor.Topic.Weights]. Weights are integers in an abstract
// unit (records/s, say); the heaviest Zipf partition weighs [ZipfScale].
type Skew string

// The skews. Combine any of them with the Mixed and MixedJoin scenarios for
// mixed subscriptions.
const (
	// Zipf11: Zipf rates with s = 1.1 over all partitions in a random order:
	// the partition of rank r weighs ZipfScale / r^1.1.
	Zipf11 Skew = "zipf1.1"
	// Zipf15: the same with s = 1.5, a steeper skew (the heaviest partition
	// is a large share of the total).
	Zipf15 Skew = "zipf1.5"
	// Hot5: 5% of the partitions, drawn at random, carry half the load:
	// cold partitions weigh 100 to 199, hot ones 19 times a cold draw.
	Hot5 Skew = "hot5%"
	// IdleTopics: every third topic (topic-0000, topic-0003, …) is idle
	// (weight 0); the others have Zipf rates with s = 1.1 over the topics
	// in a random order, spread over each topic's partitions with ±50%
	// noise per partition.
	IdleTopics Skew = "idle-topics"
)

// ZipfScale is the weight of the heaviest partition of the Zipf skews.
const ZipfScale int64 = 1_000_000_000

// Skews returns every skew, in the results tables' order. The slice is the
// caller's.
func Skews() []Skew { return []Skew{Zipf11, Zipf15, Hot5, IdleTopics} }

// SkewShapes returns the shapes of the weighted benchmark, smallest first,
// from 1k to 1M partitions, with 5 to 500 partitions per member on average
// (the heaviest load over the lower bound depends mostly on that ratio).
// The slice is the caller's.
func SkewShapes() []Shape {
	return []Shape{
		{Topics: 10, Partitions: 100, Members: 200},
		{Topics: 10, Partitions: 100, Members: 50},
		{Topics: 20, Partitions: 500, Members: 1000},
		{Topics: 20, Partitions: 500, Members: 100},
		{Topics: 100, Partitions: 1000, Members: 10000},
		{Topics: 100, Partitions: 1000, Members: 1000},
		FullShape(),
	}
}

// Weigh returns a copy of c whose topics carry skew k's weights, drawn from
// seed: one weight per partition, none negative. The members and the
// topics' other fields are shared with c. The same arguments always give
// the same weights. It fails on an unknown skew. O(partitions).
func (c Case) Weigh(k Skew, seed uint64) (Case, error) {
	if !slices.Contains(Skews(), k) {
		return Case{}, fmt.Errorf("workload: unknown skew %q", k)
	}
	n := 0
	for _, t := range c.Topics {
		n += len(t.Partitions)
	}
	rng := rand.New(rand.NewPCG(seed, fnv1a.String(fmt.Sprintf("skew %s %d/%d", k, len(c.Topics), n))))
	weights := make([]int64, n)
	switch k {
	case Zipf11, Zipf15:
		s := 1.1
		if k == Zipf15 {
			s = 1.5
		}
		for p, r := range rng.Perm(n) {
			weights[p] = max(1, int64(float64(ZipfScale)/math.Pow(float64(r+1), s)))
		}
	case Hot5:
		hot := rng.Perm(n)[:n/20]
		for p := range weights {
			weights[p] = 100 + rng.Int64N(100)
		}
		for _, p := range hot {
			weights[p] *= 19
		}
	case IdleTopics:
		idleTopics(c.Topics, weights, rng)
	}
	out := c
	out.Topics = make([]assignor.Topic, len(c.Topics))
	at := 0
	for i, t := range c.Topics {
		t.Weights = weights[at : at+len(t.Partitions) : at+len(t.Partitions)]
		at += len(t.Partitions)
		out.Topics[i] = t
	}
	return out, nil
}

// idleTopics fills weights (flat, topic by topic) as [IdleTopics] says.
func idleTopics(topics []assignor.Topic, weights []int64, rng *rand.Rand) {
	rank := rng.Perm(len(topics))
	at := 0
	for i, t := range topics {
		n := len(t.Partitions)
		rate := float64(ZipfScale) / math.Pow(float64(rank[i]+1), 1.1) / float64(max(n, 1))
		for p := range n {
			noise := 0.5 + rng.Float64()
			if i%3 != 0 {
				weights[at+p] = int64(rate * noise)
			}
		}
		at += n
	}
}

// LowerBound returns a lower bound on the heaviest member's load in any
// plan of topics over members members: max(⌈total ÷ members⌉, heaviest
// single partition). Unknown (negative) weights count as 0. It returns 0
// when members is not positive or nothing weighs anything. O(partitions).
func LowerBound(topics []assignor.Topic, members int) int64 {
	if members <= 0 {
		return 0
	}
	var total, heaviest int64
	for _, t := range topics {
		for _, w := range t.Weights {
			if w > 0 {
				total += w
				heaviest = max(heaviest, w)
			}
		}
	}
	return max((total+int64(members)-1)/int64(members), heaviest)
}

// Loads returns each member's load under plan: the sum of the weights of
// the partitions it is assigned, by member ID. Partitions or topics that
// topics does not list, and unknown weights, count as 0. O(assigned +
// partitions).
func Loads(topics []assignor.Topic, plan assignor.Plan) map[string]int64 {
	weight := make(map[string]map[int32]int64, len(topics))
	for _, t := range topics {
		if t.Weights == nil {
			continue
		}
		byID := make(map[int32]int64, len(t.Partitions))
		for i, p := range t.Partitions {
			byID[p] = max(0, t.Weights[i])
		}
		weight[t.Name] = byID
	}
	loads := make(map[string]int64, len(plan.Members))
	for _, mp := range plan.Members {
		var load int64
		for _, tp := range mp.Assigned {
			byID := weight[tp.Topic]
			for _, p := range tp.Partitions {
				load += byID[p]
			}
		}
		loads[mp.Member] = load
	}
	return loads
}
