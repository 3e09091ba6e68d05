package sticky

import (
	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/dense"
)

// plan builds the [assignor.Plan] from sol.assign and the sizes deal
// counted, with a fixed number of allocations whatever the size (see
// [dense.Lists]). Assigned lists come out sorted by topic, then partition,
// because flat order is that order. O(P + M).
func (sol *solver) plan() assignor.Plan {
	ix := sol.ix
	lists := dense.Lists[assignor.TopicPartitions](ix, sol.assign, sol.sizes, nil)
	plan := assignor.Plan{Members: make([]assignor.MemberPlan, len(ix.Members))}
	for m, mem := range ix.Members {
		plan.Members[m] = assignor.MemberPlan{Member: mem.ID, Assigned: lists[m]}
	}
	return plan
}
