package contender

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// The solve: an assignor's flat path on the canonical view built
// beforehand, with owners, the closest Go counterpart of what Kafka's
// uniform assignor is timed on (its group spec and owner map are built
// before assign()): no names to read, no plan to write.
func init() {
	Register(Contender{Key: "ours-sticky-solve", Name: "ours sticky, solve on the view", Family: "ours", Racks: true, Core: true, Order: 23,
		Timed: "AssignFlat alone (sticky.New()) on the canonical view (assignor.Index) built beforehand from members that send their owned partitions: the solve, without reading the Group or writing the Plan",
		New:   func() Runner { return &solveRunner{a: sticky.New()} }})
	Register(Contender{Key: "ours-coop-solve", Name: "ours cooperative-sticky, solve on the view", Family: "ours", Cooperative: true, Racks: true, Core: true, Order: 24,
		Timed: "AssignFlat alone (cooperative.Wrap(sticky.New())) on the canonical view built beforehand: the solve and the cooperative round, without reading the Group or writing the Plan",
		New:   func() Runner { return &solveRunner{a: cooperative.Wrap(sticky.New()).(assignor.FlatAssignor)} }})
}

// solveRunner times AssignFlat on an Index built in Prepare.
type solveRunner struct {
	a  assignor.FlatAssignor
	ix *assignor.Index
	fp assignor.FlatPlan
}

func (r *solveRunner) Prepare(topics []assignor.Topic, members []MemberJoin, generation int32) error {
	core := &oursRunner{Assignor: r.a, Core: true, Claims: true}
	if err := core.Prepare(topics, members, generation); err != nil {
		return err
	}
	ix, err := assignor.NewIndex(core.group)
	if err != nil {
		return fmt.Errorf("contender: solve: %w", err)
	}
	r.ix = ix
	return nil
}

func (r *solveRunner) Lead() error {
	fp, err := r.a.AssignFlat(r.ix)
	r.fp = fp
	return err
}

func (r *solveRunner) Result() ([]Assignment, error) {
	plan := r.ix.PlanOf(r.fp)
	out := make([]Assignment, len(plan.Members))
	for i, mp := range plan.Members {
		out[i] = Assignment{Member: mp.Member, Partitions: mp.Assigned}
	}
	return out, nil
}
