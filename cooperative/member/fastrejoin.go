package member

// MaxFastRejoins is how many consecutive assignments carrying the leader's
// fast re-join mark a member rejoins for at once; from the next one on it
// waits for its heartbeat, until an unmarked assignment resets the count.
//
// A stable inner assignor withholds in one round per event and hands
// everything over in the next, so a group sees one marked round per event;
// three let two more events overlap it (the next member of a rolling
// restart arriving during the follow-up round) before the guard steps in.
// An unstable inner assignor may withhold in every round; the guard bounds
// its fast rounds to three, after which the group goes on at heartbeat pace
// (the members that revoke something still rejoin at once, as KIP-429
// has them do), rather than rebalancing back to back for as long as the
// assignor keeps changing its mind.
const MaxFastRejoins = 3

// FastRejoinGuard decides, assignment by assignment, whether a member
// rejoins at once for the leader's fast re-join mark: for at most
// [MaxFastRejoins] marked assignments in a row. The zero value is ready to
// use. It is not safe for concurrent use. A [Machine] keeps one; an
// adapter that runs its client's own member lifecycle keeps one per member.
type FastRejoinGuard struct{ streak int }

// Honour records one successful assignment, marked or not, and reports
// whether the member should rejoin at once for its mark: false for an
// unmarked assignment (which resets the count) and for a marked one past
// the limit.
//
//	marked:  yes  yes  yes  yes  no   yes
//	honour:  yes  yes  yes  no   no   yes
func (g *FastRejoinGuard) Honour(marked bool) bool {
	if !marked {
		g.streak = 0
		return false
	}
	if g.streak <= MaxFastRejoins {
		g.streak++
	}
	return g.streak <= MaxFastRejoins
}
