package member

import (
	"errors"
	"slices"
	"strconv"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/rebalance"
)

// Errors carried by [Stop] actions, wrapped in a [*StopError].
var (
	// ErrFenced: another instance with the same static instance ID replaced
	// the member (FENCED_INSTANCE_ID). The member must not rejoin.
	ErrFenced = errors.New("member: static member fenced by a newer instance")
	// ErrJoinRejected: the coordinator rejected the JoinGroup with an error
	// the rules do not retry (such as INCONSISTENT_GROUP_PROTOCOL).
	ErrJoinRejected = errors.New("member: join rejected by the coordinator")
)

// StopError says why a member stopped: the member, its instance and
// generation, and the coordinator's error code. Its text is the cause's when
// the cause is a sentinel of this package, then the member, generation and
// code:
//
//	member: static member fenced by a newer instance: "m1" (instance "i1") generation 3: FENCED_INSTANCE_ID
//
// Any other cause follows them, untouched.
type StopError struct {
	MemberID   string
	InstanceID string
	Generation int32
	Code       ErrorCode
	Err        error
}

func (e *StopError) Error() string {
	who := strconv.Quote(e.MemberID)
	if e.InstanceID != "" {
		who += " (instance " + strconv.Quote(e.InstanceID) + ")"
	}
	context := who + " generation " + strconv.Itoa(int(e.Generation)) + ": " + e.Code.String()
	switch e.Err {
	case ErrFenced, ErrJoinRejected:
		return e.Err.Error() + ": " + context
	case nil:
		return "member: " + context
	}
	return "member: " + context + ": " + e.Err.Error()
}

func (e *StopError) Unwrap() error { return e.Err }

// Phase is where a member stands in the classic group protocol.
type Phase uint8

const (
	// Unjoined: created, [Start] not yet stepped.
	Unjoined Phase = iota
	// Joining: a JoinGroup is in flight, or the member waits to send one
	// (after a coordinator error: see [Machine.FindingCoordinator] and
	// [SendJoin].Backoff).
	Joining
	// Syncing: a SyncGroup is in flight.
	Syncing
	// Stable: the member has its assignment and heartbeats.
	Stable
	// Stopped: the member left the group for good; it ignores every event.
	Stopped
)

func (p Phase) String() string {
	switch p {
	case Unjoined:
		return "unjoined"
	case Joining:
		return "joining"
	case Syncing:
		return "syncing"
	case Stable:
		return "stable"
	case Stopped:
		return "stopped"
	}
	return "phase(" + strconv.Itoa(int(p)) + ")"
}

// Config is a member's fixed configuration.
type Config struct {
	// InstanceID is the static instance ID (KIP-345, Java's
	// group.instance.id), or "" for a dynamic member.
	InstanceID string
	// Topics is the initial subscription.
	Topics []string
	// Protocol is the rebalance protocol: [assignor.Cooperative] if every
	// assignor the member configures supports it (Java's rule), else
	// [assignor.Eager]. The zero value is Eager.
	Protocol assignor.Protocol
	// RetryBackoff is the wait before the first retry after a coordinator
	// error (see [FindCoordinator]). Zero or negative means the default,
	// 100 ms (Java's retry.backoff.ms).
	RetryBackoff time.Duration
	// RetryBackoffMax caps the backoff, which doubles with each consecutive
	// coordinator error. Zero or negative means the default, 1 s (Java's
	// retry.backoff.max.ms); a value below RetryBackoff means RetryBackoff.
	RetryBackoffMax time.Duration
	// DisableFastRejoin makes a cooperative member ignore the leader's fast
	// re-join mark ([SyncResponse].Rejoin), as Java's, sarama's and kgo's
	// own members do: it then learns of the follow-up rebalance from its
	// next heartbeat. Default false: the member rejoins at once, at most
	// [rebalance.MaxFastRejoins] times in a row (see
	// [rebalance.FastRejoinGuard]). An eager
	// member never rejoins for the mark (it would stop everything it owns).
	DisableFastRejoin bool
}

