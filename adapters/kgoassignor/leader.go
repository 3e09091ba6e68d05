package kgoassignor

import (
	"fmt"
	"maps"
	"slices"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/rebalance"
)

// MemberBalancer reads every member's JoinGroup metadata and returns the
// balancer for this rebalance and the topics the members subscribe to, for
// which kgo then finds partition counts (from its own metadata, or a
// metadata request for topics it does not consume). kgo calls it on the
// leader only, with the members sorted by instance ID, then member ID. It
// never fails: one member's bytes never cost the group its rebalance. The
// balancer it returns also implements kgo.GroupMemberBalancerOrError (kgo
// calls BalanceOrError) and kgo.GroupMemberBalancerInfo.
//
// Each member is read by [rebalance.Round.AddMetadata] (any version, a v1
// cut short without owned partitions, a version above 3 as its v3 prefix,
// trailing bytes ignored; owned partitions stay in the metadata until the
// balance reads them). What it cannot read costs that member, and a
// warning:
//   - metadata that does not decode: the member is read as version 0 (its
//     topics only, as kgo retries a short v1 for franz-go issue #493) and
//     loses its owned partitions, generation, user data and rack; if even
//     its topics cannot be read it is assigned nothing;
//   - an empty member ID, or a member ID the response lists more than once
//     (kgo drops duplicates only for its own balancers): assigned nothing;
//   - an empty topic name in a subscription: that name is ignored.
//
// Claims that cannot be true (a generation at or above the one being
// balanced into) are dropped later, in the balance, once kgo has said which
// generation that is.
func (b *Balancer) MemberBalancer(members []kmsg.JoinGroupResponseMember) (kgo.GroupMemberBalancer, map[string]struct{}, error) {
	round := b.leader.NewRound()
	for i := range members {
		km := &members[i]
		instanceID := ""
		if km.InstanceID != nil {
			instanceID = *km.InstanceID
		}
		round.AddMetadata(km.MemberID, instanceID, km.ProtocolMetadata)
	}
	topics := make(map[string]struct{})
	for _, t := range round.Topics() {
		topics[t] = struct{}{}
	}
	return &memberBalancer{b: b, round: round}, topics, nil
}

// memberBalancer is one rebalance on the leader: the members as
// MemberBalancer read them, then what kgo tells balancers
// (SetBalanceInfo), then the balance.
type memberBalancer struct {
	b     *Balancer
	round *rebalance.Round
	info  kgo.BalanceInfo
}

// Compile-time proof of what kgo finds by type assertion.
var (
	_ kgo.GroupMemberBalancerOrError = (*memberBalancer)(nil)
	_ kgo.GroupMemberBalancerInfo    = (*memberBalancer)(nil)
)

// SetBalanceInfo keeps what kgo tells balancers before it balances: the
// generation being balanced into, and its cached topic and broker metadata
// (kgo requests no metadata for this; see the package doc).
func (mb *memberBalancer) SetBalanceInfo(info kgo.BalanceInfo) { mb.info = info }

// Balance is BalanceOrError without the error; kgo calls BalanceOrError
// instead. On failure it logs the error and returns nil, which kgo refuses
// with an error of its own.
func (mb *memberBalancer) Balance(topics map[string]int32) kgo.IntoSyncAssignment {
	into, err := mb.BalanceOrError(topics)
	if err != nil {
		mb.b.log.Error("balance failed", "error", err)
		return nil
	}
	return into
}

// BalanceOrError runs the assignor on the group ([rebalance.Round.Assign])
// and returns one assignment per distinct member ID of the JoinGroup
// response, sorted by member ID: ConsumerProtocolAssignment v3 (Java's
// version; every client reads any), the partitions sorted by topic, then
// partition, and the assignor's user data. The same plan always gives the
// same bytes, whatever the order of members, topics and maps on the way in
// (KIP-814; see the package doc).
//
// topics holds kgo's partition count for each topic it found; partitions
// are 0 to n-1. Replica racks are looked up only when some member has a
// rack. It fails only when the assignor does, with an error naming the
// protocol and the generation. Every assignment is encoded into one buffer
// sized up front.
func (mb *memberBalancer) BalanceOrError(topics map[string]int32) (kgo.IntoSyncAssignment, error) {
	b := mb.b
	gen := mb.info.Generation
	mb.addTopics(topics)
	res, err := mb.round.Assign(gen)
	if err != nil {
		return nil, fmt.Errorf("kgoassignor: %s: generation %d: %w", b.name, gen, err)
	}
	if res.Stats.FollowUp && res.Stats.ClaimsUnknown > 0 && gen > 0 {
		b.fast.followUp.Store(gen)
	}
	if b.cfg.OnRebalance != nil {
		b.cfg.OnRebalance(res.Stats)
	}
	return syncAssignments(res.Assignments), nil
}

// addTopics adds kgo's topics to the round, in name order; an empty name
// or a negative count is left out. Every topic's partition list is a prefix
// of one list 0..n-1, capacity clipped.
func (mb *memberBalancer) addTopics(counts map[string]int32) {
	racks := mb.rackSource()
	most := int32(0)
	for _, n := range counts {
		most = max(most, n)
	}
	ids := assignor.Partitions(most)
	for _, name := range slices.Sorted(maps.Keys(counts)) {
		n := counts[name]
		if n < 0 {
			continue
		}
		t := assignor.Topic{Name: name}
		if n > 0 {
			t.Partitions = ids[:n:n]
		}
		if racks != nil {
			t.ReplicaRacks = topicRacks(racks, name, n)
		}
		mb.round.AddTopic(t)
	}
}

// syncAssignments encodes the assignments for SyncGroup, in one buffer
// sized up front.
func syncAssignments(as []rebalance.Assignment) syncAssignment {
	size := 0
	for _, a := range as {
		size += a.Size()
	}
	buf := make([]byte, 0, size)
	out := make(syncAssignment, len(as))
	for i, a := range as {
		start := len(buf)
		buf = a.AppendTo(buf)
		out[i] = kmsg.NewSyncGroupRequestGroupAssignment()
		out[i].MemberID = a.Member
		out[i].MemberAssignment = buf[start:len(buf):len(buf)]
	}
	return out
}

// syncAssignment is the leader's answer for SyncGroup.
type syncAssignment []kmsg.SyncGroupRequestGroupAssignment

// IntoSyncAssignment returns the assignments, sorted by member ID.
func (s syncAssignment) IntoSyncAssignment() []kmsg.SyncGroupRequestGroupAssignment { return s }
