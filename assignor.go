package assignor

import (
	"fmt"
	"slices"
)

// Assignor decides, on the group leader, which member owns which partition.
//
// Assign must be pure: no clock, no goroutines, no randomness and no state
// kept between calls. Its plan must be identical for any order of the
// group's members, topics and partitions; it must not mutate the group, and
// the plan must not alias it. It returns an error only for a group that
// cannot be assigned at all (see [NewIndex]); odd claims and unknown topics
// are never errors. The plan has one entry per member of the group.
//
// Optional abilities are separate interfaces found by type assertion:
// [ProtocolAssignor], [BalancedAssignor], [StickyAssignor],
// [FlatAssignor], [IndexAssignor], [SubscriptionUserDataAssignor] and
// [AssignmentObserver].
type Assignor interface {
	// Name is the protocol name members advertise in JoinGroup, such as
	// "roundrobin" or "cooperative-sticky".
	Name() string
	// Assign computes the plan for one rebalance.
	Assign(Group) (Plan, error)
}

// Protocol is a rebalance protocol of the classic consumer group.
type Protocol int8

const (
	// Eager: every member revokes everything before it rejoins.
	Eager Protocol = 0
	// Cooperative (KIP-429): members keep what they own across a rebalance and
	// revoke only what the plan takes away.
	Cooperative Protocol = 1
)

func (p Protocol) String() string {
	switch p {
	case Eager:
		return "eager"
	case Cooperative:
		return "cooperative"
	}
	return "protocol(" + itoa(int64(p)) + ")"
}

// ProtocolAssignor is an assignor that declares the rebalance protocols it
// supports, most preferred first. An assignor that does not implement it
// supports [Eager] only.
//
// An assignor that declares [Cooperative] promises the cooperative safety
// rule: a partition appears in member X's plan only if no member claims it,
// or X is its valid owner (see [Index]). Clients pick cooperative only when
// every assignor a member configures supports it.
type ProtocolAssignor interface {
	Assignor
	Protocols() []Protocol
}

// BalancedAssignor is an assignor that declares whether it is balanced: with
// identical subscriptions, no member is given more than one partition more
// than another. The conformance kit checks what is declared.
type BalancedAssignor interface {
	Assignor
	Balanced() bool
}

// StickyAssignor is an assignor that declares whether it is sticky: when
// valid ownership is complete and balanced the plan keeps it unchanged, and
// after one member joins or leaves (identical subscriptions) it moves no more
// partitions than balance requires. The conformance kit checks what is
// declared.
type StickyAssignor interface {
	Assignor
	Sticky() bool
}

// IndexAssignor is an assignor that can assign from an [Index] built
// elsewhere: by an adapter, from its client's decoded metadata, with an
// [IndexBuilder], sparing the [Group] in between. AssignIndex(ix) must
// return exactly what Assign(ix.Group()) returns; it must not keep ix. An
// adapter that has an Index and an assignor without this ability (nor
// [FlatAssignor]) calls Assign(ix.Group()).
type IndexAssignor interface {
	Assignor
	AssignIndex(ix *Index) (Plan, error)
}

// FlatAssignor is an assignor that answers on an [Index] in flat form
// ([FlatPlan]: one holder per flat partition), which callers that work in
// flat form themselves (the cooperative wrapper, the adapters' leader, see
// package rebalance) take without the plan's lists in between. The
// assignors of this module are FlatAssignors; the package Example writes
// one.
//
// AssignFlat(ix) must stand for the plan Assign(ix.Group()) returns: that
// plan is [Index.PlanOf] of the answer, but for each member's Revoked, which
// PlanOf leaves empty (members derive it; only Assign lists it). It must not
// modify ix or keep it; the caller takes the FlatPlan's slices over. It fails
// as Assign does.
type FlatAssignor interface {
	Assignor
	AssignFlat(ix *Index) (FlatPlan, error)
}

// MemberState is what a member knows of itself when it joins: what it
// subscribes to, what it owns and the generation in which it got it.
type MemberState struct {
	Topics     []string
	Owned      []TopicPartitions
	Generation int32
}

// SubscriptionUserDataAssignor is an assignor with a member-side hook: it
// supplies the user data each member puts in its subscription.
//
// Unlike Assign, it runs on every member, before each JoinGroup. An
// implementation may keep per-member state (then one instance serves one
// member); the assignors in this module keep none and derive the user data
// from the MemberState alone.
type SubscriptionUserDataAssignor interface {
	Assignor
	SubscriptionUserData(MemberState) ([]byte, error)
}

// AssignmentObserver is an assignor with a member-side hook that sees the
// member's own assignment (its partitions, the assignment user data, and the
// generation) after each SyncGroup.
//
// It runs on every member and may keep per-member state (then one instance
// serves one member). When it runs relative to the revocation of partitions
// depends on the client; each adapter documents it.
type AssignmentObserver interface {
	Assignor
	OnAssignment(assigned []TopicPartitions, userData []byte, generation int32)
}

// AssignIndex runs a on the group ix describes through the fastest path a
// offers for a whole plan: [IndexAssignor], else [FlatAssignor] (the plan is
// [Index.PlanOf] of its answer), else Assign(ix.Group()). Every path gives
// the same plan (a flat answer's Revoked aside). An answer in flat form
// that does not fit ix is an error, never a panic.
func AssignIndex(a Assignor, ix *Index) (Plan, error) {
	switch a := a.(type) {
	case IndexAssignor:
		return a.AssignIndex(ix)
	case FlatAssignor:
		fp, err := a.AssignFlat(ix)
		if err != nil {
			return Plan{}, err
		}
		if err := ix.Fits(fp); err != nil {
			return Plan{}, fmt.Errorf("%s: %w", a.Name(), err)
		}
		return ix.PlanOf(fp), nil
	}
	return a.Assign(ix.Group())
}

// Protocols returns the protocols a declares, [Eager] if it declares none.
// The result is a copy.
func Protocols(a Assignor) []Protocol {
	if pa, ok := a.(ProtocolAssignor); ok {
		if ps := pa.Protocols(); len(ps) > 0 {
			return slices.Clone(ps)
		}
	}
	return []Protocol{Eager}
}

// Supports reports whether a declares protocol p.
func Supports(a Assignor, p Protocol) bool { return slices.Contains(Protocols(a), p) }

// IsBalanced reports whether a declares itself balanced.
func IsBalanced(a Assignor) bool {
	b, ok := a.(BalancedAssignor)
	return ok && b.Balanced()
}

// IsSticky reports whether a declares itself sticky.
func IsSticky(a Assignor) bool {
	s, ok := a.(StickyAssignor)
	return ok && s.Sticky()
}
