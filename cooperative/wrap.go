package cooperative

import (
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// Config tunes a wrapper. Its zero value is the documented default; every
// field is optional.
type Config struct {
	// RevokeUnknown makes the leader revoke unknown-but-owned partitions (a
	// partition a member claims but the inner assignor did not assign) instead
	// of giving them back to their valid owner. Default false: give them back,
	// as KIP-429's design says (see the package doc, # Give-back, for when
	// that happens and why it is the default). Java has no such property: its
	// cooperative-sticky always revokes them (true here).
	RevokeUnknown bool
	// InnerUserData makes members send the inner assignor's own subscription
	// user data (its [assignor.SubscriptionUserDataAssignor] hook, or none if
	// it has no hook) instead of the cooperative-sticky user data, the claim
	// generation as a big-endian int32, which Java's, sarama's and franz-go's
	// cooperative-sticky members send. Default false. Java has no such
	// property.
	//
	// Below subscription v2 (sarama configured for Kafka 2.4–3.1, Java up to
	// 3.3) the claim generation travels only in this user data: this
	// module's leaders read it from the inner sticky layout too
	// ([wire.UserDataGeneration]); a Java leader takes its first four bytes
	// (sticky's topic count) as the generation, and sarama's drops it. The
	// sarama adapter's CheckConfig flags the combination.
	InnerUserData bool
}

// Wrap makes the eager assignor inner cooperative (KIP-429) with the default
// [Config]. See [WrapWithConfig].
func Wrap(inner assignor.Assignor) assignor.Assignor {
	return WrapWithConfig(inner, Config{})
}

// WrapWithConfig makes the assignor inner cooperative (KIP-429): on the
// leader, the returned assignor asks inner for its plan of the group and then
// withholds, for one rebalance, every partition that the plan moves away from
// the member that owns it, so that no partition is ever owned by two members
// at once. The package doc walks through one rebalance.
//
// The wrapper's name is "cooperative-" + inner.Name() (read once, here), so
// WrapWithConfig(sticky.New(), cfg) is "cooperative-sticky", the protocol
// name Java, sarama and franz-go members use. It declares
// [assignor.Cooperative] and then [assignor.Eager] (so a group can upgrade
// from eager members, KIP-429's two deploys), forwards inner's balanced and
// sticky declarations ([assignor.BalancedAssignor],
// [assignor.StickyAssignor]: they describe the settled plan, which is inner's
// own when inner is stable), implements
// [assignor.SubscriptionUserDataAssignor] (see [Config.InnerUserData]), and
// implements [assignor.AssignmentObserver], forwarding to inner, exactly when
// inner does.
//
// The wrapper keeps no state: it is safe for concurrent use, and may serve
// several members and groups, whenever inner is. A nil inner gives an
// assignor named "cooperative-" whose Assign returns [ErrNoInner].
func WrapWithConfig(inner assignor.Assignor, cfg Config) assignor.Assignor {
	w := &wrapper{inner: inner, cfg: cfg, name: "cooperative-"}
	if inner == nil {
		return w
	}
	w.name += inner.Name()
	if _, ok := inner.(assignor.AssignmentObserver); ok {
		return observingWrapper{w}
	}
	return w
}

// wrapper is the cooperative assignor around an inner assignor.
type wrapper struct {
	inner assignor.Assignor
	cfg   Config
	name  string
}

var (
	_ assignor.ProtocolAssignor             = (*wrapper)(nil)
	_ assignor.BalancedAssignor             = (*wrapper)(nil)
	_ assignor.StickyAssignor               = (*wrapper)(nil)
	_ assignor.SubscriptionUserDataAssignor = (*wrapper)(nil)
	_ assignor.IndexAssignor                = (*wrapper)(nil)
	_ assignor.FlatAssignor                 = (*wrapper)(nil)
	_ assignor.AssignmentObserver           = observingWrapper{}
)

// Name is "cooperative-" followed by the inner assignor's name.
func (w *wrapper) Name() string { return w.name }

// Protocols is [assignor.Cooperative], then [assignor.Eager].
func (w *wrapper) Protocols() []assignor.Protocol {
	return []assignor.Protocol{assignor.Cooperative, assignor.Eager}
}

// Balanced forwards the inner assignor's declaration.
func (w *wrapper) Balanced() bool { return w.inner != nil && assignor.IsBalanced(w.inner) }

// Sticky forwards the inner assignor's declaration.
func (w *wrapper) Sticky() bool { return w.inner != nil && assignor.IsSticky(w.inner) }

// SubscriptionUserData returns, by default, the cooperative-sticky user data:
// st.Generation as a big-endian int32 (4 bytes; -1 when the member has no
// generation), which is what Java's CooperativeStickyAssignor sends. With
// [Config.InnerUserData] it returns the inner assignor's subscription user
// data instead, or nil if the inner assignor has no such hook.
//
// An inner [GenerationCarrier] sends its own user data, which carries the
// generation in its own layout, whatever the Config says.
func (w *wrapper) SubscriptionUserData(st assignor.MemberState) ([]byte, error) {
	if w.cfg.InnerUserData || carriesGeneration(w.inner) {
		if h, ok := w.inner.(assignor.SubscriptionUserDataAssignor); ok {
			return h.SubscriptionUserData(st)
		}
		return nil, nil
	}
	return wire.CooperativeUserData(st.Generation), nil
}

// Assign computes the cooperative plan for one rebalance: the inner
// assignor's plan made safe. See [SplitWithConfig] for the three sets it
// works out on the way.
//
// The plan passes [assignor.CheckPlan] for [assignor.Cooperative]: a claimed
// partition is only in the plan of its valid owner; each member's Revoked is
// its claims (as sent, odd ones included) minus its Assigned; FollowUp is set
// when a partition was withheld. Assign returns an error instead of a plan
// when the group cannot be indexed ([assignor.NewIndex]'s error), or as an
// [*Error] when the inner assignor fails, its plan breaks the contract
// (assigns a partition twice, to a non-subscriber, outside the metadata, to
// a member not in the group, or leaves an unclaimed subscribed partition
// unassigned), or the final self-check finds any violation.
//
// The plan does not alias g; a member's Assigned may be the inner plan's
// own list, when this round changes nothing in it.
//
// Cost, beyond the inner assignor: one [assignor.NewIndex] and O(P + C + M +
// R log T) for P partitions, C claims, M members, T topics and R runs of one
// topic in one member's lists; no maps are used per partition.
func (w *wrapper) Assign(g assignor.Group) (assignor.Plan, error) {
	_, plan, err := w.split(g, false)
	return plan, err
}

// AssignIndex is Assign on the group ix describes (see
// [assignor.IndexAssignor]): an adapter that builds an [assignor.Index]
// from its client's metadata spares the group and the wrapper's own index.
// The inner assignor gets the index too when it can take it, and
// ix.Group() otherwise.
func (w *wrapper) AssignIndex(ix *assignor.Index) (assignor.Plan, error) {
	_, plan, err := w.splitIndex(ix, false)
	return plan, err
}

// AssignFlat is Assign on the group ix describes, answered in flat form
// (see [assignor.FlatAssignor]): each flat partition's holder after this
// round (a withheld partition has none), the valid claims outside the
// metadata given back to their owners, the inner assignor's user data, and
// FollowUp when a partition was withheld. The plan it stands for is
// Assign's, but for Revoked, which members derive.
func (w *wrapper) AssignFlat(ix *assignor.Index) (assignor.FlatPlan, error) {
	r, err := w.decide(ix, false)
	if err != nil {
		return assignor.FlatPlan{}, err
	}
	fp := r.flat()
	if !slices.Contains(fp.GivenBack, true) {
		fp.GivenBack = nil
	}
	if !slices.ContainsFunc(fp.UserData, func(b []byte) bool { return b != nil }) {
		fp.UserData = nil
	}
	return fp, nil
}

// observingWrapper is a wrapper whose inner assignor is an
// [assignor.AssignmentObserver].
type observingWrapper struct{ *wrapper }

// OnAssignment forwards to the inner assignor.
func (w observingWrapper) OnAssignment(assigned []assignor.TopicPartitions, userData []byte, generation int32) {
	w.inner.(assignor.AssignmentObserver).OnAssignment(assigned, userData, generation)
}
