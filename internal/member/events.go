package member

import (
	"strconv"
	"time"

	"github.com/kgroup/assignor"
)

// ErrorCode is a Kafka protocol error code, as the coordinator returns it in
// a JoinGroup, SyncGroup, Heartbeat or OffsetCommit response. Only the codes
// the rules below name have constants; any other code is handled as the
// event's documentation says.
type ErrorCode int16

// The error codes the member-side rules react to (Kafka's numbering).
const (
	None                      ErrorCode = 0
	CoordinatorLoadInProgress ErrorCode = 14
	CoordinatorNotAvailable   ErrorCode = 15
	NotCoordinator            ErrorCode = 16
	IllegalGeneration         ErrorCode = 22
	UnknownMemberID           ErrorCode = 25
	RebalanceInProgress       ErrorCode = 27
	InconsistentGroupProtocol ErrorCode = 23
	MemberIDRequired          ErrorCode = 79
	FencedInstanceID          ErrorCode = 82
)

func (c ErrorCode) String() string {
	switch c {
	case None:
		return "NONE"
	case CoordinatorLoadInProgress:
		return "COORDINATOR_LOAD_IN_PROGRESS"
	case CoordinatorNotAvailable:
		return "COORDINATOR_NOT_AVAILABLE"
	case NotCoordinator:
		return "NOT_COORDINATOR"
	case IllegalGeneration:
		return "ILLEGAL_GENERATION"
	case UnknownMemberID:
		return "UNKNOWN_MEMBER_ID"
	case RebalanceInProgress:
		return "REBALANCE_IN_PROGRESS"
	case InconsistentGroupProtocol:
		return "INCONSISTENT_GROUP_PROTOCOL"
	case MemberIDRequired:
		return "MEMBER_ID_REQUIRED"
	case FencedInstanceID:
		return "FENCED_INSTANCE_ID"
	}
	return "ERROR(" + strconv.Itoa(int(c)) + ")"
}

// Event is an input to [Machine.Step]: something the application asked for
// or a coordinator response. The concrete types are the ones in this file.
type Event interface{ event() }

// Start asks an unjoined member to join the group for the first time.
type Start struct{}

// Leave asks the member to leave the group for good (the application closes
// the consumer).
type Leave struct{}

// SubscriptionChanged replaces the member's subscription.
type SubscriptionChanged struct{ Topics []string }

// MetadataChanged reports that the metadata of a subscribed topic changed
// (a partition count changed, a topic appeared or disappeared), which in the
// classic protocol makes a member rejoin.
type MetadataChanged struct{}

// HeartbeatResponse answers a Heartbeat the member sent in Generation.
type HeartbeatResponse struct {
	Generation int32
	Err        ErrorCode
}

// CommitResponse answers an OffsetCommit the member sent in Generation.
type CommitResponse struct {
	Generation int32
	Err        ErrorCode
}

// JoinResponse answers the member's last JoinGroup. On success MemberID and
// Generation are the member's new identity; with [MemberIDRequired], MemberID
// is the ID to rejoin with.
type JoinResponse struct {
	Err        ErrorCode
	MemberID   string
	Generation int32
}

// SyncResponse answers the member's SyncGroup for Generation (the generation
// its JoinGroup returned). Assigned is the member's whole assignment; order
// and duplicates do not matter.
//
// Rejoin is the leader's fast re-join mark: the plan withheld partitions
// and asks every member to rejoin at once, rather than at its next
// heartbeat. The caller reads it from the assignment's user data
// (wire.DecodeRejoinEnvelope) and passes the rest as UserData, the
// assignor's own.
type SyncResponse struct {
	Generation int32
	Err        ErrorCode
	Assigned   []assignor.TopicPartitions
	UserData   []byte
	Rejoin     bool
}

// FindCoordinatorResponse answers the lookup a [FindCoordinator] action
// asked for: [None] when the caller knows the group's coordinator again,
// any other code (such as [CoordinatorNotAvailable] while a new coordinator
// is being elected) when it does not.
type FindCoordinatorResponse struct{ Err ErrorCode }

func (Start) event()                   {}
func (Leave) event()                   {}
func (SubscriptionChanged) event()     {}
func (MetadataChanged) event()         {}
func (HeartbeatResponse) event()       {}
func (CommitResponse) event()          {}
func (JoinResponse) event()            {}
func (SyncResponse) event()            {}
func (FindCoordinatorResponse) event() {}

// Action is an output of [Machine.Step]: something the caller must do, in
// the order given. Actions never alias the machine's state.
type Action interface{ action() }

// SendJoin asks the caller to send a JoinGroup with this subscription.
type SendJoin struct {
	MemberID   string // "" on a first join (or after UNKNOWN_MEMBER_ID)
	InstanceID string
	Topics     []string
	// Owned are the partitions the member claims (subscription v1+): all it
	// still owns in cooperative mode, none in eager mode.
	Owned []assignor.TopicPartitions
	// Generation is the generation of the claim, or assignor.NoGeneration.
	Generation int32
	// LastAssignment is the assignment of the last successful SyncGroup that
	// the member has not lost, for member-side hooks
	// (assignor.SubscriptionUserDataAssignor): an eager sticky assignor
	// encodes it in the user data because Owned is empty in eager mode.
	LastAssignment []assignor.TopicPartitions
	// Backoff is how long to wait before sending: 0 (at once), except
	// after COORDINATOR_LOAD_IN_PROGRESS, when the coordinator is right but
	// still loading the group (see [FindCoordinator] for the backoff).
	Backoff time.Duration
}

