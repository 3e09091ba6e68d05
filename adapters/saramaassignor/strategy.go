package saramaassignor

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/rebalance"
)

// ErrNilAssignor is returned by [New] when it is given no assignor.
var ErrNilAssignor = errors.New("saramaassignor: nil assignor")

// ErrNoName is returned by [New] for an assignor whose Name is empty: sarama
// advertises the name as the JoinGroup protocol name, which must not be empty.
var ErrNoName = errors.New("saramaassignor: assignor has an empty name")

// Stats describes one rebalance on the leader: see [Config.OnRebalance].
type Stats = rebalance.Stats

// Config configures a [Strategy]. Its zero value is the default: no rack
// information beyond what members send, warnings to [slog.Default].
type Config struct {
	// MemberRack gives the rack of a member whose subscription carries none.
	// It runs on the leader, in Plan, once per member. sarama members never
	// send a rack (they write subscription v0–v2); Java and franz-go members
	// send one in subscription v3 (client.rack), and that one always wins.
	// Nil (the default) means members without a v3 rack have no rack. See
	// [RackByPrefix] to map client or instance IDs to racks. Java's property:
	// client.rack, set on each member instead.
	MemberRack func(memberID string) string

	// ReplicaRacks gives the racks of the replicas of one partition, in any
	// order, or nil when unknown. It runs on the leader, in Plan, once per
	// partition of every subscribed topic. Nil (the default) means no replica
	// racks, so no rack-aware placement. [ClientReplicaRacks] reads them from
	// a sarama.Client's broker metadata (replicas, then each broker's rack),
	// which is where a Java leader reads them too.
	ReplicaRacks func(topic string, partition int32) []string

	// Logger receives a warning for each thing the strategy works around
	// rather than fails on (a member's unreadable cooperative user data, an
	// impossible claim, an empty or duplicate member ID, a strategy shared
	// by several members, an assignment's malformed fast re-join mark) and,
	// at debug level, one summary per rebalance. Nil (the default) sends
	// warnings and errors to [slog.Default], and nothing else.
	Logger *slog.Logger

	// OnRebalance, when set, is called on the leader once per plan with the
	// rebalance's figures ([Stats]: members, moved, withheld, given back,
	// follow-up, leader time, count spread), after the plan is made and
	// before sarama sends it. It runs in sarama's group goroutine: keep it
	// short (feed a counter or a histogram).
	OnRebalance func(Stats)

	// DisableFastRejoin stops this member's leader from marking the
	// assignments of a plan that withholds partitions for fast re-join
	// (see the package doc, # Fast re-join). Default false: it marks, so
	// that members running the franz-go adapter in the group rejoin at
	// once; the mark costs nothing to members that ignore it. A sarama
	// member cannot act on the mark itself: sarama v1.61 has no public way
	// to make a member rejoin, so it learns of the second round from its
	// next heartbeat either way (lower Consumer.Group.Heartbeat.Interval to
	// shorten that wait). Java has no such property.
	DisableFastRejoin bool

	// OmitAssignmentUserData makes this member's leader send every
	// member null assignment user data (no assignor user data, no fast
	// re-join mark): what a classic group needs before it moves online to
	// the consumer protocol, KIP-848 (docs/kip848.md). Set it on every
	// member before the group's last classic rebalance. Default false.
	OmitAssignmentUserData bool
}

