package contender

import (
	"fmt"
	"slices"

	"github.com/IBM/sarama"
	"github.com/kgroup/assignor"
)

func init() {
	Register(Contender{Key: "sarama-coop", Name: "sarama cooperative-sticky", Family: "sarama", Cooperative: true, Timed: "sarama's leader path: JoinGroupResponse.GetMembers (decode), the strategy's Plan, then per member AssignmentData and AddGroupAssignmentMember (encode), an empty assignment for members the plan leaves out",
		Order: 40,
		New:   func() Runner { return &saramaRunner{NewStrategy: sarama.NewBalanceStrategyCooperativeSticky} }})
	Register(Contender{Key: "sarama-sticky", Name: "sarama sticky", Family: "sarama", Timed: "as sarama-coop, with sarama's sticky (eager members: no owned partitions, generation -1, history in user data)",
		Order: 41,
		New:   func() Runner { return &saramaRunner{NewStrategy: sarama.NewBalanceStrategySticky} }})
	Register(Contender{Key: "sarama-roundrobin", Name: "sarama roundrobin", Family: "sarama", Timed: "as sarama-coop, with sarama's round-robin",
		Order: 42,
		New:   func() Runner { return &saramaRunner{NewStrategy: sarama.NewBalanceStrategyRoundRobin} }})
	Register(Contender{Key: "sarama-range", Name: "sarama range", Family: "sarama", Timed: "as sarama-coop, with sarama's range",
		Order: 43,
		New:   func() Runner { return &saramaRunner{NewStrategy: sarama.NewBalanceStrategyRange} }})
}

// saramaRunner runs a sarama v1.61.1 BalanceStrategy as sarama's consumer
// group leader does: JoinGroupResponse.GetMembers (decoding every member's
// metadata), Plan, then for every member AssignmentData and
// SyncGroupRequest.AddGroupAssignmentMember (encoding), with an empty
// assignment for members the plan leaves out.
//
// Members encode their metadata as sarama's consumer does with Kafka 3.2+
// (subscription v2): the topics; the user data of their last assignment,
// replaced by the strategy's SubscriptionUserData when it has that hook
// (called on a per-member strategy instance that has seen the member's last
// assignment through OnAssignment, when it has that hook); and, only when
// the strategy supports the cooperative protocol, the owned partitions and
// their generation (an eager sarama member revokes everything and rejoins
// with generation -1).
type saramaRunner struct {
	// NewStrategy returns a fresh strategy; one is made per member and one
	// for the leader, as each process of a group has its own.
	NewStrategy func() sarama.BalanceStrategy
	// NewLeader, if set, returns the leader's strategy instead, given the
	// group (for leader-side options such as the adapter's racks).
	NewLeader func(topics []assignor.Topic, members []MemberJoin) sarama.BalanceStrategy
	// Core, if set, returns the assignor inside our adapter, for Split.
	Core func() assignor.Assignor

	watch      stopwatch
	group      []assignor.Topic
	joins      []MemberJoin
	leader     sarama.BalanceStrategy
	resp       sarama.JoinGroupResponse
	topics     map[string][]int32
	generation int32
	out        *sarama.SyncGroupRequest
}

func saramaCooperative(s sarama.BalanceStrategy) bool {
	rp, ok := s.(sarama.RebalanceProtocolBalanceStrategy)
	return ok && slices.Contains(rp.SupportedProtocols(), sarama.RebalanceProtocolCooperative)
}

