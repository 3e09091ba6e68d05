package workload

import (
	"cmp"
	"slices"
	"strings"

	"github.com/kgroup/assignor"
)

// historyGeneration is the generation of the history in [Case.Group], the
// one the bench gives its history round.
const historyGeneration int32 = 1

// BeforeGroup returns the group whose plan becomes the history: the members
// of c.Before, owning nothing, on c.Topics. It returns a Group with no
// members for a scenario without history.
func (c Case) BeforeGroup() assignor.Group {
	return assignor.Group{Topics: c.Topics, Members: joins(c.Before, nil)}
}

// Group returns the group of the measured rebalance: the members of c.After
// on c.Topics, each member that history names owning what history assigned
// it, at generation 1; the others own nothing, at
// [assignor.NoGeneration]. history is a plan for [Case.BeforeGroup]: the
// assignor's own, or [Case.RoundRobin]. Pass the zero Plan for a scenario
// without history. Owned is a copy; Topics and the members' topic lists are
// shared with c.
func (c Case) Group(history assignor.Plan) assignor.Group {
	return assignor.Group{Topics: c.Topics, Members: joins(c.After, history.Members)}
}

// joins returns ms as group members, owning what history gives them.
func joins(ms []Member, history []assignor.MemberPlan) []assignor.Member {
	if len(ms) == 0 {
		return nil
	}
	owned := make(map[string][]assignor.TopicPartitions, len(history))
	for _, mp := range history {
		owned[mp.Member] = mp.Assigned
	}
	out := make([]assignor.Member, len(ms))
	for i, m := range ms {
		out[i] = assignor.Member{ID: m.ID, Rack: m.Rack, Topics: m.Topics, Generation: assignor.NoGeneration}
		if tps, ok := owned[m.ID]; ok {
			out[i].Owned = assignor.CloneTopicPartitions(tps)
			out[i].Generation = historyGeneration
		}
	}
	return out
}

// RoundRobin returns a history for c that no assignor made: a valid plan for
// [Case.BeforeGroup] (members sorted by ID, partitions canonical) that deals
// each topic's partitions, in ID order, round-robin over its narrowest
// subscribers, the members of Before with the fewest topics among those
// subscribing to it, in Before's order. One running counter per set of
// subscribers keeps the deal balanced across topics: with Mixed
// subscriptions the half-subscribers get the first half of the topics and
// the others the second half, which is balanced when the topics halve evenly
// and the two kinds are equal in number. It returns the zero Plan for a
// scenario without history.
//
//	members a, b; topics t0, t1 of 3 partitions: a: t0[0 2] t1[1]  b: t0[1] t1[0 2]
//
// O(partitions + members × topics).
func (c Case) RoundRobin() assignor.Plan {
	if len(c.Before) == 0 {
		return assignor.Plan{}
	}
	classes := subscriptionClasses(c.Before)
	counters := make([]int, len(classes))
	assigned := make([][]assignor.TopicPartitions, len(c.Before))
	for _, t := range slices.SortedFunc(slices.Values(c.Topics), func(a, b assignor.Topic) int { return cmp.Compare(a.Name, b.Name) }) {
		k := narrowest(classes, t.Name)
		if k < 0 {
			continue
		}
		holders := classes[k].members
		for _, id := range slices.Sorted(slices.Values(t.Partitions)) {
			m := holders[counters[k]%len(holders)]
			counters[k]++
			if n := len(assigned[m]); n == 0 || assigned[m][n-1].Topic != t.Name {
				assigned[m] = append(assigned[m], assignor.TopicPartitions{Topic: t.Name})
			}
			last := &assigned[m][len(assigned[m])-1]
			last.Partitions = append(last.Partitions, id)
		}
	}
	plan := assignor.Plan{Members: make([]assignor.MemberPlan, len(c.Before))}
	for i, m := range c.Before {
		plan.Members[i] = assignor.MemberPlan{Member: m.ID, Assigned: assigned[i]}
	}
	slices.SortFunc(plan.Members, func(a, b assignor.MemberPlan) int { return cmp.Compare(a.Member, b.Member) })
	return plan
}

// class is the members (indices into Before, in order) that subscribe to
// one list of topics.
type class struct {
	topics  []string
	members []int
}

// subscriptionClasses groups ms by their topic lists, in order of first
// appearance.
func subscriptionClasses(ms []Member) []class {
	var out []class
	index := map[string]int{}
	for i, m := range ms {
		key := strings.Join(m.Topics, "\x00")
		k, ok := index[key]
		if !ok {
			k = len(out)
			index[key] = k
			out = append(out, class{topics: m.Topics})
		}
		out[k].members = append(out[k].members, i)
	}
	return out
}

// narrowest returns the class with the fewest topics among those that
// subscribe to topic (the first on a tie), or -1 if none does.
func narrowest(classes []class, topic string) int {
	best := -1
	for k, c := range classes {
		if slices.Contains(c.topics, topic) && (best < 0 || len(c.topics) < len(classes[best].topics)) {
			best = k
		}
	}
	return best
}