// Strategy is an [assignor.Assignor] as a sarama balance strategy. sarama
// finds each optional ability by type assertion; what a Strategy value
// implements depends on the assignor it was built from:
//
//   - always [sarama.BalanceStrategy] and [sarama.RebalanceProtocolBalanceStrategy]
//     (the assignor's declared protocols);
//   - [sarama.SubscriptionUserDataBalanceStrategy] and
//     [sarama.OnAssignmentBalanceStrategy] only if the assignor implements
//     [assignor.SubscriptionUserDataAssignor] (the strategy must remember the
//     member's assignment and generation to build its user data);
//   - [sarama.OnAssignmentBalanceStrategy] alone if the assignor implements only
//     [assignor.AssignmentObserver].
//
// An assignor without a member-side hook therefore never replaces sarama's
// Consumer.Group.Member.UserData.
//
// # One member per Strategy
//
// sarama's member-side hooks carry no member identity, so what a member must
// remember between rebalances (its last assignment and generation) lives in
// the Strategy value: build one per consumer group member, as with sarama's
// own cooperative-sticky ("must not be shared between consumer groups"). All
// methods are safe for concurrent use. A Strategy that sees two members'
// assignments (the same generation twice with different partitions, or a
// generation going backwards) logs it once and from then on sends user data
// without history (no owned partitions, no generation), which is always safe
// and costs only stickiness. The leader side (Plan, AssignmentData) keeps only
// the last plan's assignment user data.
type Strategy interface {
	sarama.RebalanceProtocolBalanceStrategy
	// Assignor returns the assignor the strategy runs, as given to [New]
	// (or the cooperative-sticky one of [CooperativeSticky]).
	Assignor() assignor.Assignor
}

// Compile-time proof of what each concrete strategy implements.
var (
	_ Strategy                                   = (*strategy)(nil)
	_ sarama.OnAssignmentBalanceStrategy         = (*strategy)(nil)
	_ Strategy                                   = (*observerStrategy)(nil)
	_ sarama.OnAssignmentBalanceStrategy         = (*observerStrategy)(nil)
	_ Strategy                                   = (*memberStrategy)(nil)
	_ sarama.SubscriptionUserDataBalanceStrategy = (*memberStrategy)(nil)
	_ sarama.OnAssignmentBalanceStrategy         = (*memberStrategy)(nil)
)

// New returns a for sarama. It fails only for a nil assignor or one with an
// empty name. See [Strategy] for what the result implements and why each
// consumer group member needs its own.
//
//	strategy, err := sarama.New(cooperative.Wrap(sticky.New()), sarama.Config{})
//	config.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{strategy}
func New(a assignor.Assignor, cfg Config) (Strategy, error) {
	if a == nil {
		return nil, ErrNilAssignor
	}
	if a.Name() == "" {
		return nil, fmt.Errorf("%w (%T)", ErrNoName, a)
	}
	return build(a, cfg), nil
}

// build is New for an assignor known to be non-nil and named.
func build(a assignor.Assignor, cfg Config) Strategy {
	s := &strategy{a: a, cfg: cfg, cooperative: assignor.Supports(a, assignor.Cooperative)}
	var memberRack func(string, string) string
	if cfg.MemberRack != nil {
		memberRack = func(id, _ string) string { return cfg.MemberRack(id) }
	}
	var log *slog.Logger
	if cfg.Logger != nil {
		log = cfg.Logger.With("adapter", "saramaassignor")
	}
	s.leader = rebalance.NewLeader(a, rebalance.Config{MemberRack: memberRack, DisableFastRejoin: cfg.DisableFastRejoin, OmitAssignmentUserData: cfg.OmitAssignmentUserData, Logger: log})
	s.log = s.leader.Logger()
	for _, p := range assignor.Protocols(a) {
		switch p {
		case assignor.Eager:
			s.protocols = append(s.protocols, sarama.RebalanceProtocolEager)
		case assignor.Cooperative:
			s.protocols = append(s.protocols, sarama.RebalanceProtocolCooperative)
		}
	}
	if len(s.protocols) == 0 {
		// Only unknown protocols declared: sarama knows eager and
		// cooperative, and eager is every client's fallback.
		s.protocols = []sarama.RebalanceProtocol{sarama.RebalanceProtocolEager}
	}
	if sub, ok := a.(assignor.SubscriptionUserDataAssignor); ok {
		obs, _ := a.(assignor.AssignmentObserver)
		return &memberStrategy{strategy: s, sub: sub, obs: obs, generation: assignor.NoGeneration}
	}
	if obs, ok := a.(assignor.AssignmentObserver); ok {
		return &observerStrategy{strategy: s, obs: obs}
	}
	return s
}

