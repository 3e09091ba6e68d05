package sarama

import (
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
// It builds an [assignor.Group] (see "What the assignor sees" in the package
// documentation), runs the assignor and returns
// a plan with an entry for every member, empty if the assignor gave it
// nothing, so that every member receives an assignment and runs its
// OnAssignment. The assignment user data of the plan is kept for
// [Strategy.AssignmentData]. Plan fails only when the assignor does (a group
// that cannot be assigned at all, such as an empty member ID); a member's odd
// subscription costs that member its history, never the rebalance. Its error
// wraps the assignor's, naming the assignor unless the cause already does:
//
//	sarama: plan: "roundrobin": assignor: member "": empty member ID
func (s *strategy) Plan(members map[string]ibm.ConsumerGroupMemberMetadata, topics map[string][]int32) (ibm.BalanceStrategyPlan, error) {
	g := s.group(members, topics)
	plan, err := s.a.Assign(g)
	if err != nil {
		return nil, s.wrap("plan", err)
	}
	out := s.balancePlan(members, plan)
	s.setAssignmentData(plan)
	return out, nil
}

// balancePlan converts plan into sarama's plan: an entry for every member of
// members, empty if the plan gives it nothing.
func (s *strategy) balancePlan(members map[string]ibm.ConsumerGroupMemberMetadata, plan assignor.Plan) ibm.BalanceStrategyPlan {
	out := make(ibm.BalanceStrategyPlan, len(members))
	for id := range members {
		out[id] = map[string][]int32{}
	}
	for _, mp := range plan.Members {
		assigned, ok := out[mp.Member]
		if !ok {
			s.logf("sarama: %q: plan names member %q, which is not in the group; its entry is dropped", s.a.Name(), mp.Member)
			continue
		}
		for _, tp := range mp.Assigned {
			if len(tp.Partitions) > 0 {
				assigned[tp.Topic] = append(assigned[tp.Topic], tp.Partitions...)
			}
		}
	}
	return out
}

// group returns the [assignor.Group] Plan hands the assignor for sarama's
// input, as the package documentation describes under "What the assignor
// sees". Nothing in the result aliases members or topics.
func (s *strategy) group(members map[string]ibm.ConsumerGroupMemberMetadata, topics map[string][]int32) assignor.Group {
	g := assignor.Group{
		Members: make([]assignor.Member, 0, len(members)),
		Topics:  make([]assignor.Topic, 0, len(topics)),
	}
	for _, id := range slices.Sorted(maps.Keys(members)) {
		g.Members = append(g.Members, s.member(id, members[id]))
	}
	for _, name := range slices.Sorted(maps.Keys(topics)) {
		t := assignor.Topic{Name: name, Partitions: slices.Clone(topics[name])}
		t.ReplicaRacks = s.replicaRacks(name, t.Partitions)
		g.Topics = append(g.Topics, t)
	}
	return g
}

func (s *strategy) member(id string, meta ibm.ConsumerGroupMemberMetadata) assignor.Member {
	m := assignor.Member{
		ID:         id,
		Topics:     slices.Clone(meta.Topics),
		UserData:   slices.Clone(meta.UserData),
		Generation: assignor.NoGeneration,
	}
	if meta.Version >= 1 {
		for _, op := range meta.OwnedPartitions {
			if op != nil && len(op.Partitions) > 0 {
				m.Owned = append(m.Owned, assignor.TopicPartitions{Topic: op.Topic, Partitions: slices.Clone(op.Partitions)})
			}
		}
	}
	switch {
	case meta.Version >= 2:
		m.Generation = max(meta.GenerationID, assignor.NoGeneration)
	case s.cooperative && len(meta.UserData) > 0:
		// v0/v1: the generation is in the user data, the cooperative 4
		// bytes or, with cooperative.Config.InnerUserData, sticky's.
		gen, err := wire.UserDataGeneration(meta.UserData)
		if err != nil {
			s.logf("sarama: %q: member %q: user data (%d bytes): %v; its claims count without a generation",
				s.a.Name(), id, len(meta.UserData), err)
			break
		}
		m.Generation = max(gen, assignor.NoGeneration)
	}
	if meta.Version >= 3 && meta.RackID != nil {
		m.Rack = *meta.RackID
	}
	if m.Rack == "" && s.cfg.MemberRack != nil {
		m.Rack = s.cfg.MemberRack(id)
	}
	return m
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
