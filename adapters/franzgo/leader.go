package franzgo

import (
	"fmt"
	"maps"
	"slices"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// memberBalancer is one rebalance on the leader: the members as
// MemberBalancer decoded them, then what kgo tells balancers
// (SetBalanceInfo), then the balance.
type memberBalancer struct {
	b        *Balancer
	members  []assignor.Member       // the members the assignor sees, sorted by ID
	claims   []wire.SubscriptionView // members[i]'s owned partitions, still encoded; nil once in members' Owned
	excluded []assignor.Member       // members assigned nothing whose claims could be read
	ids      []string                // every distinct non-empty member ID, sorted: one assignment each
	info     kgo.BalanceInfo
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
		mb.b.logf("%v", err)
		return nil
	}
	return into
}

// BalanceOrError runs the assignor on the group and returns one assignment
// per distinct member ID of the JoinGroup response, sorted by member ID:
// ConsumerProtocolAssignment v3 (Java's version; every client reads any),
// the partitions sorted by topic, then partition, and the assignor's user
// data. The same plan always gives the same bytes, whatever the order of
// members, topics and maps on the way in (KIP-814; see the package doc).
//
// topics holds kgo's partition count for each topic it found; partitions
// are 0 to n-1. Replica racks are looked up only when some member has a
// rack. It fails only when the assignor does, with an error naming the
// protocol and the generation.
//
// An assignor that is an [assignor.IndexAssignor] (this module's sticky,
// cooperative and weighted assignors are) is handed the decoded members as
// an [assignor.Index], with no [assignor.Group] in between; any other
// assignor gets the Group. Every assignment is encoded into one buffer
// sized up front, in a few allocations whatever the group's size.
func (mb *memberBalancer) BalanceOrError(topics map[string]int32) (kgo.IntoSyncAssignment, error) {
	b := mb.b
	gen := mb.info.Generation
	b.dropImpossibleClaims(mb.members, mb.claims, gen)
	b.dropImpossibleClaims(mb.excluded, nil, gen)
	plan, err := mb.assign(mb.topics(topics))
	if err != nil {
		return nil, fmt.Errorf("franzgo: %s: generation %d: %w", b.name, gen, err)
	}
	if b.cooperative && len(mb.excluded) > 0 {
		mb.materialize()
		plan = b.withhold(plan, mb.members, mb.excluded)
	}
	return b.syncAssignments(plan, mb.ids), nil
}

// assign runs the assignor on the members and topics: straight from an
// [assignor.Index] built over the decoded members when the assignor is an
// [assignor.IndexAssignor], else on the [assignor.Group]. A group the index
// refuses goes to the assignor as a Group too, so that the error is the
// assignor's own.
func (mb *memberBalancer) assign(topics []assignor.Topic) (assignor.Plan, error) {
	switch mb.b.a.(type) {
	case assignor.FlatAssignor, assignor.IndexAssignor:
	default:
		mb.materialize()
		return mb.b.a.Assign(assignor.Group{Members: mb.members, Topics: topics})
	}
	ix, err := mb.index(topics)
	if err != nil {
		mb.materialize()
		return mb.b.a.Assign(assignor.Group{Members: mb.members, Topics: topics})
	}
	return assignor.AssignIndex(mb.b.a, ix)
}

// materialize decodes the members' owned partitions into their Owned, for
// what needs them as lists (an assignor given a Group, the withholding of
// excluded members' claims). Idempotent.
func (mb *memberBalancer) materialize() {
	for i := range mb.claims {
		mb.members[i].Owned = mb.claims[i].Materialize().Owned
	}
	mb.claims = nil
}

// index builds the [assignor.Index] of the group, sized up front: the
// topics, then every member with its claims, read from its metadata into
// one array shared by all members (each its own part) when they are still
// encoded. It aliases the members' and topics' slices, which nothing
// changes while the balance runs.
func (mb *memberBalancer) index(topics []assignor.Topic) (*assignor.Index, error) {
	var ib assignor.IndexBuilder
	claims := 0
	for i := range mb.members {
		claims += countPartitions(mb.members[i].Owned)
	}
	for i := range mb.claims {
		claims += mb.claims[i].OwnedCount()
	}
	ib.Grow(len(topics), len(mb.members), claims)
	for _, t := range topics {
		ib.AddTopic(t)
	}
	var parts []int32
	if mb.claims != nil {
		parts = make([]int32, claims)
	}
	for i, m := range mb.members {
		if mb.claims == nil {
			ib.AddMember(m, nil) // nil: m.Owned
			continue
		}
		n := mb.claims[i].OwnedCount()
		ib.AddMember(m, mb.claims[i].OwnedPartitions(parts[:n:n]))
		parts = parts[n:]
	}
	return ib.Build()
}

