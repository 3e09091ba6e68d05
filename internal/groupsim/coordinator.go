package groupsim

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/member"
)

type groupState uint8

const (
	empty groupState = iota
	preparing
	completing
	stable
)

func (g groupState) String() string {
	return [...]string{"Empty", "PreparingRebalance", "CompletingRebalance", "Stable"}[g]
}

// subscription is one protocol's metadata in a JoinGroup: the consumer
// protocol's subscription.
type subscription struct {
	topics   []string
	owned    []assignor.TopicPartitions
	gen      int32
	userData []byte
}

type protocolMeta struct {
	name string
	sub  subscription
}

type joinRequest struct {
	from      *process
	memberID  string
	instance  string
	protocols []protocolMeta
}

type joinAnswer struct {
	err      member.ErrorCode
	memberID string
	gen      int32
	protocol string
	leader   string
	skip     bool                // KIP-814: a rejoining static leader must not assign
	members  map[string]*cmember // for the leader only: the members' metadata
}

type syncRequest struct {
	from        *process
	memberID    string
	instance    string
	gen         int32
	assignments map[string]assignment // from the leader; nil otherwise
}

type assignment struct {
	partitions []assignor.TopicPartitions
	userData   []byte
}

// cmember is the coordinator's record of one member.
type cmember struct {
	id        string
	instance  string
	proc      *process
	protocols []protocolMeta
	order     uint64        // when it first joined: the leader is the oldest
	lastSeen  time.Duration // when the coordinator last heard from it
	joining   *process
	syncing   *process
	assigned  assignment
}

// coordinator is the classic group coordinator: Empty, PreparingRebalance
// (waits for every known member to rejoin, up to the rebalance timeout),
// CompletingRebalance (waits for the leader's SyncGroup) and Stable.
type coordinator struct {
	s          *Sim
	state      groupState
	generation int32
	protocol   string
	leader     string
	members    map[string]*cmember
	instances  map[string]string // static instance ID → member ID
	pending    map[string]bool   // IDs handed out with MEMBER_ID_REQUIRED
	round      int
	nextID     int
	nextOrder  uint64
	downUntil  time.Duration // failing over until then (see failover)
}

func newCoordinator(s *Sim) *coordinator {
	return &coordinator{s: s, members: map[string]*cmember{}, instances: map[string]string{}, pending: map[string]bool{}}
}

func (c *coordinator) memberIDs() []string { return slices.Sorted(maps.Keys(c.members)) }

func (c *coordinator) newMemberID(name string) string {
	c.nextID++
	return fmt.Sprintf("%s-%d", name, c.nextID)
}

// fencedOrUnknown is the error for a request from a member ID the group does
// not know: FENCED_INSTANCE_ID if its static instance now has another ID.
func (c *coordinator) fencedOrUnknown(id, instance string) member.ErrorCode {
	if other, ok := c.instances[instance]; ok && instance != "" && other != id {
		return member.FencedInstanceID
	}
	return member.UnknownMemberID
}

func (c *coordinator) touch(m *cmember) {
	m.lastSeen = c.s.now
	c.s.at(c.s.now+c.s.cfg.SessionTimeout, func() { c.checkSession(m) })
}

// checkSession removes m if it has not been heard from for a session timeout
// and is not waiting for a JoinGroup or SyncGroup answer.
func (c *coordinator) checkSession(m *cmember) {
	if c.down() || c.members[m.id] != m || m.joining != nil || m.syncing != nil {
		return
	}
	if c.s.now-m.lastSeen < c.s.cfg.SessionTimeout {
		return
	}
	c.s.tracef("coordinator: session of %s expired", m.id)
	c.s.acct.evictions++
	c.remove(m)
}

