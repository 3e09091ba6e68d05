package franzgo

import "github.com/kgroup/assignor"

// The assignment user data: one function decides the bytes on the leader,
// one reads them back on the member.
//
// Today both pass the assignor's own user data through unchanged. They are
// the seam for fast re-join (KIP-429's design, step 2.6: the leader marks
// every member's assignment when a plan withholds partitions, so that
// members running this adapter rejoin at once): that envelope goes inside
// these bytes, only under cooperative protocol names, and is stripped again
// before the assignor's OnAssignment sees them. Both must stay pure
// functions of their input: kgo compares the assignment bytes a restarted
// static leader recomputes with the broker's copy (KIP-814), so the same
// plan must always give the same bytes.

// assignmentUserData returns the user data of member mp's assignment in
// plan: mp.UserData, the assignor's own. (plan.FollowUp will decide the
// fast re-join mark.)
func assignmentUserData(plan assignor.Plan, mp assignor.MemberPlan) []byte {
	return mp.UserData
}

// memberUserData returns, from the user data of a member's own assignment,
// the part the assignor's OnAssignment sees: all of it.
func memberUserData(userData []byte) []byte {
	return userData
}