// dropImpossibleClaims clears the history of every member that claims a
// generation at or above gen, the generation being balanced into: no member
// can have been given anything in it yet, so the claim is false, and
// trusting it would let a member outrank every true owner (KIP-792). Such a
// member keeps its topics and loses its owned partitions, generation and
// user data. Nothing is dropped when gen is unknown (0 or less: kgo did not
// call SetBalanceInfo). claims, when not nil, holds ms[i]'s still encoded
// owned partitions, which count and are dropped too. Idempotent; it edits
// ms and claims in place.
func (b *Balancer) dropImpossibleClaims(ms []assignor.Member, claims []wire.SubscriptionView, gen int32) {
	if gen <= 0 {
		return
	}
	for i := range ms {
		m := &ms[i]
		if m.Generation < gen {
			continue
		}
		n := countPartitions(m.Owned)
		if claims != nil {
			n += claims[i].OwnedCount()
			claims[i] = wire.SubscriptionView{}
		}
		b.logf("franzgo: %s: member %q claims %d partitions at generation %d, not below generation %d being balanced into; its claims and user data are ignored",
			b.name, m.ID, n, m.Generation, gen)
		m.Owned, m.Generation, m.UserData = nil, assignor.NoGeneration, nil
	}
}

// topics builds the group's topics from kgo's partition counts, sorted by
// name; an empty name or a negative count is left out. Every topic's
// partition list is a prefix of one list 0..n-1, capacity clipped.
func (mb *memberBalancer) topics(counts map[string]int32) []assignor.Topic {
	racks := mb.rackSource()
	names := slices.Sorted(maps.Keys(counts))
	most := int32(0)
	for _, n := range counts {
		most = max(most, n)
	}
	ids := assignor.Partitions(most)
	out := make([]assignor.Topic, 0, len(names))
	for _, name := range names {
		n := counts[name]
		if name == "" || n < 0 {
			continue
		}
		t := assignor.Topic{Name: name}
		if n > 0 {
			t.Partitions = ids[:n:n]
		}
		if racks != nil {
			t.ReplicaRacks = topicRacks(racks, name, n)
		}
		out = append(out, t)
	}
	return out
}

// syncAssignments encodes the plan for SyncGroup: one assignment for each
// of ids, empty for a member the plan leaves out. Plan entries for members
// not in ids are dropped and logged; several entries for one member are
// merged (and logged). All assignments share one buffer, sized up front.
func (b *Balancer) syncAssignments(plan assignor.Plan, ids []string) syncAssignment {
	plans := b.planByID(plan, ids)
	userData := make([][]byte, len(plans))
	mark := b.marksRejoin(plan)
	udSize := 0
	for i := range plans {
		udSize += len(plans[i].UserData)
		if mark {
			udSize += envelopeRoom
		}
	}
	udBuf := make([]byte, 0, udSize)
	size := 0
	for i := range plans {
		mp := &plans[i]
		if !assignor.IsCanonicalTopicPartitions(mp.Assigned) {
			mp.Assigned = assignor.NormalizeTopicPartitions(mp.Assigned)
		}
		userData[i], udBuf = appendAssignmentUserData(udBuf, mark, mp.UserData)
		size += assignmentSize(mp.Assigned, userData[i])
	}
	out := make(syncAssignment, len(ids))
	buf := make([]byte, 0, size)
	for i, id := range ids {
		a := wire.Assignment{Version: 3, Partitions: plans[i].Assigned, UserData: userData[i]}
		start := len(buf)
		buf = a.AppendTo(buf)
		out[i] = kmsg.NewSyncGroupRequestGroupAssignment()
		out[i].MemberID = id
		out[i].MemberAssignment = buf[start:len(buf):len(buf)]
	}
	return out
}

// planByID returns the plan's entry for each of ids (sorted), in ids'
// order: an empty one for a member the plan leaves out, the entries joined
// in plan order for a member listed several times (logged, with the first
// entry's user data). Entries for members not in ids are dropped (logged).
func (b *Balancer) planByID(plan assignor.Plan, ids []string) []assignor.MemberPlan {
	out := make([]assignor.MemberPlan, len(ids))
	for _, mp := range plan.Members {
		i, ok := slices.BinarySearch(ids, mp.Member)
		switch {
		case !ok:
			b.logf("franzgo: %s: plan names member %q, which is not in the group; its entry is dropped", b.name, mp.Member)
		case out[i].Member != "":
			b.logf("franzgo: %s: plan has several entries for member %q; merged", b.name, mp.Member)
			out[i].Assigned = append(slices.Clip(out[i].Assigned), mp.Assigned...)
		default:
			out[i] = mp
		}
	}
	for i, id := range ids {
		out[i].Member = id
	}
	return out
}

// assignmentSize is the size of a ConsumerProtocolAssignment v3 with these
// partitions and user data: version, the topic-partitions array, the user
// data bytes.
func assignmentSize(tps []assignor.TopicPartitions, userData []byte) int {
	n := 2 + 4 + 4 + len(userData)
	for _, tp := range tps {
		n += 2 + len(tp.Topic) + 4 + 4*len(tp.Partitions)
	}
	return n
}

// syncAssignment is the leader's answer for SyncGroup.
type syncAssignment []kmsg.SyncGroupRequestGroupAssignment

// IntoSyncAssignment returns the assignments, sorted by member ID.
func (s syncAssignment) IntoSyncAssignment() []kmsg.SyncGroupRequestGroupAssignment { return s }

func countPartitions(tps []assignor.TopicPartitions) int {
	n := 0
	for _, tp := range tps {
		n += len(tp.Partitions)
	}
	return n
}