// Machine is one member's side of the classic group protocol. It is a pure
// state machine: no clock, no goroutines, no I/O. The caller feeds it events
// with [Machine.Step] and carries out the returned actions in order.
// A Machine is not safe for concurrent use.
type Machine struct {
	instanceID string
	protocol   assignor.Protocol
	topics     []string

	phase      Phase
	memberID   string
	generation int32                      // generation of owned, or NoGeneration
	joined     int32                      // generation the last JoinGroup returned
	owned      []assignor.TopicPartitions // canonical
	last       []assignor.TopicPartitions // last assignment not lost (canonical)
	rejoin     bool                       // a rejoin trigger arrived during a join or sync
	noFast     bool                       // Config.DisableFastRejoin
	fast       rebalance.FastRejoinGuard

	backoff, backoffMax time.Duration // Config.RetryBackoff and RetryBackoffMax, defaults filled in
	finding             bool          // a FindCoordinator is due or in flight
	attempts            int           // consecutive coordinator errors
}

// New returns an unjoined machine for cfg. It copies what it keeps.
func New(cfg Config) *Machine {
	m := &Machine{
		instanceID: cfg.InstanceID,
		protocol:   cfg.Protocol,
		topics:     slices.Clone(cfg.Topics),
		generation: assignor.NoGeneration,
		joined:     assignor.NoGeneration,
		backoff:    cfg.RetryBackoff,
		backoffMax: cfg.RetryBackoffMax,
		noFast:     cfg.DisableFastRejoin,
	}
	if m.backoff <= 0 {
		m.backoff = DefaultRetryBackoff
	}
	if m.backoffMax <= 0 {
		m.backoffMax = DefaultRetryBackoffMax
	}
	m.backoffMax = max(m.backoffMax, m.backoff)
	return m
}

// Phase returns the member's phase.
func (m *Machine) Phase() Phase { return m.phase }

// MemberID returns the member ID, "" before the first successful join and
// after UNKNOWN_MEMBER_ID.
func (m *Machine) MemberID() string { return m.memberID }

// InstanceID returns the static instance ID, or "".
func (m *Machine) InstanceID() string { return m.instanceID }

// Generation returns the generation of the member's current assignment, or
// [assignor.NoGeneration]. Heartbeats and commits carry it.
func (m *Machine) Generation() int32 { return m.generation }

// Protocol returns the rebalance protocol the member follows.
func (m *Machine) Protocol() assignor.Protocol { return m.protocol }

// Owned returns a copy of the partitions the member owns, sorted by topic and
// partition.
func (m *Machine) Owned() []assignor.TopicPartitions { return assignor.CloneTopicPartitions(m.owned) }

// Topics returns a copy of the member's subscription.
func (m *Machine) Topics() []string { return slices.Clone(m.topics) }

// Step applies one event and returns the actions it causes, in the order the
// caller must carry them out. An event that does not apply to the current
// phase (a response nobody waits for, an answer for an older generation)
// returns no actions. Step never panics.
func (m *Machine) Step(ev Event) []Action {
	if m.phase == Stopped {
		return nil
	}
	switch ev := ev.(type) {
	case Start:
		if m.phase != Unjoined {
			return nil
		}
		return m.join(nil)
	case Leave:
		return m.leave()
	case SubscriptionChanged:
		m.topics = slices.Clone(ev.Topics)
		return m.trigger()
	case MetadataChanged:
		return m.trigger()
	case HeartbeatResponse:
		return m.groupError(ev.Generation, ev.Err)
	case CommitResponse:
		return m.groupError(ev.Generation, ev.Err)
	case JoinResponse:
		return m.joinResponse(ev)
	case SyncResponse:
		return m.syncResponse(ev)
	case FindCoordinatorResponse:
		return m.coordinatorFound(ev.Err)
	}
	return nil
}

// trigger handles a subscription or metadata change: a stable member rejoins
// keeping what it owns; a member in the middle of a rebalance rejoins once it
// has completed, because the leader may have assigned with the old view.
func (m *Machine) trigger() []Action {
	switch m.phase {
	case Stable:
		return m.join(nil)
	case Joining, Syncing:
		m.rejoin = true
	}
	return nil
}