// supports reports whether the group (without except) can accept a member
// with these protocols: they share a protocol with every other member.
func (c *coordinator) supports(protocols []protocolMeta, except string) bool {
	if len(c.members) == 0 || (len(c.members) == 1 && c.members[except] != nil) {
		return true
	}
	for _, p := range protocols {
		ok := true
		for id, m := range c.members {
			if id != except && !slices.ContainsFunc(m.protocols, func(q protocolMeta) bool { return q.name == p.name }) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func (c *coordinator) join(req joinRequest) {
	if c.down() {
		c.s.replyJoin(req.from, joinAnswer{err: member.NotCoordinator})
		return
	}
	if req.memberID == "" && req.instance != "" {
		if old, ok := c.instances[req.instance]; ok {
			// The instance replaces its old member, whose protocols do not
			// count against it.
			if !c.supports(req.protocols, old) {
				c.s.replyJoin(req.from, joinAnswer{err: member.InconsistentGroupProtocol})
				return
			}
			c.replaceStatic(c.members[old], req)
			return
		}
	}
	if !c.supports(req.protocols, req.memberID) {
		c.s.replyJoin(req.from, joinAnswer{err: member.InconsistentGroupProtocol})
		return
	}
	if req.memberID == "" {
		id := c.newMemberID(req.from.name)
		if req.instance == "" {
			c.pending[id] = true
			c.s.replyJoin(req.from, joinAnswer{err: member.MemberIDRequired, memberID: id})
			return
		}
		c.instances[req.instance] = id
		c.add(id, req)
		return
	}
	m, ok := c.members[req.memberID]
	if !ok {
		if c.pending[req.memberID] {
			delete(c.pending, req.memberID)
			c.add(req.memberID, req)
			return
		}
		c.s.replyJoin(req.from, joinAnswer{err: c.fencedOrUnknown(req.memberID, req.instance)})
		return
	}
	changed := !sameProtocols(m.protocols, req.protocols)
	m.protocols, m.proc = req.protocols, req.from
	c.touch(m)
	if c.state == stable && !changed && m.id != c.leader {
		// Kafka: a follower rejoining a stable group with unchanged metadata
		// gets the current generation back; no rebalance.
		c.s.replyJoin(req.from, c.answer(m, false))
		return
	}
	m.joining = req.from
	c.rebalance("member " + m.id + " rejoined")
}

func (c *coordinator) add(id string, req joinRequest) {
	c.nextOrder++
	m := &cmember{id: id, instance: req.instance, proc: req.from, protocols: req.protocols, order: c.nextOrder, joining: req.from}
	c.members[id] = m
	c.touch(m)
	c.rebalance("member " + id + " joined")
}

// replaceStatic handles a static instance that rejoins without a member ID
// (a restart): it gets a new ID, the old one is fenced, and a stable group
// does not rebalance if its protocol stays selectable (KIP-345, KIP-814).
//
// Deviation: Kafka's coordinator checks only the protocol, and Java's member
// rejoins only if the assignment it gets back names a topic it no longer
// subscribes to, so a subscription that grew across the restart would go
// unassigned. The simulator rebalances when the subscribed topics changed.
func (c *coordinator) replaceStatic(m *cmember, req joinRequest) {
	old := m.id
	delete(c.members, old)
	m.id = c.newMemberID(req.from.name)
	c.members[m.id] = m
	c.instances[m.instance] = m.id
	if c.leader == old {
		c.leader = m.id
	}
	if m.joining != nil && m.joining != req.from {
		c.s.replyJoin(m.joining, joinAnswer{err: member.FencedInstanceID})
		m.joining = nil
	}
	if m.syncing != nil && m.syncing != req.from {
		c.s.replySync(m.syncing, c.generation, member.FencedInstanceID, assignment{})
		m.syncing = nil
	}
	sameTopics := sameSubscriptions(m.protocols, req.protocols)
	m.protocols, m.proc = req.protocols, req.from
	c.touch(m)
	c.s.tracef("coordinator: static instance %s replaced %s with %s", m.instance, old, m.id)
	if c.state == stable && sameTopics && slices.ContainsFunc(req.protocols, func(p protocolMeta) bool { return p.name == c.protocol }) {
		c.s.replyJoin(req.from, c.answer(m, m.id == c.leader))
		return
	}
	m.joining = req.from
	c.rebalance("static member " + m.id + " rejoined")
}

// answer is the JoinGroup answer for m in the current generation.
func (c *coordinator) answer(m *cmember, skip bool) joinAnswer {
	a := joinAnswer{memberID: m.id, gen: c.generation, protocol: c.protocol, leader: c.leader, skip: skip}
	if m.id == c.leader {
		a.members = maps.Clone(c.members)
	}
	return a
}

// rebalance moves the group to PreparingRebalance (if it is not there) and
// completes the join phase if every member has rejoined.
func (c *coordinator) rebalance(reason string) {
	if c.state != preparing {
		c.s.tracef("coordinator: preparing rebalance: %s", reason)
		c.state = preparing
		c.round++
		round := c.round
		for _, id := range c.memberIDs() {
			if m := c.members[id]; m.syncing != nil {
				c.s.replySync(m.syncing, c.generation, member.RebalanceInProgress, assignment{})
				m.syncing = nil
			}
		}
		c.s.at(c.s.now+c.s.cfg.RebalanceTimeout, func() { c.rebalanceTimeout(round) })
	}
	c.maybeCompleteJoin()
}

func (c *coordinator) rebalanceTimeout(round int) {
	if c.down() || c.round != round || c.state != preparing {
		return
	}
	for _, id := range c.memberIDs() {
		if m := c.members[id]; m.joining == nil {
			c.s.tracef("coordinator: %s did not rejoin within the rebalance timeout", id)
			c.s.acct.evictions++
			delete(c.members, id)
			if c.instances[m.instance] == id {
				delete(c.instances, m.instance)
			}
		}
	}
	c.maybeCompleteJoin()
}

func (c *coordinator) maybeCompleteJoin() {
	if c.state != preparing {
		return
	}
	for _, m := range c.members {
		if m.joining == nil {
			return
		}
	}
	c.generation++
	if len(c.members) == 0 {
		c.state, c.protocol, c.leader = empty, "", ""
		return
	}
	c.protocol = c.selectProtocol()
	if c.members[c.leader] == nil {
		ids := c.memberIDs()
		c.leader = slices.MinFunc(ids, func(a, b string) int { return cmp.Compare(c.members[a].order, c.members[b].order) })
	}
	c.state = completing
	c.s.acct.rebalances++
	c.s.tracef("coordinator: generation %d: %d members, protocol %s, leader %s", c.generation, len(c.members), c.protocol, c.leader)
	for _, id := range c.memberIDs() {
		m := c.members[id]
		to := m.joining
		m.joining = nil
		m.assigned = assignment{}
		c.touch(m)
		c.s.replyJoin(to, c.answer(m, false))
	}
}

// selectProtocol is Kafka's vote: among the protocols every member supports,
// each member votes for the first in its own preference order; the most
// votes win, ties going to the name that sorts first.
func (c *coordinator) selectProtocol() string {
	votes := map[string]int{}
	for _, m := range c.members {
		for _, p := range m.protocols {
			if c.allSupport(p.name) {
				votes[p.name]++
				break
			}
		}
	}
	best := ""
	for _, name := range slices.Sorted(maps.Keys(votes)) {
		if best == "" || votes[name] > votes[best] {
			best = name
		}
	}
	return best
}

func (c *coordinator) allSupport(name string) bool {
	for _, m := range c.members {
		if !slices.ContainsFunc(m.protocols, func(p protocolMeta) bool { return p.name == name }) {
			return false
		}
	}
	return true
}

func (c *coordinator) sync(req syncRequest) {
	m, ok := c.members[req.memberID]
	switch {
	case c.down():
		c.s.replySync(req.from, req.gen, member.NotCoordinator, assignment{})
		return
	case !ok:
		c.s.replySync(req.from, req.gen, c.fencedOrUnknown(req.memberID, req.instance), assignment{})
		return
	case req.gen != c.generation:
		c.s.replySync(req.from, req.gen, member.IllegalGeneration, assignment{})
		return
	}
	c.touch(m)
	switch c.state {
	case preparing:
		c.s.replySync(req.from, req.gen, member.RebalanceInProgress, assignment{})
	case stable:
		c.s.replySync(req.from, req.gen, member.None, m.assigned)
	case completing:
		m.syncing = req.from
		if m.id != c.leader || req.assignments == nil {
			return
		}
		c.state = stable
		for _, id := range c.memberIDs() {
			mm := c.members[id]
			mm.assigned = req.assignments[id]
			if mm.syncing != nil {
				c.s.replySync(mm.syncing, c.generation, member.None, mm.assigned)
				mm.syncing = nil
			}
		}
	}
}

func (c *coordinator) heartbeat(from *process, id, instance string, gen int32) {
	m, ok := c.members[id]
	switch {
	case c.down():
		c.s.replyHeartbeat(from, gen, member.NotCoordinator)
		return
	case !ok:
		c.s.replyHeartbeat(from, gen, c.fencedOrUnknown(id, instance))
		return
	case gen != c.generation:
		c.s.replyHeartbeat(from, gen, member.IllegalGeneration)
		return
	}
	c.touch(m)
	code := member.None
	if c.state == preparing {
		code = member.RebalanceInProgress
	}
	c.s.replyHeartbeat(from, gen, code)
}

func (c *coordinator) leave(id string) {
	if m, ok := c.members[id]; ok && !c.down() {
		c.s.tracef("coordinator: %s left", id)
		c.remove(m)
	}
}

func (c *coordinator) remove(m *cmember) {
	delete(c.members, m.id)
	if c.instances[m.instance] == m.id {
		delete(c.instances, m.instance)
	}
	if c.state == empty {
		return
	}
	c.rebalance("member " + m.id + " removed")
}

func sameProtocols(a, b []protocolMeta) bool {
	return slices.EqualFunc(a, b, func(x, y protocolMeta) bool {
		return x.name == y.name && x.sub.gen == y.sub.gen && slices.Equal(x.sub.topics, y.sub.topics) &&
			assignor.FormatTopicPartitions(x.sub.owned) == assignor.FormatTopicPartitions(y.sub.owned) &&
			string(x.sub.userData) == string(y.sub.userData)
	})
}

// sameSubscriptions reports whether a and b list the same protocols with the
// same subscribed topics (claims and user data aside).
func sameSubscriptions(a, b []protocolMeta) bool {
	return slices.EqualFunc(a, b, func(x, y protocolMeta) bool {
		return x.name == y.name && slices.Equal(slices.Sorted(slices.Values(x.sub.topics)), slices.Sorted(slices.Values(y.sub.topics)))
	})
}
