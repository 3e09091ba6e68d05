package cooperative

import (
	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// MarksRejoin reports whether a leader running a marks every assignment of
// plan for fast re-join (the KIP-429 design's NEEDS_REJOIN, step 2.6): plan
// withholds partitions (FollowUp), a declares [assignor.Cooperative], and a
// builds its members' subscription user data itself
// ([assignor.SubscriptionUserDataAssignor]; every [Wrap] does).
//
// The mark goes in the assignment's user data, the one place the released
// protocol leaves for it, and so never into an eager plan: sarama decodes
// assignments strictly, and for a strategy without a subscription user data
// hook (its sticky, range and roundrobin, and adapters of assignors without
// one) it copies the assignment's user data into the member's next
// subscription, where a leader would read the mark as the assignor's own.
// The same holds for a cooperative assignor without the hook, hence the
// third condition.
//
// The answer depends on a and plan alone, so the same plan always gives the
// same bytes (kgo compares the assignment a restarted static leader
// recomputes with the broker's copy, KIP-814). The mark changes only when
// members rejoin, never what they are assigned: the safety rule is the
// plan's.
func MarksRejoin(a assignor.Assignor, plan assignor.Plan) bool {
	if !plan.FollowUp || a == nil {
		return false
	}
	_, hook := a.(assignor.SubscriptionUserDataAssignor)
	return hook && assignor.Supports(a, assignor.Cooperative)
}

// AssignmentUserData returns the user data of member mp's assignment in
// plan, as a leader running a sends it: mp.UserData, the assignor's own,
// inside a [wire.RejoinEnvelope] marked for fast re-join when
// [MarksRejoin](a, plan) and mark are both true, else as it is (framed only
// in the unlikely case that it begins with the envelope's magic, so that a
// member reads it back unchanged). mark is the adapter's switch (false
// when the user turned fast re-join off). A member strips the envelope with
// [wire.DecodeRejoinEnvelope] before the assignor's own hook sees the user
// data. The result never aliases mp.UserData; nil stays nil.
func AssignmentUserData(a assignor.Assignor, plan assignor.Plan, mp assignor.MemberPlan, mark bool) []byte {
	return wire.RejoinEnvelope{Rejoin: mark && MarksRejoin(a, plan), UserData: mp.UserData}.AppendTo(nil)
}
