package assignor

import (
	"errors"
	"strconv"
	"strings"
)

// Errors for a group that cannot be assigned at all, returned (wrapped in a
// [*MemberError] or [*TopicError]) by [NewIndex] and so by every assignor in
// this module.
var (
	ErrEmptyMemberID   = errors.New("assignor: empty member ID")
	ErrDuplicateMember = errors.New("assignor: duplicate member ID")
	ErrEmptyTopicName  = errors.New("assignor: empty topic name")
	ErrDuplicateTopic  = errors.New("assignor: duplicate topic in metadata")
	ErrReplicaRacks    = errors.New("assignor: replica racks do not match the partitions")
)

// Plan violations, returned (wrapped in a [*PartitionError] or
// [*MemberError]) by [CheckPlan].
var (
	ErrAssignedTwice   = errors.New("assignor: partition assigned to more than one member")
	ErrNotSubscribed   = errors.New("assignor: partition assigned to a member that does not subscribe to its topic")
	ErrUnknownMember   = errors.New("assignor: plan names a member that is not in the group")
	ErrMissingMember   = errors.New("assignor: plan has no entry for a member of the group")
	ErrOutsideMetadata = errors.New("assignor: partition is not in the metadata")
	ErrUnassigned      = errors.New("assignor: subscribed partition left unassigned")
	ErrNotOwner        = errors.New("assignor: claimed partition assigned to a member that is not its valid owner")
	ErrUnsorted        = errors.New("assignor: plan entries are not sorted")
)

// MemberError is an error about one member.
type MemberError struct {
	Member string
	Err    error
}

func (e *MemberError) Error() string {
	return prefixed(e.Err, "member "+strconv.Quote(e.Member))
}

func (e *MemberError) Unwrap() error { return e.Err }

// TopicError is an error about one topic of the metadata.
type TopicError struct {
	Topic string
	Err   error
}

func (e *TopicError) Error() string {
	return prefixed(e.Err, "topic "+strconv.Quote(e.Topic))
}

func (e *TopicError) Unwrap() error { return e.Err }

// PartitionError is an error about one partition, and the member (and the
// generation of its claim, where one is involved) at fault.
type PartitionError struct {
	Member     string
	Topic      string
	Partition  int32
	Generation int32 // the member's claim generation, or NoGeneration
	Err        error
}

func (e *PartitionError) Error() string {
	where := e.Topic + "/" + itoa(int64(e.Partition))
	if e.Partition < 0 && e.Err == ErrUnsorted {
		where = "topic " + strconv.Quote(e.Topic)
	}
	if e.Member != "" {
		where = "member " + strconv.Quote(e.Member) + ": " + where
	}
	if e.Generation != NoGeneration {
		where += " (generation " + itoa(int64(e.Generation)) + ")"
	}
	return prefixed(e.Err, where)
}

func (e *PartitionError) Unwrap() error { return e.Err }

// prefixed renders "assignor: where: rest" for an error whose text starts
// with "assignor: ".
func prefixed(err error, where string) string {
	msg := "<nil>"
	if err != nil {
		msg = err.Error()
	}
	return "assignor: " + where + ": " + strings.TrimPrefix(msg, "assignor: ")
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
