package groupsim

import (
	"fmt"
	"time"

	"github.com/kgroup/assignor/internal/member"
)

// failover moves the group's coordinator to another broker, which takes d
// to load the group: the JoinGroup and SyncGroup requests the coordinator
// holds are answered NOT_COORDINATOR now, and so is every request for d
// (a LeaveGroup sent meanwhile is lost); a FindCoordinator meanwhile is
// answered COORDINATOR_NOT_AVAILABLE. Then the new coordinator serves the
// group from the old one's state, with every member's session timer
// restarted, and a rebalance under way gets a new rebalance timeout, as
// Kafka's coordinator does for a group it loads.
//
// An approximation: Kafka's new coordinator loads the generation last
// persisted (that of the last SyncGroup) and forgets a rebalance under way;
// here the rebalance goes on once members rejoin. Either way every member
// that was joining or syncing joins again.
func (c *coordinator) failover(d time.Duration) {
	c.s.tracef("coordinator: failing over for %v", d)
	c.downUntil = max(c.downUntil, c.s.now+d)
	for _, id := range c.memberIDs() {
		m := c.members[id]
		if m.joining != nil {
			c.s.replyJoin(m.joining, joinAnswer{err: member.NotCoordinator})
			m.joining = nil
		}
		if m.syncing != nil {
			c.s.replySync(m.syncing, c.generation, member.NotCoordinator, assignment{})
			m.syncing = nil
		}
	}
	c.s.pending++ // the group cannot settle before the new coordinator serves it
	c.s.at(c.downUntil, func() {
		c.s.pending--
		if c.down() {
			return // a later failover extended the outage
		}
		c.s.tracef("coordinator: serving the group again")
		for _, id := range c.memberIDs() {
			c.touch(c.members[id])
		}
		if c.state == preparing {
			c.round++
			round := c.round
			c.s.at(c.s.now+c.s.cfg.RebalanceTimeout, func() { c.rebalanceTimeout(round) })
		}
	})
}

// down reports whether the coordinator is failing over.
func (c *coordinator) down() bool { return c.s.now < c.downUntil }

// find answers p's FindCoordinator.
func (c *coordinator) find(p *process) {
	code := member.None
	if c.down() {
		code = member.CoordinatorNotAvailable
	}
	c.s.reply(p, true, func() {
		if code != member.None {
			c.s.tracef("%s find coordinator: %v", p.id(), code)
		}
		p.step(member.FindCoordinatorResponse{Err: code})
	})
}

// Failover makes the group's coordinator fail over to another broker that
// needs d to load the group (see the package doc's failover command).
func (s *Sim) Failover(d time.Duration) error {
	defer s.observe()
	if d <= 0 {
		return fmt.Errorf("groupsim: failover needs a positive duration, got %v", d)
	}
	s.coord.failover(d)
	return nil
}
