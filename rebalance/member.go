package rebalance

import (
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

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
// (the members that revoke something still rejoin at once, as KIP-429 has
// them do), rather than rebalancing back to back for as long as the
// assignor keeps changing its mind.
const MaxFastRejoins = 3

// FastRejoinGuard decides, assignment by assignment, whether a member
// rejoins at once for the leader's fast re-join mark: for at most
// [MaxFastRejoins] marked assignments in a row. The zero value is ready to
// use. It is not safe for concurrent use: an adapter keeps one per member,
// under its own lock.
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

// SubscriptionMetadata returns a member's JoinGroup metadata for a, for
// clients that send raw bytes: a ConsumerProtocolSubscription v3 with the
// topics (sorted, distinct), the partitions the member owns (sorted,
// KAFKA-12898) and the generation in which it got them, the assignor's
// subscription user data ([assignor.SubscriptionUserDataAssignor], given
// the state; none without the hook) and the rack ("" is null). The same
// state always gives the same bytes: the broker compares them to decide
// whether a static member's rejoin changes anything. It fails only when the
// assignor's hook does; the caller then sends the metadata without user
// data (SubscriptionMetadata of a with no hook does that: see its error).
func SubscriptionMetadata(a assignor.Assignor, st assignor.MemberState, rack string) ([]byte, error) {
	topics := slices.Compact(slices.Sorted(slices.Values(st.Topics)))
	owned := assignor.NormalizeTopicPartitions(st.Owned)
	generation := max(st.Generation, assignor.NoGeneration)
	var userData []byte
	var err error
	if h, ok := a.(assignor.SubscriptionUserDataAssignor); ok {
		state := assignor.MemberState{Topics: slices.Clone(topics), Owned: assignor.CloneTopicPartitions(owned), Generation: generation}
		if userData, err = h.SubscriptionUserData(state); err != nil {
			userData = nil
		}
	}
	sub := wire.Subscription{Version: 3, Topics: topics, UserData: userData, Owned: owned, Generation: generation, Rack: rack}
	return sub.AppendTo(nil), err
}
