package franzgo

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// legacyLeader is the leader path as it was before it read members straight
// into an assignor.IndexBuilder: every member decoded into an
// assignor.Member, a Group, Assign, and the plan encoded through a map. It
// is kept in the test binary only, as the reference BenchmarkLeader times
// the path against and TestLeaderDifferential compares its bytes and logs
// with.
type legacyLeader struct {
	b        *Balancer
	members  []assignor.Member
	excluded []assignor.Member
	ids      []string
	info     kgo.BalanceInfo
}

var (
	_ kgo.GroupMemberBalancerOrError = (*legacyLeader)(nil)
	_ kgo.GroupMemberBalancerInfo    = (*legacyLeader)(nil)
)

func (mb *legacyLeader) SetBalanceInfo(info kgo.BalanceInfo) { mb.info = info }

func (mb *legacyLeader) Balance(topics map[string]int32) kgo.IntoSyncAssignment {
	into, err := mb.BalanceOrError(topics)
	if err != nil {
		mb.b.logf("%v", err)
		return nil
	}
	return into
}

// legacyMemberBalancer is MemberBalancer as it was.
func (b *Balancer) legacyMemberBalancer(members []kmsg.JoinGroupResponseMember) (*legacyLeader, map[string]struct{}) {
	mb := &legacyLeader{b: b}
	count := make(map[string]int, len(members))
	for i := range members {
		count[members[i].MemberID]++
	}
	for i := range members {
		id := members[i].MemberID
		m, readable := b.legacyDecodeMember(&members[i])
		switch n := count[id]; {
		case id == "":
			b.logf("franzgo: %s: a member has an empty member ID; it is assigned nothing", b.name)
		case n > 1:
			b.logf("franzgo: %s: member %q is listed %d times in the JoinGroup response; it is assigned nothing", b.name, id, n)
			mb.ids = append(mb.ids, id)
			count[id] = 0
		case n == 1 && readable:
			mb.ids = append(mb.ids, id)
			mb.members = append(mb.members, m)
			continue
		case n == 1:
			mb.ids = append(mb.ids, id)
		}
		if readable {
			mb.excluded = append(mb.excluded, m)
		}
	}
	slices.Sort(mb.ids)
	slices.SortFunc(mb.members, func(x, y assignor.Member) int { return cmp.Compare(x.ID, y.ID) })
	topics := make(map[string]struct{})
	for _, m := range mb.members {
		for _, t := range m.Topics {
			topics[t] = struct{}{}
		}
	}
	return mb, topics
}

// legacyDecodeMember is decodeMember as it was.
func (b *Balancer) legacyDecodeMember(km *kmsg.JoinGroupResponseMember) (assignor.Member, bool) {
	id, instanceID := km.MemberID, ""
	if km.InstanceID != nil {
		instanceID = *km.InstanceID
	}
	meta := km.ProtocolMetadata
	sub, err := wire.DecodeSubscription(meta)
	if err != nil {
		v0, ok := versionZero(meta)
		if !ok {
			b.logf("franzgo: %s: member %q: metadata (%d bytes): %v; it is assigned nothing", b.name, id, len(meta), err)
			return assignor.Member{}, false
		}
		b.logf("franzgo: %s: member %q: metadata (%d bytes): %v; read as version 0: its topics, without owned partitions, generation, user data or rack", b.name, id, len(meta), err)
		sub = v0
	}
	m := sub.Member(id, instanceID)
	m.Generation = max(m.Generation, assignor.NoGeneration)
	if sub.Version < 2 && b.cooperative && len(m.UserData) > 0 {
		gen, err := wire.UserDataGeneration(m.UserData)
		if err != nil {
			b.logf("franzgo: %s: member %q: user data (%d bytes): %v; its claims count without a generation", b.name, id, len(m.UserData), err)
		}
		m.Generation = max(gen, assignor.NoGeneration)
	}
	if slices.Contains(m.Topics, "") {
		b.logf("franzgo: %s: member %q subscribes to an empty topic name; ignored", b.name, id)
		m.Topics = slices.DeleteFunc(m.Topics, func(t string) bool { return t == "" })
	}
	if m.Rack == "" && b.cfg.MemberRack != nil {
		m.Rack = b.cfg.MemberRack(id, instanceID)
	}
	return m, true
}

// BalanceOrError is the balance as it was.
func (mb *legacyLeader) BalanceOrError(topics map[string]int32) (kgo.IntoSyncAssignment, error) {
	b := mb.b
	gen := mb.info.Generation
	legacyDropImpossibleClaims(b, mb.members, gen)
	legacyDropImpossibleClaims(b, mb.excluded, gen)
	g := assignor.Group{Members: mb.members, Topics: mb.topics(topics)}
	plan, err := b.a.Assign(g)
	if err != nil {
		return nil, fmt.Errorf("franzgo: %s: generation %d: %w", b.name, gen, err)
	}
	if b.cooperative && len(mb.excluded) > 0 {
		plan = b.withhold(plan, mb.members, mb.excluded)
	}
	return b.legacySyncAssignments(plan, mb.ids), nil
}

func legacyDropImpossibleClaims(b *Balancer, ms []assignor.Member, gen int32) {
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

func (mb *legacyLeader) topics(counts map[string]int32) []assignor.Topic {
	var racks func(string, int32) []string
	if slices.ContainsFunc(mb.members, func(m assignor.Member) bool { return m.Rack != "" }) {
		racks = mb.b.cfg.ReplicaRacks
		if racks == nil {
			racks = infoRacks(mb.info)
		}
	}
	out := make([]assignor.Topic, 0, len(counts))
	for _, name := range slices.Sorted(maps.Keys(counts)) {
		n := counts[name]
		if name == "" || n < 0 {
			continue
		}
		t := assignor.Topic{Name: name, Partitions: assignor.Partitions(n)}
		if racks != nil {
			t.ReplicaRacks = legacyTopicRacks(racks, name, n)
		}
		out = append(out, t)
	}
	return out
}

func (b *Balancer) legacySyncAssignments(plan assignor.Plan, ids []string) syncAssignment {
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

// legacyTopicRacks is topicRacks as it was: one copy per partition.
func legacyTopicRacks(racks func(string, int32) []string, topic string, n int32) [][]string {
	out := make([][]string, n)
	known := false
	for p := range n {
		out[p] = slices.Clone(racks(topic, p))
		known = known || len(out[p]) > 0
	}
	if !known {
		return nil
	}
	return out
}
