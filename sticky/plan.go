package sticky

import (
	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/dense"
)

// plan builds the [assignor.Plan] from pr.assign and the sizes deal
// counted, with a fixed number of allocations whatever the size (see
// [dense.Lists]). Assigned lists come out sorted by topic, then partition,
// because flat order is that order. O(P + M).
func (pr *problem) plan() assignor.Plan {
	ix := pr.ix
	lists := dense.Lists(ix, pr.assign, pr.sizes, nil, func(topic string, ids []int32) assignor.TopicPartitions {
		return assignor.TopicPartitions{Topic: topic, Partitions: ids}
	})
	plan := assignor.Plan{Members: make([]assignor.MemberPlan, len(ix.Members))}
	for m, mem := range ix.Members {
		plan.Members[m] = assignor.MemberPlan{Member: mem.ID, Assigned: lists[m]}
	}
	return plan
}
