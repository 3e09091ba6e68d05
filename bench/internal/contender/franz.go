package contender

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/kgroup/assignor"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func init() {
	Register(Contender{Key: "franz-coop", Name: "franz-go cooperative-sticky", Family: "franz-go", Cooperative: true, Order: 30,
		New: func() Runner { return &franzRunner{balancer: kgo.CooperativeStickyBalancer()} }})
	Register(Contender{Key: "franz-sticky", Name: "franz-go sticky", Family: "franz-go", Order: 31,
		New: func() Runner { return &franzRunner{balancer: kgo.StickyBalancer()} }})
}

// franzRunner runs a franz-go v1.22.3 balancer as kgo's leader does: members
// sorted by member ID (kgo sorts by instance ID, then member ID; we have no
// instance IDs), MemberBalancer (which decodes every member's metadata),
// BalanceOrError, IntoSyncAssignment (which encodes every assignment).
//
// Members encode their metadata with the balancer's own JoinGroupMetadata,
// given the topics, the partitions they were last assigned and the
// generation, exactly as a kgo member does (kgo passes its last assignment
// for eager and cooperative balancers alike).
type franzRunner struct {
	balancer kgo.GroupBalancer
	members  []kmsg.JoinGroupResponseMember
	topics   map[string]int32
	out      []kmsg.SyncGroupRequestGroupAssignment
}

func (r *franzRunner) Prepare(topics []assignor.Topic, members []MemberJoin, _ int32) error {
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
	members := slices.Clone(r.members)
	slices.SortFunc(members, func(a, b kmsg.JoinGroupResponseMember) int { return cmp.Compare(a.MemberID, b.MemberID) })
	mb, _, err := r.balancer.MemberBalancer(members)
	if err != nil {
		return fmt.Errorf("contender: franz-go MemberBalancer: %w", err)
	}
	boe, ok := mb.(kgo.GroupMemberBalancerOrError)
	if !ok {
		return fmt.Errorf("contender: franz-go %T has no BalanceOrError", mb)
	}
	into, err := boe.BalanceOrError(r.topics)
	if err != nil {
		return fmt.Errorf("contender: franz-go BalanceOrError: %w", err)
	}
	r.out = into.IntoSyncAssignment()
	return nil
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