// strategy is the leader side every Strategy shares.
type strategy struct {
	a           assignor.Assignor
	cfg         Config
	protocols   []sarama.RebalanceProtocol
	cooperative bool
	leader      *rebalance.Leader
	log         *slog.Logger

	mu sync.Mutex
	// assignmentData is the last plan's assignment user data by member ID
	// (members without any are absent).
	assignmentData map[string][]byte
}

func (s *strategy) Assignor() assignor.Assignor { return s.a }

// Name returns the assignor's name, the protocol name sarama advertises.
func (s *strategy) Name() string { return s.a.Name() }

// SupportedProtocols returns the assignor's declared protocols, most
// preferred first (eager only if it declares none). sarama runs its
// cooperative member lifecycle only when every configured strategy lists
// cooperative.
func (s *strategy) SupportedProtocols() []sarama.RebalanceProtocol { return slices.Clone(s.protocols) }

// AssignmentData returns the assignment user data the last Plan computed for
// memberID, or nil. sarama calls it on the leader right after Plan, once per
// member of the plan; topics are not needed because the assignor computed
// the bytes in Plan, and generationID tells the leader side which
// generation the plan was for (sarama's Plan is not told). The result is a
// copy.
func (s *strategy) AssignmentData(memberID string, topics map[string][]int32, generationID int32) ([]byte, error) {
	s.leader.Balanced(generationID)
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.assignmentData[memberID]), nil
}

// setAssignmentData keeps the assignment user data of the round's
// assignments for AssignmentData, as it goes on the wire (the assignor's
// own, marked for fast re-join when the plan withholds partitions), every
// member's bytes cut from one array.
func (s *strategy) setAssignmentData(as []rebalance.Assignment) {
	size := 0
	for _, a := range as {
		size += len(a.UserData) + 12 // room for the fast re-join mark
	}
	data := make(map[string][]byte)
	buf := make([]byte, 0, size)
	for _, a := range as {
		at := len(buf)
		buf = a.AppendUserData(buf)
		if len(buf) > at || a.UserData != nil { // empty, not null, stays empty
			data[a.Member] = buf[at:len(buf):len(buf)]
		}
	}
	s.mu.Lock()
	s.assignmentData = data
	s.mu.Unlock()
}

// wrap wraps the assignor's error with what the adapter was doing (op) and,
// unless the error already names the assignor (the cooperative wrapper's
// [*cooperative.Error] does), the assignor's name:
//
//	saramaassignor: plan: cooperative: "cooperative-range": assignor: ...
//	saramaassignor: plan: "roundrobin": assignor: member "": empty member ID
func (s *strategy) wrap(op string, err error) error {
	var ce *cooperative.Error
	if errors.As(err, &ce) && ce.Assignor == s.a.Name() {
		return fmt.Errorf("saramaassignor: %s: %w", op, err)
	}
	return fmt.Errorf("saramaassignor: %s: %q: %w", op, s.a.Name(), err)
}

// OnAssignment tells the leader side that this member synced generationID
// ([rebalance.Leader.Delivered]): when the member led that generation, its
// plan was delivered, and the next Plan may read from it the claims of
// members whose subscriptions it cannot read (see the package doc,
// # Unreadable metadata); and a Plan, which sarama does not tell its
// generation, drops claims more than 16 generations past it as impossible.
// sarama calls it on every member right after a successful SyncGroup with a
// non-empty assignment; this module's leaders send every member one.
func (s *strategy) OnAssignment(_ *sarama.ConsumerGroupMemberAssignment, generationID int32) {
	s.leader.Delivered(generationID)
}

// observerStrategy adds OnAssignment for an assignor that observes its
// member's assignment but sends no subscription user data.
type observerStrategy struct {
	*strategy
	obs assignor.AssignmentObserver
}

