package cooperative

import "github.com/kgroup/assignor"

// GenerationCarrier is an inner assignor whose subscription user data has a
// layout of its own that carries the claim generation: its
// SubscriptionUserData writes [assignor.MemberState.Generation] beside its
// own fields. Wrapped, such an assignor's user data is what members send,
// whatever [Config.InnerUserData] says, so that a member sends both the
// generation and the inner assignor's data (package weighted's assignor is
// one).
//
// A subscription v2 or later carries the generation itself; below v2 a
// leader reads it from the user data. This module's adapters read it with
// [wire.UserDataGeneration], so a carrier's layout must begin as eager
// sticky's does (an empty previous_assignment, then the generation), with
// its own fields appended. Such a layout is not cooperative-sticky's, so a
// carrier needs a protocol name of its own: the wrapper's name is
// "cooperative-" + the inner assignor's name, so the inner name must not be
// "sticky".
//
// CarriesGeneration returning false makes the wrapper treat the assignor
// as any other: the 4-byte cooperative-sticky user data by default.
type GenerationCarrier interface {
	assignor.SubscriptionUserDataAssignor
	CarriesGeneration() bool
}

// carriesGeneration reports whether inner is a [GenerationCarrier] that
// carries the generation.
func carriesGeneration(inner assignor.Assignor) bool {
	c, ok := inner.(GenerationCarrier)
	return ok && c.CarriesGeneration()
}
