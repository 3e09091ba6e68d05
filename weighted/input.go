package weighted

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/dense"
)

// inputOf is the solver's input for the group ix describes: flat
// partitions, member numbers, the index's valid owners, each partition's
// weight (unknown ones given def, or the rounded mean of the known ones
// when def is 0, or 1 when none is known) and, unless ignoreRacks, the
// member and replica racks as sticky reads them (KIP-881: in play when some
// member has a rack and some topic has replica racks). It fails only on
// weights adding up to more than 2^61. O(P + S + R) for P
// partitions, S subscription entries and R replica rack entries.
func inputOf(ix *dense.Index, def int64, ignoreRacks bool) (*group, error) {
	n := ix.NumPartitions()
	g := &group{members: len(ix.Members), subscribers: ix.Subscribers}
	g.topic = make([]int32, n)
	for t := range ix.Topics {
		for p := ix.TopicStart[t]; p < ix.TopicStart[t+1]; p++ {
			g.topic[p] = int32(t)
		}
	}
	g.owner = ownersOf(ix.Owner)
	var err error
	if g.weight, err = weightsOf(ix, def); err != nil {
		return nil, err
	}
	if !ignoreRacks {
		readRacks(ix, g)
	}
	return g, nil
}

// ownersOf returns the owner of every flat partition, -1 for none, or nil
// when no partition has one (a fresh group).
func ownersOf(owner []int32) []int32 {
	first := slices.IndexFunc(owner, func(o int32) bool { return o >= 0 })
	if first < 0 {
		return nil
	}
	out := make([]int32, len(owner))
	for p, o := range owner {
		out[p] = max(o, -1)
	}
	return out
}

// weightsOf returns the weight of every flat partition, unknown weights
// ([assignor.UnknownWeight], or a topic without Weights) replaced by def,
// or when def is 0 by the mean of the known weights rounded to the nearest
// integer, or by 1 when no weight is known (then the plan balances counts).
// The index has validated the weights (none below UnknownWeight). It fails
// when the weights, defaults included, add up to more than 2^61, naming the
// partition at which the sum passes it.
func weightsOf(ix *dense.Index, def int64) ([]int64, error) {
	w := make([]int64, ix.NumPartitions())
	var sum, known int64
	for t, tp := range ix.Topics {
		start := ix.TopicStart[t]
		for i := range tp.Partitions {
			x := assignor.UnknownWeight
			if tp.Weights != nil {
				x = tp.Weights[i]
			}
			w[start+int32(i)] = x
			if x >= 0 {
				if sum += x; x > maxTotal || sum > maxTotal {
					return nil, totalError(ix, start+int32(i))
				}
				known++
			}
		}
	}
	if def <= 0 {
		def = 1
		if known > 0 {
			def = (sum + known/2) / known
		}
	}
	for p, x := range w {
		if x < 0 {
			if w[p] = def; def > maxTotal-sum {
				return nil, totalError(ix, int32(p))
			}
			sum += def
		}
	}
	return w, nil
}

// totalError is the error for a total weight above 2^61, reached at flat
// partition p.
func totalError(ix *dense.Index, p int32) error {
	topic, id := ix.Partition(p)
	return fmt.Errorf("%w: the weights reach more than 2^61 at topic %q partition %d", errInput, topic, id)
}

// readRacks fills g's racks when they are in play: member racks numbered in
// member order, and each partition's rack set (the member racks among its
// replicas' racks, sorted) numbered in first-seen order; partitions whose
// replicas are in no member's rack get -1. Consecutive partitions with
// equal replica rack lists (the common case) share one lookup.
func readRacks(ix *dense.Index, g *group) {
	memberRack, rackID := ix.MemberRacks()
	if len(rackID) == 0 || !ix.HasReplicaRacks() {
		return
	}
	g.memberRack = memberRack
	g.replicaRacks = make([]int32, ix.NumPartitions())
	setID := map[string]int32{}
	var prev []string
	prevSet := int32(-1)
	var scratch []int32
	var key strings.Builder
	for t, tp := range ix.Topics {
		start := ix.TopicStart[t]
		for i := range tp.Partitions {
			p := start + int32(i)
			var replicas []string
			if tp.ReplicaRacks != nil {
				replicas = tp.ReplicaRacks[i]
			}
			if i > 0 && slices.Equal(replicas, prev) {
				g.replicaRacks[p] = prevSet
				continue
			}
			scratch = scratch[:0]
			for _, r := range replicas {
				if id, ok := rackID[r]; ok {
					scratch = append(scratch, id)
				}
			}
			set := int32(-1)
			if len(scratch) > 0 {
				slices.Sort(scratch)
				scratch = slices.Compact(scratch)
				key.Reset()
				for _, id := range scratch {
					key.WriteString(strconv.Itoa(int(id)))
					key.WriteByte(',')
				}
				var ok bool
				if set, ok = setID[key.String()]; !ok {
					set = int32(len(g.rackSets))
					setID[key.String()] = set
					g.rackSets = append(g.rackSets, slices.Clone(scratch))
				}
			}
			g.replicaRacks[p], prev, prevSet = set, replicas, set
		}
	}
}

// supplied returns ix, or when source knows weights that ix leaves
// unknown, a shallow copy of ix whose topics carry them (ix's slices are
// never written). It fails when source answers with the wrong shape or a
// weight below [assignor.UnknownWeight], naming the topic.
func supplied(ix *dense.Index, source func([]assignor.TopicPartitions) [][]int64) (*dense.Index, error) {
	var ask []assignor.TopicPartitions
	var at []int
	for t, tp := range ix.Topics {
		if tp.Weights == nil || slices.Contains(tp.Weights, assignor.UnknownWeight) {
			ask = append(ask, assignor.TopicPartitions{Topic: tp.Name, Partitions: slices.Clone(tp.Partitions)})
			at = append(at, t)
		}
	}
	if len(ask) == 0 {
		return ix, nil
	}
	answer := source(ask)
	if answer != nil && len(answer) != len(ask) {
		return nil, fmt.Errorf("weighted: Config.Weights answered for %d topics, asked for %d", len(answer), len(ask))
	}
	var topics []dense.Topic
	for i, got := range answer {
		tp := ix.Topics[at[i]]
		if got == nil {
			continue
		}
		if len(got) != len(tp.Partitions) {
			return nil, fmt.Errorf("weighted: Config.Weights gave %d weights for the %d partitions of topic %q", len(got), len(tp.Partitions), tp.Name)
		}
		merged := slices.Clone(got)
		for j, w := range merged {
			if w < assignor.UnknownWeight {
				return nil, fmt.Errorf("weighted: Config.Weights gave topic %q partition %d the negative weight %d", tp.Name, tp.Partitions[j], w)
			}
			if tp.Weights != nil && tp.Weights[j] != assignor.UnknownWeight {
				merged[j] = tp.Weights[j] // the Group's own weight wins
			}
		}
		if topics == nil {
			topics = slices.Clone(ix.Topics)
		}
		topics[at[i]].Weights = merged
	}
	if topics == nil {
		return ix, nil
	}
	c := *ix
	c.Topics = topics
	return &c, nil
}
