package contender

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/touchfloor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

func init() {
	Register(Contender{Key: "touch-floor", Name: "touch floor (read the Group, write the Plan)", Family: "floor", Floor: true, Core: true, Racks: true, Order: 93,
		Timed: "package touchfloor's Plan alone on the Group ours-coop-core gets: topic names and owned partitions resolved to dense numbers (a per-partition claims array), members sorted by ID, then sticky's plan for the group, decided beforehand, written in three allocations (shared arrays; the Group's own strings); no assignment logic",
		New:   func() Runner { return &touchRunner{layout: touchfloor.Shared} }})
	Register(Contender{Key: "touch-floor-perlist", Name: "touch floor, a slice per list", Family: "floor", Floor: true, Core: true, Racks: true, Order: 94,
		Timed: "as touch-floor, the plan written by appending into a slice per member and per topic entry",
		New:   func() Runner { return &touchRunner{layout: touchfloor.PerList} }})
	Register(Contender{Key: "ours-sticky-owned-core", Name: "ours sticky with owned (core Assign only)", Family: "ours", Racks: true, Core: true, Order: 22,
		Timed: "Assign alone (sticky.New()) on a Group decoded beforehand whose members send their owned partitions and generation (subscription v3, as cooperative members do) and no user data: the input closest to what Kafka's coordinator hands uniform; no codec",
		New:   func() Runner { return &oursRunner{Assignor: sticky.New(), Core: true, Claims: true} }})
}

// touchRunner times the touch floor (package touchfloor) on the Group the
// core contenders get; the plan it writes is sticky's for that group,
// decided in Prepare.
type touchRunner struct {
	layout touchfloor.Layout
	group  assignor.Group
	floor  *touchfloor.Floor
	plan   assignor.Plan
}

func (r *touchRunner) Prepare(topics []assignor.Topic, members []MemberJoin, generation int32) error {
	core := &oursRunner{Assignor: cooperative.Wrap(sticky.New()), Core: true}
	if err := core.Prepare(topics, members, generation); err != nil {
		return err
	}
	r.group = core.group
	decided, err := sticky.New().Assign(r.group)
	if err != nil {
		return fmt.Errorf("contender: touch floor: deciding the plan: %w", err)
	}
	if r.floor, err = touchfloor.New(r.group, decided, r.layout); err != nil {
		return fmt.Errorf("contender: %w", err)
	}
	return nil
}

func (r *touchRunner) Lead() error {
	r.plan = r.floor.Plan(r.group)
	return nil
}

func (r *touchRunner) Result() ([]Assignment, error) {
	out := make([]Assignment, len(r.plan.Members))
	for i, mp := range r.plan.Members {
		out[i] = Assignment{Member: mp.Member, Partitions: assignor.CloneTopicPartitions(mp.Assigned)}
	}
	return out, nil
}