// FindCoordinator asks the caller to wait Backoff, then look the group's
// coordinator up again (a FindCoordinator request) and step the answer as
// a [FindCoordinatorResponse]. Until that answer the member sends nothing
// to the group (no heartbeat, commit or JoinGroup; see
// [Machine.FindingCoordinator]); it keeps, and goes on processing, what
// it owns.
//
// Attempt counts the consecutive coordinator errors, from 1; it goes back
// to 0 after a successful JoinGroup, SyncGroup or heartbeat. Backoff is
// Config.RetryBackoff, doubled for each attempt after the first and capped
// at Config.RetryBackoffMax (Java's exponential backoff, without its
// jitter: the machine draws no random numbers; a caller may add some). The
// machine retries without limit, as Java's consumer does; a caller that
// wants a limit, as sarama's Consumer.Group.Rebalance.Retry.Max, steps
// [Leave] once Attempt exceeds it.
type FindCoordinator struct {
	Backoff time.Duration
	Attempt int
}

// SendSync asks the caller to send a SyncGroup for Generation; the leader
// computes the plan first.
type SendSync struct {
	MemberID   string
	Generation int32
}

// SendLeave asks the caller to send a LeaveGroup. Static members never send
// one: they keep their place until their session expires (KIP-345).
type SendLeave struct {
	MemberID   string
	InstanceID string
}

// StopDelivery asks the caller to stop delivering records of Partitions.
type StopDelivery struct{ Partitions []assignor.TopicPartitions }

// StartDelivery asks the caller to start delivering records of Partitions.
type StartDelivery struct{ Partitions []assignor.TopicPartitions }

// OnRevoked is the partitions-revoked callback: the member gives the
// partitions up in an orderly way (the application may commit here).
type OnRevoked struct{ Partitions []assignor.TopicPartitions }

// OnLost is the partitions-lost callback: the member learned that it no
// longer owns the partitions and must not commit for them.
type OnLost struct{ Partitions []assignor.TopicPartitions }

// CommitOffsets asks the caller to commit the final offsets of Partitions in
// Generation, before the member rejoins.
type CommitOffsets struct {
	Partitions []assignor.TopicPartitions
	Generation int32
}

// OnAssignment is the assignor's member-side hook
// (assignor.AssignmentObserver) with the member's whole new assignment.
type OnAssignment struct {
	Assigned   []assignor.TopicPartitions
	UserData   []byte
	Generation int32
}

// OnAssigned is the partitions-assigned callback with the partitions the
// member gained (possibly none: Java calls it on every assignment).
type OnAssigned struct{ Partitions []assignor.TopicPartitions }

// Stop reports that the member left the group for good. Err is nil after
// [Leave], and names the reason otherwise.
type Stop struct{ Err error }

func (SendJoin) action()        {}
func (FindCoordinator) action() {}
func (SendSync) action()        {}
func (SendLeave) action()       {}
func (StopDelivery) action()    {}
func (StartDelivery) action()   {}
func (OnRevoked) action()       {}
func (OnLost) action()          {}
func (CommitOffsets) action()   {}
func (OnAssignment) action()    {}
func (OnAssigned) action()      {}
func (Stop) action()            {}

// formatSet renders ps as in [assignor.FormatTopicPartitions], or "[]".
func formatSet(ps []assignor.TopicPartitions) string {
	if len(ps) == 0 {
		return "[]"
	}
	return assignor.FormatTopicPartitions(ps)
}

func formatGeneration(g int32) string { return strconv.Itoa(int(g)) }

func (a SendJoin) String() string {
	s := "SendJoin member=" + strconv.Quote(a.MemberID)
	if a.InstanceID != "" {
		s += " instance=" + strconv.Quote(a.InstanceID)
	}
	s += " owned=" + formatSet(a.Owned) + " gen=" + formatGeneration(a.Generation) + " last=" + formatSet(a.LastAssignment)
	if a.Backoff > 0 {
		s += " after=" + a.Backoff.String()
	}
	return s
}

func (a FindCoordinator) String() string {
	return "FindCoordinator after=" + a.Backoff.String() + " attempt=" + strconv.Itoa(a.Attempt)
}

func (a SendSync) String() string {
	return "SendSync member=" + strconv.Quote(a.MemberID) + " gen=" + formatGeneration(a.Generation)
}

func (a SendLeave) String() string { return "SendLeave member=" + strconv.Quote(a.MemberID) }

func (a StopDelivery) String() string  { return "StopDelivery " + formatSet(a.Partitions) }
func (a StartDelivery) String() string { return "StartDelivery " + formatSet(a.Partitions) }
func (a OnRevoked) String() string     { return "OnRevoked " + formatSet(a.Partitions) }
func (a OnLost) String() string        { return "OnLost " + formatSet(a.Partitions) }
func (a OnAssigned) String() string    { return "OnAssigned " + formatSet(a.Partitions) }

func (a CommitOffsets) String() string {
	return "CommitOffsets " + formatSet(a.Partitions) + " gen=" + formatGeneration(a.Generation)
}

func (a OnAssignment) String() string {
	return "OnAssignment " + formatSet(a.Assigned) + " gen=" + formatGeneration(a.Generation)
}

func (a Stop) String() string {
	if a.Err == nil {
		return "Stop"
	}
	return "Stop: " + a.Err.Error()
}