// groupError handles a Heartbeat or OffsetCommit answer. While a JoinGroup
// or SyncGroup is in flight, or the coordinator is being looked up, such
// answers are ignored: the join or sync answer, or the next heartbeat,
// carries the coordinator's verdict. NOT_COORDINATOR and
// COORDINATOR_NOT_AVAILABLE look the coordinator up again without
// rejoining (Java's markCoordinatorUnknown); COORDINATOR_LOAD_IN_PROGRESS
// is left to the caller's next heartbeat, as other codes the rules do not
// name.
func (m *Machine) groupError(gen int32, code ErrorCode) []Action {
	if m.phase != Stable || m.finding || gen < m.generation {
		return nil
	}
	switch code {
	case None:
		m.attempts = 0
		return nil
	case NotCoordinator, CoordinatorNotAvailable:
		return m.rediscover(false)
	}
	acts, _ := m.membershipError(code)
	return acts
}

// membershipError applies the codes every group answer may carry about the
// member itself: REBALANCE_IN_PROGRESS rejoins, UNKNOWN_MEMBER_ID and
// ILLEGAL_GENERATION lose everything and rejoin, FENCED_INSTANCE_ID stops
// the member. ok is false for any other code, which the caller handles.
func (m *Machine) membershipError(code ErrorCode) (acts []Action, ok bool) {
	switch code {
	case RebalanceInProgress:
		return m.join(nil), true
	case UnknownMemberID:
		return m.lose(true), true
	case IllegalGeneration:
		return m.lose(false), true
	case FencedInstanceID:
		return m.fenced(code), true
	}
	return nil, false
}

func (m *Machine) joinResponse(ev JoinResponse) []Action {
	if m.phase != Joining || m.finding {
		return nil
	}
	switch ev.Err {
	case None:
		m.memberID = ev.MemberID
		m.joined = ev.Generation
		m.phase = Syncing
		m.attempts = 0
		return []Action{SendSync{MemberID: m.memberID, Generation: m.joined}}
	case MemberIDRequired:
		m.memberID = ev.MemberID
		return m.join(nil)
	}
	if acts, ok := m.coordinatorError(ev.Err); ok {
		return acts
	}
	if acts, ok := m.membershipError(ev.Err); ok {
		return acts
	}
	err := m.stopError(ev.Err, ErrJoinRejected) // before loseAll resets the generation
	acts := m.loseAll()
	m.phase = Stopped
	return append(acts, Stop{Err: err})
}

func (m *Machine) syncResponse(ev SyncResponse) []Action {
	if m.phase != Syncing || ev.Generation != m.joined {
		return nil
	}
	if ev.Err == None {
		m.attempts = 0
		return m.assign(ev)
	}
	if acts, ok := m.coordinatorError(ev.Err); ok {
		return acts
	}
	if acts, ok := m.membershipError(ev.Err); ok {
		return acts
	}
	return m.join(nil) // any other error: try again
}

// assign applies a successful SyncGroup, in Java's order: revoke what was
// taken away (stop delivery, callback, final commit), adopt the assignment,
// run the assignor's hook, then the assigned callback and delivery of the
// added partitions. A cooperative member that revoked anything rejoins at
// once (KIP-429's second round), and so does one whose assignment carries
// the leader's fast re-join mark, unless it ignores marks or the guard
// says the marks have gone on too long.
//
//	owned [t0p0 t0p1], assigned [t0p1 t0p2]: revoked [t0p0], added [t0p2]
func (m *Machine) assign(ev SyncResponse) []Action {
	assigned := assignor.NormalizeTopicPartitions(ev.Assigned)
	revoked := assignor.SubtractTopicPartitions(m.owned, assigned)
	added := assignor.SubtractTopicPartitions(assigned, m.owned)
	var acts []Action
	if len(revoked) > 0 {
		acts = append(acts, m.revoke(revoked)...)
	}
	m.owned = assigned
	m.last = assignor.CloneTopicPartitions(assigned)
	m.generation = ev.Generation
	acts = append(acts,
		OnAssignment{Assigned: assignor.CloneTopicPartitions(assigned), UserData: slices.Clone(ev.UserData), Generation: ev.Generation},
		OnAssigned{Partitions: added},
	)
	if len(added) > 0 {
		acts = append(acts, StartDelivery{Partitions: assignor.CloneTopicPartitions(added)})
	}
	m.phase = Stable
	fast := m.protocol == assignor.Cooperative && !m.noFast && m.fast.Honour(ev.Rejoin)
	if (len(revoked) > 0 && m.protocol == assignor.Cooperative) || m.rejoin || fast {
		acts = append(acts, m.join(nil)...)
	}
	return acts
}

