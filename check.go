package assignor

import "github.com/kgroup/assignor/internal/dense"

// CheckPlan checks plan against group g as an assignor of protocol proto
// would have to produce it, and returns every violation found, joined with
// [errors.Join] (nil if there is none). Each violation is a
// [*PartitionError] or [*MemberError] wrapping one of the ErrXxx sentinels
// of this package, so errors.Is and errors.As see through the join:
//   - a plan entry for a member not in the group ([ErrUnknownMember]), a
//     second entry for a member ([ErrDuplicateMember]), a member of the
//     group without an entry ([ErrMissingMember]), entries or partitions out
//     of order ([ErrUnsorted]);
//   - a partition assigned to more than one member ([ErrAssignedTwice],
//     naming both), to a member that does not subscribe to its topic
//     ([ErrNotSubscribed]), or outside the metadata ([ErrOutsideMetadata]) —
//     except, for [Cooperative], a partition given back to its valid owner,
//     which may lie outside the leader's metadata as long as it is not
//     negative and the owner still subscribes to its topic;
//   - for [Cooperative]: a claimed partition in the plan of a member that is
//     not its valid owner ([ErrNotOwner]), the KIP-429 safety rule;
//   - a subscribed partition left unassigned ([ErrUnassigned]); for
//     [Cooperative], only if no member claims it (claimed partitions may be
//     withheld for a follow-up rebalance).
//
// A partition listed by two members is checked against the other rules for
// the first of them only. If g itself cannot be indexed, CheckPlan returns
// [NewIndex]'s error.
//
// These are the same rules, in the same code, as the cooperative wrapper
// applies to the inner assignor's plan and to its own.
func CheckPlan(g Group, plan Plan, proto Protocol) error {
	ix, err := NewIndex(g)
	if err != nil {
		return err
	}
	r := ix.d.ReadPlan(true)
	for _, mp := range plan.Members {
		if m, ok := r.Entry(mp.Member); ok {
			for _, tp := range mp.Assigned {
				r.List(m, tp.Topic, tp.Partitions)
			}
		}
	}
	holder, back, vs := r.Finish()
	rules := dense.EagerPlan
	if proto == Cooperative {
		rules = dense.CooperativePlan
	}
	vs = append(vs, ix.d.Check(holder, back, rules)...)
	return violationErrors(ix.d, vs)
}
