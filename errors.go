package assignor

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
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
	ErrWeights         = errors.New("assignor: weights do not match the partitions, or one is below UnknownWeight")
)

// Plan violations, returned (wrapped in a [*PartitionError] or
// [*MemberError]) by [CheckPlan] and by the cooperative wrapper.
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

// ErrFlatPlan is returned (wrapped, naming the culprit) by [AssignIndex] and
// [Index.CheckFlat] for a [FlatPlan] that does not fit its Index: arrays of
// the wrong length, or a holder that is no member number. Only a bug in the
// assignor that answered can cause it.
var ErrFlatPlan = errors.New("assignor: flat plan does not fit the index")

// The errors' texts put the sentinel's first and the culprit after it, so
// that no prefix is ever repeated or stripped:
//
//	assignor: duplicate member ID: member "b"
//	assignor: partition assigned to more than one member: t/0: member "b" (generation 3) and member "a"

// MemberError is an error about one member.
type MemberError struct {
	Member string
	Err    error
}

func (e *MemberError) Error() string {
	return errorText(e.Err) + ": member " + strconv.Quote(e.Member)
}

func (e *MemberError) Unwrap() error { return e.Err }

// TopicError is an error about one topic of the metadata.
type TopicError struct {
	Topic string
	Err   error
}

func (e *TopicError) Error() string {
	return errorText(e.Err) + ": topic " + strconv.Quote(e.Topic)
}

func (e *TopicError) Unwrap() error { return e.Err }

// PartitionError is an error about one partition, and the member (and the
// generation of its claim, where one is involved) at fault.
type PartitionError struct {
	// Member is the member at fault, or "" when none is (a partition left
	// unassigned).
	Member string
	// Other is, for [ErrAssignedTwice], the other member that holds the
	// partition; otherwise "".
	Other     string
	Topic     string
	Partition int32 // -1 for an error about a member's whole topic list (ErrUnsorted)
	// Generation is the member's claim generation, or NoGeneration.
	Generation int32
	Err        error
}

func (e *PartitionError) Error() string {
	var b strings.Builder
	b.WriteString(errorText(e.Err))
	b.WriteString(": ")
	if e.Partition < 0 && errors.Is(e.Err, ErrUnsorted) {
		b.WriteString("topic ")
		b.WriteString(strconv.Quote(e.Topic))
	} else {
		b.WriteString(plainOrQuoted(e.Topic))
		b.WriteString("/")
		b.WriteString(itoa(int64(e.Partition)))
	}
	if e.Member != "" {
		b.WriteString(": member ")
		b.WriteString(strconv.Quote(e.Member))
		if e.Generation != NoGeneration {
			b.WriteString(" (generation ")
			b.WriteString(itoa(int64(e.Generation)))
			b.WriteString(")")
		}
	}
	if e.Other != "" {
		b.WriteString(" and member ")
		b.WriteString(strconv.Quote(e.Other))
	}
	return b.String()
}

func (e *PartitionError) Unwrap() error { return e.Err }

func errorText(err error) string {
	if err == nil {
		return "assignor: <nil>"
	}
	return err.Error()
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// plainOrQuoted returns s as it is when every rune of it is printable and
// not a space, else quoted: a name read from the wire may hold anything,
// and an error stays one printable line.
func plainOrQuoted(s string) string {
	for _, r := range s {
		if !unicode.IsGraphic(r) || unicode.IsSpace(r) {
			return strconv.Quote(s)
		}
	}
	if s == "" {
		return `""`
	}
	return s
}