// revoke gives up ps (a subset of owned) in order: stop delivery, the revoked
// callback, the final commit. It removes ps from owned.
func (m *Machine) revoke(ps []assignor.TopicPartitions) []Action {
	m.owned = assignor.SubtractTopicPartitions(m.owned, ps)
	return []Action{
		StopDelivery{Partitions: assignor.CloneTopicPartitions(ps)},
		OnRevoked{Partitions: assignor.CloneTopicPartitions(ps)},
		CommitOffsets{Partitions: assignor.CloneTopicPartitions(ps), Generation: m.generation},
	}
}

// join sends a JoinGroup, after the revocations the protocol requires: in
// eager mode everything owned, in cooperative mode the partitions of topics
// the member no longer subscribes to (Java's onJoinPrepare; the KIP-429
// design text revokes nothing here). acts are prepended. While the
// coordinator is being looked up, the JoinGroup waits for it
// (coordinatorFound sends it).
func (m *Machine) join(acts []Action) []Action {
	return m.joinAfter(acts, 0)
}

// joinAfter is join with a JoinGroup sent after backoff.
func (m *Machine) joinAfter(acts []Action, backoff time.Duration) []Action {
	var drop []assignor.TopicPartitions
	if m.protocol == assignor.Cooperative {
		drop = outsideTopics(m.owned, m.topics)
	} else {
		drop = assignor.CloneTopicPartitions(m.owned)
	}
	if len(drop) > 0 {
		acts = append(acts, m.revoke(drop)...)
	}
	m.phase = Joining
	if m.finding {
		return acts
	}
	m.rejoin = false
	return append(acts, SendJoin{
		MemberID:       m.memberID,
		InstanceID:     m.instanceID,
		Topics:         slices.Clone(m.topics),
		Owned:          assignor.CloneTopicPartitions(m.owned),
		Generation:     m.generation,
		LastAssignment: assignor.CloneTopicPartitions(m.last),
		Backoff:        backoff,
	})
}

// lose handles UNKNOWN_MEMBER_ID (resetID) and ILLEGAL_GENERATION: every
// owned partition is lost, the generation is reset (and the member ID with
// UNKNOWN_MEMBER_ID), and the member rejoins owning nothing.
func (m *Machine) lose(resetID bool) []Action {
	acts := m.loseAll()
	if resetID {
		m.memberID = ""
	}
	return m.join(acts)
}

// loseAll declares every owned partition lost and resets the generation.
func (m *Machine) loseAll() []Action {
	var acts []Action
	if len(m.owned) > 0 {
		acts = []Action{
			StopDelivery{Partitions: assignor.CloneTopicPartitions(m.owned)},
			OnLost{Partitions: assignor.CloneTopicPartitions(m.owned)},
		}
	}
	m.owned, m.last = nil, nil
	m.generation, m.joined = assignor.NoGeneration, assignor.NoGeneration
	return acts
}

// fenced handles FENCED_INSTANCE_ID: everything is lost and the member stops
// for good; it never rejoins.
func (m *Machine) fenced(code ErrorCode) []Action {
	err := m.stopError(code, ErrFenced) // before loseAll resets the generation
	acts := m.loseAll()
	m.phase = Stopped
	return append(acts, Stop{Err: err})
}

// leave closes the member: it revokes what it owns (stop delivery, callback,
// final commit), sends a LeaveGroup if it is a dynamic member that has an ID,
// and stops.
func (m *Machine) leave() []Action {
	var acts []Action
	if len(m.owned) > 0 {
		acts = m.revoke(assignor.CloneTopicPartitions(m.owned))
	}
	if m.instanceID == "" && m.memberID != "" {
		acts = append(acts, SendLeave{MemberID: m.memberID})
	}
	m.phase = Stopped
	return append(acts, Stop{})
}

func (m *Machine) stopError(code ErrorCode, err error) error {
	return &StopError{MemberID: m.memberID, InstanceID: m.instanceID, Generation: m.generation, Code: code, Err: err}
}

// outsideTopics returns the part of the canonical set tps whose topics are not
// in topics, as a new canonical set (nil if empty).
func outsideTopics(tps []assignor.TopicPartitions, topics []string) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for _, tp := range tps {
		if !slices.Contains(topics, tp.Topic) {
			out = append(out, assignor.TopicPartitions{Topic: tp.Topic, Partitions: slices.Clone(tp.Partitions)})
		}
	}
	return out
}
