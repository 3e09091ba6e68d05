package franzgo

import (
	"cmp"
	"slices"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// MemberBalancer decodes every member's JoinGroup metadata and returns the
// balancer for this rebalance and the topics the members subscribe to, for
// which kgo then finds partition counts (from its own metadata, or a
// metadata request for topics it does not consume). kgo calls it on the
// leader only, with the members sorted by instance ID, then member ID. It
// never fails: one member's bytes never cost the group its rebalance. The
// balancer it returns also implements kgo.GroupMemberBalancerOrError (kgo
// calls BalanceOrError) and kgo.GroupMemberBalancerInfo.
//
// Each member is read with this module's codec ([wire.SubscriptionDecoder],
// as strict as [wire.DecodeSubscription]; owned partitions stay in the
// metadata until the balance reads them):
// any version, a v1 cut short without owned partitions, a version above 3
// as its v3 prefix, trailing bytes ignored. What it cannot read costs that
// member, and a log line:
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
	mb := &memberBalancer{b: b, ids: make([]string, 0, len(members))}
	decoded := make([]decodedMember, 0, len(members))
	var dec wire.SubscriptionDecoder
	count := make(map[string]int, len(members))
	for i := range members {
		count[members[i].MemberID]++
	}
	for i := range members {
		id := members[i].MemberID
		m, claims, readable := b.decodeMember(&dec, &members[i])
		switch n := count[id]; {
		case id == "":
			b.logf("franzgo: %s: a member has an empty member ID; it is assigned nothing", b.name)
		case n > 1:
			b.logf("franzgo: %s: member %q is listed %d times in the JoinGroup response; it is assigned nothing", b.name, id, n)
			mb.ids = append(mb.ids, id)
			count[id] = 0 // its later copies: logged and listed already
		case n == 1 && readable:
			mb.ids = append(mb.ids, id)
			decoded = append(decoded, decodedMember{m, claims})
			continue
		case n == 1:
			mb.ids = append(mb.ids, id) // assigned nothing; its claims are unknown
		}
		if readable {
			m.Owned = claims.Materialize().Owned
			mb.excluded = append(mb.excluded, m)
		}
	}
	slices.Sort(mb.ids)
	slices.SortFunc(decoded, func(x, y decodedMember) int { return cmp.Compare(x.m.ID, y.m.ID) })
	mb.members = make([]assignor.Member, len(decoded))
	mb.claims = make([]wire.SubscriptionView, len(decoded))
	for i := range decoded {
		mb.members[i], mb.claims[i] = decoded[i].m, decoded[i].claims
	}
	return mb, subscribed(mb.members), nil
}

// decodedMember is a member as decodeMember read it: the member without its
// owned partitions, which claims holds, still encoded.
type decodedMember struct {
	m      assignor.Member
	claims wire.SubscriptionView
}

// subscribed returns the set of topics the members subscribe to. A member
// whose list equals the one before it (members of a group mostly share
// their subscription, and then mostly one slice) is not walked again.
func subscribed(members []assignor.Member) map[string]struct{} {
	topics := make(map[string]struct{})
	var last []string
	for i, m := range members {
		if i > 0 && (sameSlice(m.Topics, last) || slices.Equal(m.Topics, last)) {
			continue
		}
		last = m.Topics
		for _, t := range m.Topics {
			topics[t] = struct{}{}
		}
	}
	return topics
}

// sameSlice reports whether x and y are the same slice: the same elements
// in memory (members decoded with one shared Topics slice), so equal
// without comparing a string.
func sameSlice(x, y []string) bool {
	return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
}

// decodeMember reads one member's metadata into the [assignor.Member] the
// assignor sees, but for its owned partitions: Owned is nil, and the view
// returned reads them from the metadata, which it aliases (kgo keeps the
// JoinGroup response, unchanged, until the balance is over). It reports
// false when not even the member's topics can be read.
//
// Members whose topics (user data) are the same bytes as the member's before
// them share one Topics (UserData) slice, dec's, which nothing changes.
func (b *Balancer) decodeMember(dec *wire.SubscriptionDecoder, km *kmsg.JoinGroupResponseMember) (assignor.Member, wire.SubscriptionView, bool) {
	id, instanceID := km.MemberID, ""
	if km.InstanceID != nil {
		instanceID = *km.InstanceID
	}
	meta := km.ProtocolMetadata
	view, err := dec.DecodeView(meta)
	if err != nil {
		v0, ok := versionZero(meta)
		if !ok {
			b.logf("franzgo: %s: member %q: metadata (%d bytes): %v; it is assigned nothing", b.name, id, len(meta), err)
			return assignor.Member{}, wire.SubscriptionView{}, false
		}
		b.logf("franzgo: %s: member %q: metadata (%d bytes): %v; read as version 0: its topics, without owned partitions, generation, user data or rack", b.name, id, len(meta), err)
		view = wire.SubscriptionView{Subscription: v0}
	}
	sub := view.Subscription
	m := sub.Member(id, instanceID)
	m.Generation = max(m.Generation, assignor.NoGeneration)
	if sub.Version < 2 && b.cooperative && len(m.UserData) > 0 {
		// Java and sarama members below Kafka 3.2 carry the generation
		// of their claims in the cooperative-sticky user data; ours with
		// cooperative.Config.InnerUserData, in sticky's.
		gen, err := wire.UserDataGeneration(m.UserData)
		if err != nil {
			b.logf("franzgo: %s: member %q: user data (%d bytes): %v; its claims count without a generation", b.name, id, len(m.UserData), err)
		}
		m.Generation = max(gen, assignor.NoGeneration)
	}
	if slices.Contains(m.Topics, "") {
		b.logf("franzgo: %s: member %q subscribes to an empty topic name; ignored", b.name, id)
		m.Topics = slices.DeleteFunc(slices.Clone(m.Topics), func(t string) bool { return t == "" }) // a copy: m.Topics may be shared
	}
	if m.Rack == "" && b.cfg.MemberRack != nil {
		m.Rack = b.cfg.MemberRack(id, instanceID)
	}
	return m, view, true
}

// versionZero reads meta as a version-0 subscription (topics and user
// data, anything after them ignored) and keeps only its topics.
func versionZero(meta []byte) (wire.Subscription, bool) {
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
