package contender

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kgroup/assignor"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func init() {
	Register(Contender{Key: "franz-coop", Name: "franz-go cooperative-sticky", Family: "franz-go", Cooperative: true, Timed: "kgo's balanceGroup without its log strings: members sorted, MemberBalancer (kmsg decodes every member), BalanceOrError, IntoSyncAssignment (kmsg encodes)",
		Order: 30,
		New:   func() Runner { return &franzRunner{balancer: kgo.CooperativeStickyBalancer()} }})
	Register(Contender{Key: "franz-sticky", Name: "franz-go sticky", Family: "franz-go", Timed: "as franz-coop, with kgo.StickyBalancer()",
		Order: 31,
		New:   func() Runner { return &franzRunner{balancer: kgo.StickyBalancer()} }})
	Register(Contender{Key: "franz-coop-log", Name: "franz-go cooperative-sticky + kgo's log strings", Family: "franz-go", Cooperative: true, Timed: "franz-coop plus the strings balanceGroup builds with no level check (so even with kgo's default no-op logger): each member's interests and owned partitions, and the whole plan's String",
		Order: 32,
		New:   func() Runner { return &franzRunner{balancer: kgo.CooperativeStickyBalancer(), logStrings: true} }})
	Register(Contender{Key: "franz-sticky-log", Name: "franz-go sticky + kgo's log strings", Family: "franz-go", Timed: "franz-sticky plus kgo's log strings, as franz-coop-log",
		Order: 33,
		New:   func() Runner { return &franzRunner{balancer: kgo.StickyBalancer(), logStrings: true} }})
}

// franzRunner runs a kgo.GroupBalancer as kgo v1.22.3's leader does
// (groupConsumer.balanceGroup): members sorted by member ID (kgo sorts by
// instance ID, then member ID; we have no instance IDs), MemberBalancer
// (which decodes every member's metadata), BalanceOrError,
// IntoSyncAssignment (which encodes every assignment).
//
// With logStrings, Lead also builds the log strings balanceGroup builds
// with no level check, so that a leader pays for them even with kgo's
// default no-op logger: for a *kgo.ConsumerBalancer (kgo's built-in
// balancers), one "interested topics: [...], previously owned: t[...]"
// string per member, and for a *kgo.BalancePlan, the whole plan's String.
// A balancer that returns neither (such as our franz-go adapter) gets only
// kgo's constant lines, which cost nothing.
//
// Members encode their metadata with the balancer's own JoinGroupMetadata,
// given the topics, the partitions they were last assigned and the
// generation, exactly as a kgo member does (kgo passes its last assignment
// for eager and cooperative balancers alike).
type franzRunner struct {
	balancer kgo.GroupBalancer
	// newLeader, if set, returns the leader's balancer instead, given the
	// group (for leader-side options such as the adapter's racks).
	newLeader  func(topics []assignor.Topic, members []MemberJoin) kgo.GroupBalancer
	logStrings bool
	// core, if set, returns the assignor inside our adapter, for Split.
	core func() assignor.Assignor

	watch stopwatch
	group []assignor.Topic
	joins []MemberJoin

	leader kgo.GroupBalancer
	logged int // bytes of log strings built by the last Lead
	// members holds each member's JoinGroup metadata as the broker sends it.
	members []kmsg.JoinGroupResponseMember
	topics  map[string]int32
	out     []kmsg.SyncGroupRequestGroupAssignment
}

func (r *franzRunner) Prepare(topics []assignor.Topic, members []MemberJoin, _ int32) error {
	r.leader = r.balancer
	r.group, r.joins = topics, members
	if r.newLeader != nil {
		r.leader = r.newLeader(topics, members)
	}
	r.topics = make(map[string]int32, len(topics))
	for _, t := range topics {
		r.topics[t.Name] = int32(len(t.Partitions))
	}
	r.members = make([]kmsg.JoinGroupResponseMember, len(members))
	for i, m := range members {
		jm := kmsg.NewJoinGroupResponseMember()
		jm.MemberID = m.ID
		jm.ProtocolMetadata = r.balancer.JoinGroupMetadata(m.Topics, assignor.TopicPartitionsMap(m.Owned), m.Generation)
		r.members[i] = jm
	}
	return nil
}

func (r *franzRunner) Lead() error {
	r.watch.start()
	members := slices.Clone(r.members)
	slices.SortFunc(members, func(a, b kmsg.JoinGroupResponseMember) int { return cmp.Compare(a.MemberID, b.MemberID) })
	mb, _, err := r.leader.MemberBalancer(members)
	if err != nil {
		return fmt.Errorf("contender: franz-go MemberBalancer: %w", err)
	}
	r.watch.lap(PhaseDecode)
	r.logged = 0
	if r.logStrings {
		r.logged += logInterests(mb)
	}
	boe, ok := mb.(kgo.GroupMemberBalancerOrError)
	if !ok {
		return fmt.Errorf("contender: franz-go %T has no BalanceOrError", mb)
	}
	into, err := boe.BalanceOrError(r.topics)
	if err != nil {
		return fmt.Errorf("contender: franz-go BalanceOrError: %w", err)
	}
	if p, ok := into.(*kgo.BalancePlan); ok && r.logStrings {
		r.logged += len(p.String())
	}
	r.watch.lap(PhasePlan)
	r.out = into.IntoSyncAssignment()
	r.watch.lap(PhaseEncode)
	return nil
}

// Phases returns the last Lead's: sorting the members and MemberBalancer
// (which decodes them), BalanceOrError (with kgo's log strings when set),
// IntoSyncAssignment (which encodes).
func (r *franzRunner) Phases() []Phase { return slices.Clone(r.watch.phases) }

// Split times, for our adapter, Assign alone on the prepared group.
func (r *franzRunner) Split() ([]Phase, error) {
	if r.core == nil {
		return nil, nil
	}
	return split(r.core(), r.group, r.joins, false)
}

// logInterests builds the strings kgo's balanceGroup logs for each member
// of a *kgo.ConsumerBalancer, as it builds them, and returns their length.
func logInterests(mb kgo.GroupMemberBalancer) int {
	cb, ok := mb.(*kgo.ConsumerBalancer)
	if !ok {
		return 0
	}
	n := 0
	interests := new(bytes.Buffer)
	cb.EachMember(func(member *kmsg.JoinGroupResponseMember, meta *kmsg.ConsumerMemberMetadata) {
		interests.Reset()
		fmt.Fprintf(interests, "interested topics: %v, previously owned: ", meta.Topics)
		for _, owned := range meta.OwnedPartitions {
			slices.Sort(owned.Partitions)
			fmt.Fprintf(interests, "%s%v, ", owned.Topic, owned.Partitions)
		}
		n += len(strings.TrimSuffix(interests.String(), ", ")) + len(member.MemberID)
	})
	return n
}

func (r *franzRunner) Result() ([]Assignment, error) {
	out := make([]Assignment, 0, len(r.out))
	for _, sa := range r.out {
		a, err := decodeAssignment(sa.MemberID, sa.MemberAssignment)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	sortAssignments(out)
	return out, nil
}
