package sarama

import (
	"iter"
	"maps"
	"slices"

	ibm "github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// Plan runs the assignor on the leader. sarama calls it with every member's
// decoded subscription and, for every topic any member subscribes to, the
// partition IDs from its freshly refreshed metadata.
//
// It reads sarama's input as the package documentation describes under
// "What the assignor sees", runs the assignor and returns a plan with an
// entry for every member, empty if the assignor gave it nothing, so that
// every member receives an assignment and runs its OnAssignment. The
// assignment user data of the plan is kept for [Strategy.AssignmentData].
// Plan fails only when the assignor does (a group that cannot be assigned at
// all, such as an empty member ID); a member's odd subscription costs that
// member its history, never the rebalance. Its error wraps the assignor's,
// naming the assignor unless the cause already does:
//
//	sarama: plan: "roundrobin": assignor: member "": empty member ID
//
// The result holds the assignor's plan's partition lists (see
// [strategy.balancePlan]) and does not alias sarama's input. Plan reads
// and writes in a number of allocations that grows with the members and
// their topics, not with the partitions.
func (s *strategy) Plan(members map[string]ibm.ConsumerGroupMemberMetadata, topics map[string][]int32) (ibm.BalanceStrategyPlan, error) {
	plan, err := s.assign(members, topics)
	if err != nil {
		return nil, s.wrap("plan", err)
	}
	out := s.balancePlan(members, plan)
	s.setAssignmentData(plan)
	return out, nil
}

// assign runs the assignor on sarama's input: straight from an
// [assignor.Index] built over sarama's decoded metadata when the assignor is
// an [assignor.IndexAssignor], else on the [assignor.Group] of
// [strategy.group]. A group the index refuses goes to the assignor as a
// Group too, so that the error is the assignor's own.
func (s *strategy) assign(members map[string]ibm.ConsumerGroupMemberMetadata, topics map[string][]int32) (assignor.Plan, error) {
	if !indexed(s.a) {
		return s.a.Assign(s.group(members, topics))
	}
	ix, err := s.index(members, topics)
	if err != nil {
		// index logged what it read already.
		return s.a.Assign(s.readGroup(members, topics, func(string, ...any) {}))
	}
	return assignor.AssignIndex(s.a, ix)
}

// indexed reports whether a assigns on an [assignor.Index] faster than on a
// Group ([assignor.FlatAssignor] or [assignor.IndexAssignor]).
func indexed(a assignor.Assignor) bool {
	switch a.(type) {
	case assignor.FlatAssignor, assignor.IndexAssignor:
		return true
	}
	return false
}

// index builds the [assignor.Index] of sarama's input: the group
// [strategy.group] returns, without building it. The index aliases sarama's
// input (topic names and partition lists, member topics, user data and owned
// partitions), which nothing changes while Plan runs; the topic names in the
// plan are the keys of topics, one string per topic.
func (s *strategy) index(members map[string]ibm.ConsumerGroupMemberMetadata, topics map[string][]int32) (*assignor.Index, error) {
	var b assignor.IndexBuilder
	b.Grow(len(topics), len(members), 0)
	total := 0
	for name, partitions := range topics {
		total += len(partitions)
		b.AddTopic(assignor.Topic{Name: name, Partitions: partitions, ReplicaRacks: s.replicaRacks(name, partitions)})
	}
	claiming := false
	for id, meta := range members {
		m := assignor.Member{ID: id, Topics: meta.Topics, UserData: meta.UserData, Generation: s.generation(id, meta, s.logf), Rack: s.rack(id, meta)}
		if meta.Version >= 1 && len(meta.OwnedPartitions) > 0 {
			claiming = true
			b.AddMember(m, ownedPartitions(meta.OwnedPartitions))
		} else {
			b.AddMember(m, nil) // nil: m.Owned, which is empty
		}
	}
	if claiming {
		// The claims hint is the partition count: in a settled group
		// members claim about every partition once, and counting the
		// claims would walk every member's owned partitions once more.
		// Eager members claim nothing, and get no hint.
		b.Grow(0, 0, total)
	}
	return b.Build()
}

// ownedPartitions yields a member's owned partitions as sarama decoded
// them, skipping nil and empty entries, without copying.
func ownedPartitions(owned []*ibm.OwnedPartition) iter.Seq2[string, []int32] {
	return func(yield func(string, []int32) bool) {
		for _, op := range owned {
			if op != nil && len(op.Partitions) > 0 && !yield(op.Topic, op.Partitions) {
				return
			}
		}
	}
}

// balancePlan converts plan into sarama's plan: an entry for every member of
// members, empty if the plan gives it nothing. It hands sarama the plan's
// own partition lists, capacity clipped, so that it allocates only the maps
// sarama's type forces (one per member, one entry per member and topic): an
// assignor's plan is its caller's (Assign keeps no state between calls),
// and sarama only encodes the lists. A topic listed twice for one member,
// or a member listed twice, gets the lists joined in plan order, in a new
// list. A plan entry naming a member sarama did not send is logged and
// dropped.
func (s *strategy) balancePlan(members map[string]ibm.ConsumerGroupMemberMetadata, plan assignor.Plan) ibm.BalanceStrategyPlan {
	out := make(ibm.BalanceStrategyPlan, len(members))
	for _, mp := range plan.Members {
		if _, ok := members[mp.Member]; !ok {
			s.logf("sarama: %q: plan names member %q, which is not in the group; its entry is dropped", s.a.Name(), mp.Member)
			continue
		}
		if assigned, ok := out[mp.Member]; ok { // listed twice
			for _, tp := range mp.Assigned {
				if len(tp.Partitions) > 0 {
					assigned[tp.Topic] = append(slices.Clip(assigned[tp.Topic]), tp.Partitions...)
				}
			}
			continue
		}
		assigned := make(map[string][]int32, len(mp.Assigned))
		out[mp.Member] = assigned
		for i, tp := range mp.Assigned {
			if len(tp.Partitions) == 0 {
				continue
			}
			// One map operation per entry: a topic listed twice shows as a
			// map that did not grow, and its lists are joined again from
			// the plan.
			n := len(assigned)
			assigned[tp.Topic] = slices.Clip(tp.Partitions)
			if len(assigned) == n {
				assigned[tp.Topic] = joined(mp.Assigned[:i+1], tp.Topic)
			}
		}
	}
	if len(out) < len(members) {
		for id := range members {
			if _, ok := out[id]; !ok {
				out[id] = map[string][]int32{}
			}
		}
	}
	return out
}

// joined returns the partitions of every entry of assigned for topic, in
// order, in a new list.
func joined(assigned []assignor.TopicPartitions, topic string) []int32 {
	var ids []int32
	for _, tp := range assigned {
		if tp.Topic == topic {
			ids = append(ids, tp.Partitions...)
		}
	}
	return ids
}

// group returns the [assignor.Group] Plan hands the assignor for sarama's
// input, as the package documentation describes under "What the assignor
// sees". Nothing in the result aliases members or topics.
func (s *strategy) group(members map[string]ibm.ConsumerGroupMemberMetadata, topics map[string][]int32) assignor.Group {
	return s.readGroup(members, topics, s.logf)
}

// readGroup is group, logging what it works around to logf.
func (s *strategy) readGroup(members map[string]ibm.ConsumerGroupMemberMetadata, topics map[string][]int32, logf func(string, ...any)) assignor.Group {
	g := assignor.Group{
		Members: make([]assignor.Member, 0, len(members)),
		Topics:  make([]assignor.Topic, 0, len(topics)),
	}
	for _, id := range slices.Sorted(maps.Keys(members)) {
		g.Members = append(g.Members, s.member(id, members[id], logf))
	}
	for _, name := range slices.Sorted(maps.Keys(topics)) {
		t := assignor.Topic{Name: name, Partitions: slices.Clone(topics[name])}
		t.ReplicaRacks = s.replicaRacks(name, t.Partitions)
		g.Topics = append(g.Topics, t)
	}
	return g
}

func (s *strategy) member(id string, meta ibm.ConsumerGroupMemberMetadata, logf func(string, ...any)) assignor.Member {
	m := assignor.Member{
		ID:         id,
		Topics:     slices.Clone(meta.Topics),
		UserData:   slices.Clone(meta.UserData),
		Generation: s.generation(id, meta, logf),
		Rack:       s.rack(id, meta),
	}
	if meta.Version >= 1 {
		for _, op := range meta.OwnedPartitions {
			if op != nil && len(op.Partitions) > 0 {
				m.Owned = append(m.Owned, assignor.TopicPartitions{Topic: op.Topic, Partitions: slices.Clone(op.Partitions)})
			}
		}
	}
	return m
}

// generation returns the generation of a member's owned partitions: from
// the subscription (v2+), else for a cooperative assignor from the user
// data (logged when it is of no known layout), else
// [assignor.NoGeneration].
func (s *strategy) generation(id string, meta ibm.ConsumerGroupMemberMetadata, logf func(string, ...any)) int32 {
	switch {
	case meta.Version >= 2:
		return max(meta.GenerationID, assignor.NoGeneration)
	case s.cooperative && len(meta.UserData) > 0:
		// v0/v1: the generation is in the user data, the cooperative 4
		// bytes or, with cooperative.Config.InnerUserData, sticky's.
		gen, err := wire.UserDataGeneration(meta.UserData)
		if err != nil {
			logf("sarama: %q: member %q: user data (%d bytes): %v; its claims count without a generation",
				s.a.Name(), id, len(meta.UserData), err)
			return assignor.NoGeneration
		}
		return max(gen, assignor.NoGeneration)
	}
	return assignor.NoGeneration
}

// rack returns a member's rack: from the subscription (v3), else from
// Config.MemberRack, else none.
func (s *strategy) rack(id string, meta ibm.ConsumerGroupMemberMetadata) string {
	if meta.Version >= 3 && meta.RackID != nil && *meta.RackID != "" {
		return *meta.RackID
	}
	if s.cfg.MemberRack != nil {
		return s.cfg.MemberRack(id)
	}
	return ""
}

// replicaRacks asks Config.ReplicaRacks for every partition of a topic. It
// returns nil when no partition has known racks, else one entry per partition.
func (s *strategy) replicaRacks(topic string, partitions []int32) [][]string {
	if s.cfg.ReplicaRacks == nil || len(partitions) == 0 {
		return nil
	}
	racks := make([][]string, len(partitions))
	known := false
	for i, p := range partitions {
		racks[i] = slices.Clone(s.cfg.ReplicaRacks(topic, p))
		known = known || len(racks[i]) > 0
	}
	if !known {
		return nil
	}
	return racks
}
