package rebalance_test

import (
	"testing"

	"github.com/kgroup/assignor/rebalance"
)

// TestSlowUnreadableMemberLeaderChange: the member whose metadata the
// leader cannot read is slow (it misses the SyncGroup of every marked
// round, keeping what it held), and the leader changes. The new leader has
// no plan to read the member's claims from, so its first round withholds
// every partition no readable member claims (blind); the member misses
// that round's SyncGroup and still holds its partitions. The next round
// must not hand them to anyone else: the leader's memory of the blind
// round has to stand for what the member may still hold, as it does for
// what a round with a memory withheld from it (TestSlowUnreadableMember).
func TestSlowUnreadableMemberLeaderChange(t *testing.T) {
	for _, ca := range cooperativeAssignors {
		t.Run(ca.name, func(t *testing.T) {
			g := group(t, 4, ca.new, rebalance.Config{})
			g.members[2].truncated = true
			g.settleWithin("the group forms", 3)
			g.members[2].slow = true
			g.leave(0) // the leader; m1 leads now, without a memory
			g.settleWithin("the leader leaves", 4)
		})
	}
}
