package e2e

import (
	"fmt"
	"slices"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor/adapters/kgoassignor"
	"github.com/kgroup/assignor/wire"
)

// TruncatedKgo is a franz-go member running this module's
// cooperative-sticky (kgoassignor.CooperativeSticky) whose JoinGroup
// metadata is cut short right after its user data, its version still 3:
// no leader can read what it owns (a test kind: an honest client cannot
// send that). As a leader it is ours, unchanged. Its balancer is not bound
// to its client (the adapter binds only to a client whose kgo.Balancers
// list the adapter's own Balancer, not a wrapper): as a member it rejoins
// for a second round when its heartbeat says so, not at once for the fast
// re-join mark, and as a leader it cannot make its own client rejoin.
var TruncatedKgo = Kind{Name: "ours-kgo-truncated", Kgo: func() []kgo.GroupBalancer {
	return []kgo.GroupBalancer{truncating{kgoassignor.CooperativeSticky()}}
}}

// truncating is a balancer whose JoinGroup metadata ends after its user
// data; everything else is the adapter's balancer b, but for the client
// hooks, which it leaves out (see TruncatedKgo).
type truncating struct{ b *kgoassignor.Balancer }

func (t truncating) ProtocolName() string { return t.b.ProtocolName() }
func (t truncating) IsCooperative() bool  { return t.b.IsCooperative() }

func (t truncating) MemberBalancer(members []kmsg.JoinGroupResponseMember) (kgo.GroupMemberBalancer, map[string]struct{}, error) {
	return t.b.MemberBalancer(members)
}

func (t truncating) ParseSyncAssignment(assignment []byte) (map[string][]int32, error) {
	return t.b.ParseSyncAssignment(assignment)
}

// JoinGroupMetadata returns the adapter's subscription (v3) without its
// owned partitions, generation and rack: a version-0 encoding of its
// topics and user data, the version field saying 3.
func (t truncating) JoinGroupMetadata(topics []string, current map[string][]int32, generation int32) []byte {
	full := t.b.JoinGroupMetadata(topics, current, generation)
	s, err := wire.DecodeSubscription(full)
	if err != nil { // unreachable: the adapter encodes what wire decodes
		panic(fmt.Sprintf("e2e: the adapter's own metadata does not decode: %v", err))
	}
	cut := wire.Subscription{Topics: s.Topics, UserData: s.UserData}.AppendTo(nil)
	cut[0], cut[1] = 0, 3
	return cut
}

// TruncatedMember is a franz-go group of three members of kind k (one of
// ours on franz-go) and, in the window, a [TruncatedKgo] member that joins,
// then a member of kind k that joins, one that leaves, and the leader that
// leaves (the next leader has no memory of the truncated member's
// partitions, so its first plan withholds every partition no readable
// member claims, and it rejoins at once for the second round). The group
// must settle after each event.
var TruncatedMember = Script{Name: "truncated-member", Run: truncatedMember}

func truncatedMember(h *Harness, k Kind) error {
	if k.Kgo == nil {
		return fmt.Errorf("e2e: truncated-member: %s is not a franz-go kind", k.Name)
	}
	ms, err := startAll(h, k, 3, false)
	if err != nil {
		return err
	}
	h.MarkStart()
	if _, err := join(h, TruncatedKgo, 3, 0, ""); err != nil {
		return err
	}
	m, err := join(h, k, 4, 0, "")
	if err != nil {
		return err
	}
	ms = append(ms, m)
	// A member that does not lead leaves.
	leader := h.currentLeader()
	i := slices.IndexFunc(ms, func(m *Member) bool { return m.Name != leader })
	h.Leave(ms[i])
	if err := h.stable(); err != nil {
		return err
	}
	// The leader leaves.
	leader = h.currentLeader()
	live := h.Live()
	lm := slices.IndexFunc(live, func(m *Member) bool { return m.Name == leader })
	if lm < 0 {
		return fmt.Errorf("e2e: truncated-member: leader %q is not a live member", leader)
	}
	h.logf("the leader %s leaves", leader)
	h.Leave(live[lm])
	if err := h.stable(); err != nil {
		return err
	}
	h.MarkEnd()
	return nil
}
