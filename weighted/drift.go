package weighted

import "github.com/kgroup/assignor"

// Drift is what a rebalance would do to a group with the weights it
// carries now: the heaviest member's load as the members own their
// partitions, the heaviest load of the plan Assign would make, and the
// partitions that plan moves. Loads are in the weights' unit, unknown
// weights defaulted as Assign defaults them.
type Drift struct {
	Heaviest int64
	Planned  int64
	Moves    int
}

// Rebalance reports whether a rebalance would move a partition: with the
// same members and subscriptions, that the heaviest member is more than
// the hysteresis margin above the best load the assignor reaches.
func (d Drift) Rebalance() bool { return d.Moves > 0 }

// Drift runs Assign on g, whose members' Owned is the group's current
// assignment, and reports what the plan changes (see [Drift]). It is for
// deciding whether to ask for a rebalance when the weights drift: the
// leader sees weights only at a JoinGroup, and a member's rejoin triggers a
// rebalance only if its metadata changed. It fails when Assign does.
// Partitions nobody validly owns count as moves when the plan places
// them.
func (a *Assignor) Drift(g assignor.Group) (Drift, error) {
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return Drift{}, err
	}
	weights, _, err := a.weigh(ix)
	if err != nil {
		return Drift{}, err
	}
	holder, weight, err := a.assign(ix, weights)
	if err != nil {
		return Drift{}, err
	}
	now := make([]int64, ix.NumMembers())
	planned := make([]int64, ix.NumMembers())
	var d Drift
	for p, m := range holder {
		owner := ix.Owner(int32(p))
		if owner >= 0 {
			now[owner] += weight[p]
		}
		if m >= 0 {
			planned[m] += weight[p]
			if m != owner {
				d.Moves++
			}
		}
	}
	for m := range now {
		d.Heaviest, d.Planned = max(d.Heaviest, now[m]), max(d.Planned, planned[m])
	}
	return d, nil
}
