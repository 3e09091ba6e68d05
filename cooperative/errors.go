package cooperative

import (
	"errors"
	"strconv"
)

// ErrNoInner is returned by Assign, [Split] and [SplitWithConfig] when there
// is no inner assignor (Wrap(nil)).
var ErrNoInner = errors.New("cooperative: no inner assignor")

// Error is returned (as *Error) by a wrapper's Assign, [Split] and
// [SplitWithConfig] when no safe plan can be produced: the inner assignor
// failed, or its plan breaks the [assignor.Assignor] contract, or the
// wrapper's self-check found a violation in the final plan.
type Error struct {
	// Assignor is the wrapper's name, "cooperative-" + the inner name.
	Assignor string
	// Err is the inner assignor's error, or every violation found, joined
	// with errors.Join: each a [*assignor.PartitionError] or
	// [*assignor.MemberError] wrapping one of the assignor.ErrXxx sentinels
	// and naming the member, topic, partition and generation at fault.
	Err error
}

func (e *Error) Error() string {
	msg := "<nil>"
	if e.Err != nil {
		msg = e.Err.Error()
	}
	return "cooperative: " + strconv.Quote(e.Assignor) + ": " + msg
}

func (e *Error) Unwrap() error { return e.Err }
