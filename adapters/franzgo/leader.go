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
	members  []assignor.Member // the members the assignor sees, sorted by ID
	excluded []assignor.Member // members assigned nothing whose claims could be read
	ids      []string          // every distinct non-empty member ID, sorted: one assignment each
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
func (mb *memberBalancer) BalanceOrError(topics map[string]int32) (kgo.IntoSyncAssignment, error) {
	b := mb.b
	gen := mb.info.Generation
	b.dropImpossibleClaims(mb.members, gen)
	b.dropImpossibleClaims(mb.excluded, gen)
	g := assignor.Group{Members: mb.members, Topics: mb.topics(topics)}
	plan, err := b.a.Assign(g)
	if err != nil {
		return nil, fmt.Errorf("franzgo: %s: generation %d: %w", b.name, gen, err)
	}
	if b.cooperative && len(mb.excluded) > 0 {
		plan = b.withhold(plan, mb.members, mb.excluded)
	}
	return b.syncAssignments(plan, mb.ids), nil
}

// dropImpossibleClaims clears the history of every member that claims a
// generation at or above gen, the generation being balanced into: no member
// can have been given anything in it yet, so the claim is false, and
// trusting it would let a member outrank every true owner (KIP-792). Such a
// member keeps its topics and loses its owned partitions, generation and
// user data. Nothing is dropped when gen is unknown (0 or less: kgo did not
// call SetBalanceInfo). Idempotent; it edits ms in place.
func (b *Balancer) dropImpossibleClaims(ms []assignor.Member, gen int32) {
	if gen <= 0 {
		return
	}
	for i := range ms {
		m := &ms[i]
		if m.Generation < gen {
			continue
		}
		b.logf("franzgo: %s: member %q claims %d partitions at generation %d, not below generation %d being balanced into; its claims and user data are ignored",
			b.name, m.ID, countPartitions(m.Owned), m.Generation, gen)
		m.Owned, m.Generation, m.UserData = nil, assignor.NoGeneration, nil
	}
}

// topics builds the group's topics from kgo's partition counts, sorted by
// name; an empty name or a negative count is left out.
func (mb *memberBalancer) topics(counts map[string]int32) []assignor.Topic {
	racks := mb.rackSource()
	out := make([]assignor.Topic, 0, len(counts))
	for _, name := range slices.Sorted(maps.Keys(counts)) {
		n := counts[name]
		if name == "" || n < 0 {
			continue
		}
		t := assignor.Topic{Name: name, Partitions: assignor.Partitions(n)}
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
// merged (and logged). All assignments share one buffer.
func (b *Balancer) syncAssignments(plan assignor.Plan, ids []string) syncAssignment {
	byID := make(map[string]assignor.MemberPlan, len(plan.Members))
	for _, mp := range plan.Members {
		if _, ok := slices.BinarySearch(ids, mp.Member); !ok {
			b.logf("franzgo: %s: plan names member %q, which is not in the group; its entry is dropped", b.name, mp.Member)
			continue
		}
		if prev, ok := byID[mp.Member]; ok {
			b.logf("franzgo: %s: plan has several entries for member %q; merged", b.name, mp.Member)
			prev.Assigned = append(slices.Clip(prev.Assigned), mp.Assigned...)
			mp = prev
		}
		byID[mp.Member] = mp
	}
	out := make(syncAssignment, len(ids))
	var buf []byte
	for i, id := range ids {
		mp, ok := byID[id]
		if !ok {
			mp = assignor.MemberPlan{Member: id}
		}
		a := wire.Assignment{Version: 3, Partitions: assignor.NormalizeTopicPartitions(mp.Assigned), UserData: b.assignmentUserData(plan, mp)}
		start := len(buf)
		buf = a.AppendTo(buf)
		out[i] = kmsg.NewSyncGroupRequestGroupAssignment()
		out[i].MemberID = id
		out[i].MemberAssignment = buf[start:len(buf):len(buf)]
	}
	return out
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