func (r *saramaRunner) Prepare(topics []assignor.Topic, members []MemberJoin, generation int32) error {
	r.leader = r.NewStrategy()
	if r.NewLeader != nil {
		r.leader = r.NewLeader(topics, members)
	}
	r.generation = generation
	r.group, r.joins = topics, members
	r.topics = make(map[string][]int32, len(topics))
	for _, t := range topics {
		r.topics[t.Name] = slices.Clone(t.Partitions)
	}
	r.resp = sarama.JoinGroupResponse{Members: make([]sarama.GroupMember, len(members))}
	for i, m := range members {
		s := r.NewStrategy()
		owned := assignor.TopicPartitionsMap(m.Owned)
		if ob, ok := s.(sarama.OnAssignmentBalanceStrategy); ok && m.Generation >= 0 {
			ob.OnAssignment(&sarama.ConsumerGroupMemberAssignment{Topics: owned, UserData: m.AssignmentUserData}, m.Generation)
		}
		meta := &sarama.ConsumerGroupMemberMetadata{Version: 2, Topics: slices.Clone(m.Topics), UserData: m.AssignmentUserData, GenerationID: -1}
		if saramaCooperative(s) {
			meta.GenerationID = m.Generation
			for _, tp := range m.Owned {
				meta.OwnedPartitions = append(meta.OwnedPartitions, &sarama.OwnedPartition{Topic: tp.Topic, Partitions: slices.Clone(tp.Partitions)})
			}
		}
		if su, ok := s.(sarama.SubscriptionUserDataBalanceStrategy); ok {
			if ud, err := su.SubscriptionUserData(slices.Clone(m.Topics)); err == nil {
				meta.UserData = ud
			}
		}
		var req sarama.JoinGroupRequest
		if err := req.AddGroupProtocolMetadata(s.Name(), meta); err != nil {
			return fmt.Errorf("contender: member %q: encoding metadata with sarama: %w", m.ID, err)
		}
		r.resp.Members[i] = sarama.GroupMember{MemberId: m.ID, Metadata: req.OrderedGroupProtocols[0].Metadata}
	}
	return nil
}

func (r *saramaRunner) Lead() error {
	r.watch.start()
	members, err := r.resp.GetMembers()
	if err != nil {
		return fmt.Errorf("contender: JoinGroupResponse.GetMembers: %w", err)
	}
	r.watch.lap(PhaseDecode)
	plan, err := r.leader.Plan(members, r.topics)
	if err != nil {
		return fmt.Errorf("contender: BalanceStrategy.Plan: %w", err)
	}
	r.watch.lap(PhasePlan)
	req := &sarama.SyncGroupRequest{}
	for memberID, topics := range plan {
		ud, err := r.leader.AssignmentData(memberID, topics, r.generation)
		if err != nil {
			return fmt.Errorf("contender: member %q: BalanceStrategy.AssignmentData: %w", memberID, err)
		}
		if err := req.AddGroupAssignmentMember(memberID, &sarama.ConsumerGroupMemberAssignment{Topics: topics, UserData: ud}); err != nil {
			return fmt.Errorf("contender: member %q: encoding assignment with sarama: %w", memberID, err)
		}
		delete(members, memberID)
	}
	for memberID := range members {
		if err := req.AddGroupAssignmentMember(memberID, &sarama.ConsumerGroupMemberAssignment{}); err != nil {
			return fmt.Errorf("contender: member %q: encoding assignment with sarama: %w", memberID, err)
		}
	}
	r.out = req
	r.watch.lap(PhaseEncode)
	return nil
}

// Phases returns the last Lead's: sarama's decode (GetMembers), the
// strategy's Plan, sarama's encode (AssignmentData and
// AddGroupAssignmentMember for every member).
func (r *saramaRunner) Phases() []Phase { return slices.Clone(r.watch.phases) }

// Split times, for our adapter, Assign alone and the least work of filling
// sarama's plan maps, on the prepared group.
func (r *saramaRunner) Split() ([]Phase, error) {
	if r.Core == nil {
		return nil, nil
	}
	return split(r.Core(), r.group, r.joins, true)
}

func (r *saramaRunner) Result() ([]Assignment, error) {
	out := make([]Assignment, 0, len(r.out.GroupAssignments))
	for _, ga := range r.out.GroupAssignments {
		a, err := decodeAssignment(ga.MemberId, ga.Assignment)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	sortAssignments(out)
	return out, nil
}
