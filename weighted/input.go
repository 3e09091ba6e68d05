package weighted

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/balance"
)

// inputOf is the solver's input for the group ix describes: flat
// partitions, member numbers, the index's valid owners, each partition's
// weight (weights[p], known ones as given; unknown ones given def, or the
// rounded mean of the known ones when def is 0, or 1 when none is known)
// and, unless ignoreRacks, the member and replica racks as sticky reads
// them (KIP-881: in play when some member has a rack and some topic has
// replica racks). It fails only on weights adding up to more than 2^61. O(P
// + S + R) for P partitions, S subscription entries and R replica rack
// entries.
func inputOf(ix *assignor.Index, weights []int64, def int64, ignoreRacks bool) (*group, error) {
	n := ix.NumPartitions()
	numTopics := int32(ix.NumTopics())
	g := &group{members: ix.NumMembers(), subscribers: make([][]int32, numTopics)}
	g.topic = make([]int32, n)
	for t := range numTopics {
		g.subscribers[t] = ix.Subscribers(t)
		first, end := ix.TopicRange(t)
		for p := first; p < end; p++ {
			g.topic[p] = t
		}
	}
	g.owner = ownersOf(ix)
	var err error
	if g.weight, err = weightsOf(ix, weights, def); err != nil {
		return nil, err
	}
	if !ignoreRacks {
		readRacks(ix, g)
	}
	return g, nil
}

// ownersOf returns the owner of every flat partition: its valid owner,
// -1 when nobody claims it, -2 when it is claimed but nobody validly owns
// it ([assignor.Contested]); nil when nothing is claimed (a fresh group).
func ownersOf(ix *assignor.Index) []int32 {
	var out []int32
	for p := range int32(ix.NumPartitions()) {
		o := ix.Owner(p)
		if o != assignor.Unclaimed && out == nil {
			out = make([]int32, ix.NumPartitions())
			for q := range p {
				out[q] = -1
			}
		}
		if out != nil {
			out[p] = max(o, contested)
		}
	}
	return out
}

// topicWeights returns the weight the group's metadata gives every flat
// partition: its topic's Weights entry, or [assignor.UnknownWeight] for a
// topic without Weights. The index has validated them (none below
// UnknownWeight).
func topicWeights(ix *assignor.Index) []int64 {
	w := make([]int64, ix.NumPartitions())
	for t := range int32(ix.NumTopics()) {
		first, end := ix.TopicRange(t)
		if weights := ix.Topic(t).Weights; weights != nil {
			copy(w[first:end], weights)
			continue
		}
		for p := first; p < end; p++ {
			w[p] = assignor.UnknownWeight
		}
	}
	return w
}

// weightsOf returns the weight of every flat partition: weights[p], with
// unknown weights replaced by def, or when def is 0 by the mean of the
// known weights rounded to the nearest integer, or by 1 when no weight is
// known (then the plan balances counts). It fills weights in place and
// returns it. It fails when the weights, defaults included, add up to more
// than 2^61, naming the partition at which the sum passes it.
func weightsOf(ix *assignor.Index, weights []int64, def int64) ([]int64, error) {
	var sum, known int64
	for p, x := range weights {
		if x >= 0 {
			if sum += x; x > maxTotal || sum > maxTotal {
				return nil, totalError(ix, int32(p))
			}
			known++
		}
	}
	if def <= 0 {
		def = 1
		if known > 0 {
			def = (sum + known/2) / known
		}
	}
	for p, x := range weights {
		if x < 0 {
			if weights[p] = def; def > maxTotal-sum {
				return nil, totalError(ix, int32(p))
			}
			sum += def
		}
	}
	return weights, nil
}

// fits reports whether weightsOf(ix, weights, def) succeeds: whether the
// weights, unknown ones given the default, add up to at most 2^61.
func fits(weights []int64, def int64) bool {
	var sum, known, unknown int64
	for _, x := range weights {
		if x < 0 {
			unknown++
			continue
		}
		if sum += x; x > maxTotal || sum > maxTotal {
			return false
		}
		known++
	}
	if def <= 0 {
		def = 1
		if known > 0 {
			def = (sum + known/2) / known
		}
	}
	return unknown == 0 || def <= (maxTotal-sum)/unknown
}

// totalError is the error for a total weight above 2^61, reached at flat
// partition p.
func totalError(ix *assignor.Index, p int32) error {
	topic, id := ix.Partition(p)
	return fmt.Errorf("%w: the weights reach more than 2^61 at topic %q partition %d", errInput, topic, id)
}

// readRacks fills g's racks when they are in play: member racks numbered in
// member order, and each partition's rack set (the member racks among its
// replicas' racks, sorted) numbered in first-seen order; partitions whose
// replicas are in no member's rack get -1. Consecutive partitions with
// equal replica rack lists (the common case) share one lookup.
func readRacks(ix *assignor.Index, g *group) {
	memberRack, rackID := balance.MemberRacks(ix)
	if len(rackID) == 0 || !balance.HasReplicaRacks(ix) {
		return
	}
	g.memberRack = memberRack
	g.replicaRacks = make([]int32, ix.NumPartitions())
	setID := map[string]int32{}
	var prev []string
	prevSet := int32(-1)
	var scratch []int32
	var key strings.Builder
	for t := range int32(ix.NumTopics()) {
		tp := ix.Topic(t)
		start, _ := ix.TopicRange(t)
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

// supplied fills the weights that weights leaves unknown with those
// source knows: it asks source for every topic with an unknown weight and
// writes the answers over the unknown entries only (what the group or a
// report says wins). It fails when source answers with the wrong shape or a
// weight below [assignor.UnknownWeight], naming the topic.
func supplied(ix *assignor.Index, weights []int64, source func([]assignor.TopicPartitions) [][]int64) error {
	var ask []assignor.TopicPartitions
	var at []int32
	for t := range int32(ix.NumTopics()) {
		first, end := ix.TopicRange(t)
		if slices.Contains(weights[first:end], assignor.UnknownWeight) {
			tp := ix.Topic(t)
			ask = append(ask, assignor.TopicPartitions{Topic: tp.Name, Partitions: slices.Clone(tp.Partitions)})
			at = append(at, t)
		}
	}
	if len(ask) == 0 {
		return nil
	}
	answer := source(ask)
	if answer != nil && len(answer) != len(ask) {
		return fmt.Errorf("weighted: Config.Weights answered for %d topics, asked for %d", len(answer), len(ask))
	}
	for i, got := range answer {
		if got == nil {
			continue
		}
		tp := ix.Topic(at[i])
		if len(got) != len(tp.Partitions) {
			return fmt.Errorf("weighted: Config.Weights gave %d weights for the %d partitions of topic %q", len(got), len(tp.Partitions), tp.Name)
		}
		for j, w := range got {
			if w < assignor.UnknownWeight {
				return fmt.Errorf("weighted: Config.Weights gave topic %q partition %d the negative weight %d", tp.Name, tp.Partitions[j], w)
			}
		}
		first, _ := ix.TopicRange(at[i])
		for j, w := range got {
			if p := first + int32(j); weights[p] == assignor.UnknownWeight {
				weights[p] = w
			}
		}
	}
	return nil
}
