package main

import (
	"maps"
	"slices"

	ibm "github.com/IBM/sarama"
	"github.com/kgroup/assignor"
)

// leaderStrategy is a sarama BalanceStrategy (eager) that plans with one
// of our assignors, giving it each partition's weight from a function the
// application supplies on the leader. The weighted assignor reads the
// weights; count-sticky ignores them. Members send no user data and, being
// eager, no owned partitions: the plans of a stable group are fresh plans.
type leaderStrategy struct {
	a      assignor.Assignor
	weight func(topic string, partition int32) int64
}

func (s *leaderStrategy) Name() string { return s.a.Name() }

func (s *leaderStrategy) Plan(members map[string]ibm.ConsumerGroupMemberMetadata, topics map[string][]int32) (ibm.BalanceStrategyPlan, error) {
	g := assignor.Group{}
	for _, name := range slices.Sorted(maps.Keys(topics)) {
		t := assignor.Topic{Name: name, Partitions: slices.Sorted(slices.Values(topics[name]))}
		if s.weight != nil {
			t.Weights = make([]int64, len(t.Partitions))
			for i, p := range t.Partitions {
				t.Weights[i] = s.weight(name, p)
			}
		}
		g.Topics = append(g.Topics, t)
	}
	for _, id := range slices.Sorted(maps.Keys(members)) {
		g.Members = append(g.Members, assignor.Member{ID: id, Topics: slices.Sorted(slices.Values(members[id].Topics)), Generation: assignor.NoGeneration})
	}
	plan, err := s.a.Assign(g)
	if err != nil {
		return nil, err
	}
	out := ibm.BalanceStrategyPlan{}
	for _, mp := range plan.Members {
		for _, tp := range mp.Assigned {
			out.Add(mp.Member, tp.Topic, tp.Partitions...)
		}
	}
	return out, nil
}

func (s *leaderStrategy) AssignmentData(string, map[string][]int32, int32) ([]byte, error) {
	return nil, nil
}