// OnAssignment forwards the member's assignment to the assignor's
// [assignor.AssignmentObserver] hook, with the assignor's own assignment
// user data (without the fast re-join envelope). sarama calls it on every
// member right after a successful SyncGroup with a non-empty assignment,
// before it reconciles claims: in cooperative mode, before revoked
// partitions' handlers are stopped; in eager mode, after the previous
// session ended.
func (s *observerStrategy) OnAssignment(assignment *sarama.ConsumerGroupMemberAssignment, generationID int32) {
	s.strategy.OnAssignment(assignment, generationID)
	if assignment == nil {
		return
	}
	s.obs.OnAssignment(assignor.TopicPartitionsFromMap(assignment.Topics), s.ownUserData(assignment.UserData), generationID)
}

// ownUserData returns the assignor's own part of an assignment's user data:
// all of it, or what a fast re-join envelope holds. A sarama member cannot
// rejoin for the mark (see Config.DisableFastRejoin), so the mark itself is
// dropped. The result is a copy.
func (s *strategy) ownUserData(userData []byte) []byte {
	own, _, err := rebalance.ReadUserData(userData)
	if err != nil {
		s.log.Warn("assignment user data unreadable; handed to the assignor as it is", "error", err)
	}
	return own
}

// memberStrategy adds both member-side hooks for an assignor that supplies
// subscription user data: OnAssignment records the member's assignment and
// generation, SubscriptionUserData hands them to the assignor.
type memberStrategy struct {
	*strategy
	sub assignor.SubscriptionUserDataAssignor
	obs assignor.AssignmentObserver // nil if the assignor has no such hook

	stateMu    sync.Mutex
	owned      []assignor.TopicPartitions // the last assignment, sorted
	generation int32                      // its generation, or NoGeneration
	shared     bool                       // two members' assignments were seen
}

// SubscriptionUserData returns the assignor's user data for this member:
// sarama calls it before each JoinGroup with the member's subscribed topics.
// The [assignor.MemberState] it passes holds those topics, and the partitions
// and generation of the member's last assignment (none before the first one,
// and none once the Strategy has been seen serving two members). On error
// sarama logs it and sends Consumer.Group.Member.UserData instead.
func (s *memberStrategy) SubscriptionUserData(topics []string) ([]byte, error) {
	state := assignor.MemberState{Topics: slices.Clone(topics), Generation: assignor.NoGeneration}
	s.stateMu.Lock()
	if !s.shared {
		state.Owned = assignor.CloneTopicPartitions(s.owned)
		state.Generation = s.generation
	}
	s.stateMu.Unlock()
	data, err := s.sub.SubscriptionUserData(state)
	if err != nil {
		return nil, s.wrap("subscription user data", err)
	}
	return data, nil
}

// OnAssignment records the member's assignment and its generation for the
// next SubscriptionUserData, then forwards them to the assignor's
// [assignor.AssignmentObserver] hook if it has one. sarama calls it on every
// member right after a successful SyncGroup with a non-empty assignment (see
// [observerStrategy.OnAssignment] for when that is relative to revocation).
func (s *memberStrategy) OnAssignment(assignment *sarama.ConsumerGroupMemberAssignment, generationID int32) {
	s.strategy.OnAssignment(assignment, generationID)
	if assignment == nil {
		return
	}
	owned := assignor.TopicPartitionsFromMap(assignment.Topics)
	s.stateMu.Lock()
	if !s.shared && s.generation != assignor.NoGeneration &&
		(generationID < s.generation || generationID == s.generation && !assignor.EqualTopicPartitions(owned, s.owned)) {
		s.shared = true
		s.log.Warn("assignment for an older or the same generation, with other partitions: is the strategy shared by several members? From now on its subscription user data carries no history",
			"generation", generationID, "last", s.generation)
	}
	s.owned, s.generation = owned, generationID
	s.stateMu.Unlock()
	if s.obs != nil {
		s.obs.OnAssignment(assignor.CloneTopicPartitions(owned), s.ownUserData(assignment.UserData), generationID)
	}
}
