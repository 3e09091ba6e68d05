package kgoassignor

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/rebalance"
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
	into, _ := mb.BalanceOrError(topics)
	return into
}

// legacyLogf drops the old path's log lines: their text is not the leader
// path's today, which the tests check by themselves.
func legacyLogf(string, ...any) {}

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
			legacyLogf("kgoassignor: %s: a member has an empty member ID; it is assigned nothing", b.name)
		case n > 1:
			legacyLogf("kgoassignor: %s: member %q is listed %d times in the JoinGroup response; it is assigned nothing", b.name, id, n)
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
		v0, ok := legacyVersionZero(meta)
		if !ok {
			legacyLogf("kgoassignor: %s: member %q: metadata (%d bytes): %v; it is assigned nothing", b.name, id, len(meta), err)
			return assignor.Member{}, false
		}
		legacyLogf("kgoassignor: %s: member %q: metadata (%d bytes): %v; read as version 0: its topics, without owned partitions, generation, user data or rack", b.name, id, len(meta), err)
		sub = v0
	}
	m := sub.Member(id, instanceID)
	m.Generation = max(m.Generation, assignor.NoGeneration)
	if sub.Version < 2 && b.cooperative && len(m.UserData) > 0 {
		gen, err := wire.UserDataGeneration(m.UserData)
		if err != nil {
			legacyLogf("kgoassignor: %s: member %q: user data (%d bytes): %v; its claims count without a generation", b.name, id, len(m.UserData), err)
		}
		m.Generation = max(gen, assignor.NoGeneration)
	}
	if slices.Contains(m.Topics, "") {
		legacyLogf("kgoassignor: %s: member %q subscribes to an empty topic name; ignored", b.name, id)
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
		return nil, fmt.Errorf("kgoassignor: %s: generation %d: %w", b.name, gen, err)
	}
	if b.cooperative && len(mb.excluded) > 0 {
		plan = legacyWithhold(plan, mb.members, mb.excluded)
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
		legacyLogf("kgoassignor: %s: member %q claims %d partitions at generation %d, not below generation %d being balanced into; its claims and user data are ignored",
			b.name, m.ID, assignor.CountPartitions(m.Owned), m.Generation, gen)
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
			legacyLogf("kgoassignor: %s: plan names member %q, which is not in the group; its entry is dropped", b.name, mp.Member)
			continue
		}
		if prev, ok := byID[mp.Member]; ok {
			legacyLogf("kgoassignor: %s: plan has several entries for member %q; merged", b.name, mp.Member)
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
		mark := !b.cfg.DisableFastRejoin && plan.FollowUp && b.cooperative && hasSubscriptionHook(b.a)
		ud := rebalance.Assignment{UserData: mp.UserData, Rejoin: mark}.AppendUserData(nil)
		if ud == nil && mp.UserData != nil {
			ud = []byte{}
		}
		a := wire.Assignment{Version: 3, Partitions: assignor.NormalizeTopicPartitions(mp.Assigned), UserData: ud}
		start := len(buf)
		buf = a.AppendTo(buf)
		out[i] = kmsg.NewSyncGroupRequestGroupAssignment()
		out[i].MemberID = id
		out[i].MemberAssignment = buf[start:len(buf):len(buf)]
	}
	return out
}

func hasSubscriptionHook(a assignor.Assignor) bool {
	_, ok := a.(assignor.SubscriptionUserDataAssignor)
	return ok
}

// legacyVersionZero reads meta as a version-0 subscription (topics and
// user data, anything after them ignored) and keeps only its topics.
func legacyVersionZero(meta []byte) (wire.Subscription, bool) {
	if len(meta) < 2 {
		return wire.Subscription{}, false
	}
	v0 := slices.Clone(meta)
	v0[0], v0[1] = 0, 0
	sub, err := wire.DecodeSubscription(v0)
	if err != nil {
		return wire.Subscription{}, false
	}
	return wire.Subscription{Topics: sub.Topics, Generation: assignor.NoGeneration}, true
}

// legacyWithhold is the withholding around excluded members as it was: it
// removes from a cooperative plan every partition a member assigned
// nothing claims, except from a member whose own claim on it is at a
// strictly higher generation, and sets FollowUp when it removed anything.
func legacyWithhold(plan assignor.Plan, members, excluded []assignor.Member) assignor.Plan {
	type topicPartition struct {
		topic     string
		partition int32
	}
	claimed := make(map[topicPartition]int32)
	for _, m := range excluded {
		for _, tp := range m.Owned {
			for _, p := range tp.Partitions {
				k := topicPartition{tp.Topic, p}
				if g, ok := claimed[k]; !ok || m.Generation > g {
					claimed[k] = m.Generation
				}
			}
		}
	}
	if len(claimed) == 0 {
		return plan
	}
	out := plan
	out.Members = slices.Clone(plan.Members)
	withheld := 0
	for i, mp := range out.Members {
		var owner *assignor.Member
		if j, ok := slices.BinarySearchFunc(members, mp.Member, func(m assignor.Member, id string) int { return cmp.Compare(m.ID, id) }); ok {
			owner = &members[j]
		}
		var kept []assignor.TopicPartitions
		changed := false
		for _, tp := range mp.Assigned {
			var ps []int32
			for _, p := range tp.Partitions {
				g, ok := claimed[topicPartition{tp.Topic, p}]
				if ok && !(owner != nil && owns(owner, tp.Topic, p) && owner.Generation > g) {
					withheld++
					changed = true
					continue
				}
				ps = append(ps, p)
			}
			if len(ps) > 0 {
				kept = append(kept, assignor.TopicPartitions{Topic: tp.Topic, Partitions: ps})
			}
		}
		if changed {
			out.Members[i].Assigned = kept
		}
	}
	if withheld > 0 {
		out.FollowUp = true
	}
	return out
}

// owns reports whether m claims topic's partition p.
func owns(m *assignor.Member, topic string, p int32) bool {
	for _, tp := range m.Owned {
		if tp.Topic == topic && slices.Contains(tp.Partitions, p) {
			return true
		}
	}
	return false
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
