package saramaassignor

import (
	"iter"
	"maps"
	"slices"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/rebalance"
)

// Plan runs the assignor on the leader. sarama calls it with every member's
// decoded subscription and, for every topic any member subscribes to, the
// partition IDs from its freshly refreshed metadata.
//
// It reads sarama's input as the package documentation describes under
// "What the assignor sees" ([rebalance.Round.AddSubscription]), runs the
// assignor ([rebalance.Round.Assign]) and returns a plan with an entry for
// every member, empty if the assignor gave it nothing, so that every member
// receives an assignment and runs its OnAssignment. The assignment user
// data of the plan is kept for [Strategy.AssignmentData]. Plan fails only
// when the assignor does, or returns a plan that breaks the rules; one
// member's odd subscription or ID costs that member, never the rebalance.
// Its error wraps the assignor's, naming the assignor unless the cause
// already does:
//
//	saramaassignor: plan: "roundrobin": no plan today
//
// The result holds the plan's partition lists (capacity clipped) and does
// not alias sarama's input. Plan reads and writes in a number of
// allocations that grows with the members and their topics, not with the
// partitions.
func (s *strategy) Plan(members map[string]sarama.ConsumerGroupMemberMetadata, topics map[string][]int32) (sarama.BalanceStrategyPlan, error) {
	round := s.leader.NewRound()
	for id, meta := range members {
		sub := rebalance.Subscription{
			MemberID: id, Version: meta.Version, Topics: meta.Topics, UserData: meta.UserData,
			Owned: ownedPartitions(meta.OwnedPartitions), Generation: meta.GenerationID,
		}
		if meta.RackID != nil {
			sub.Rack = *meta.RackID
		}
		round.AddSubscription(sub)
	}
	racks := round.Racks()
	for _, name := range slices.Sorted(maps.Keys(topics)) {
		t := assignor.Topic{Name: name, Partitions: topics[name]}
		if racks {
			t.ReplicaRacks = s.replicaRacks(name, t.Partitions)
		}
		round.AddTopic(t)
	}
	res, err := round.Assign(0) // sarama does not tell the generation being balanced into
	if err != nil {
		return nil, s.wrap("plan", err)
	}
	if s.cfg.OnRebalance != nil {
		s.cfg.OnRebalance(res.Stats)
	}
	s.setAssignmentData(res.Assignments)
	return balancePlan(res.Assignments), nil
}

// ownedPartitions yields a member's owned partitions as sarama decoded
// them, skipping nil and empty entries, without copying.
func ownedPartitions(owned []*sarama.OwnedPartition) iter.Seq2[string, []int32] {
	if len(owned) == 0 {
		return nil
	}
	return func(yield func(string, []int32) bool) {
		for _, op := range owned {
			if op != nil && len(op.Partitions) > 0 && !yield(op.Topic, op.Partitions) {
				return
			}
		}
	}
}

// balancePlan converts the assignments into sarama's plan: an entry for
// every member, one map per member with one entry per topic, the
// assignments' own partition lists (capacity clipped): sarama only encodes
// them.
func balancePlan(as []rebalance.Assignment) sarama.BalanceStrategyPlan {
	out := make(sarama.BalanceStrategyPlan, len(as))
	for _, a := range as {
		assigned := make(map[string][]int32, len(a.Partitions))
		for _, tp := range a.Partitions {
			assigned[tp.Topic] = slices.Clip(tp.Partitions)
		}
		out[a.Member] = assigned
	}
	return out
}

// replicaRacks asks Config.ReplicaRacks for every partition of a topic. It
// returns nil when no partition has known racks, else one entry per
// partition.
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
