package assignortest

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kgroup/assignor"
)

// CaseError is what one case found in one call of Assign: every violation
// in its plan, with the group and the plan, so that a failure can be read
// without rerunning it. Its text starts with the case (and step) and lists
// the violations, one a line, then the group and the plan, compactly (one
// line a member, in the group's order) and cut short for big groups; a
// partition assigned twice names every member holding it, and entries out of
// order say the order expected:
//
//	unknown-topics: 1 violation
//	  assignor: subscribed partition left unassigned: t0/2
//	  group (3 members, 1 topic):
//	    a: t0 missing
//	    b: missing also-missing
//	    c: also-missing t0
//	    topics: t0(3)
//	  plan:
//	    a: t0[0]
//	    b:
//	    c: t0[1]
//
// Err wraps the violations (joined with [errors.Join] when there are
// several), so errors.Is matches the root package's sentinels (such as
// [assignor.ErrAssignedTwice], [assignor.ErrNotOwner]) and this package's
// ([ErrOrderDependent], [ErrUnbalanced] and the rest), and errors.As finds
// the [*assignor.PartitionError] or [*assignor.MemberError] with the
// details.
type CaseError struct {
	// Case is the name of the case, as [Run] names its subtest.
	Case string
	// Step says which of the case's groups, or which round, the call was;
	// "" when the case has only one.
	Step string
	// Group is the group Assign was given, as it was before the call; nil
	// when the failure is about no call (such as an empty Name).
	Group *assignor.Group
	// Plan is the plan Assign returned; nil when it failed, panicked, or
	// the failure is about no call.
	Plan *assignor.Plan
	// Err is the violation, or every violation joined.
	Err error
}

// Limits of what a CaseError prints; Err keeps everything.
const (
	maxViolations = 10  // violation lines
	maxDumpLines  = 12  // member lines of the group, lines of the plan
	maxLineLength = 200 // bytes of one dumped line
)

func (e *CaseError) Error() string {
	var b strings.Builder
	b.WriteString(e.Case)
	if e.Step != "" {
		b.WriteString(" (" + e.Step + ")")
	}
	errs := unjoin(e.Err)
	if len(errs) == 1 && e.Group == nil && e.Plan == nil {
		b.WriteString(": " + errs[0].Error())
		return b.String()
	}
	fmt.Fprintf(&b, ": %d violation%s", len(errs), plural(len(errs)))
	for i, err := range errs {
		if i == maxViolations {
			fmt.Fprintf(&b, "\n  … and %d more", len(errs)-i)
			break
		}
		b.WriteString("\n  " + strings.ReplaceAll(err.Error(), "\n", "\n  "))
	}
	if e.Group != nil {
		fmt.Fprintf(&b, "\n  group (%d member%s, %d topic%s):", len(e.Group.Members), plural(len(e.Group.Members)), len(e.Group.Topics), plural(len(e.Group.Topics)))
		writeLines(&b, groupLines(*e.Group))
	}
	if e.Plan != nil {
		b.WriteString("\n  plan:")
		writeLines(&b, strings.Split(strings.TrimSuffix(e.Plan.String(), "\n"), "\n"))
	}
	return b.String()
}

func (e *CaseError) Unwrap() error { return e.Err }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// writeLines writes lines indented, each cut to maxLineLength; of more than
// maxDumpLines lines it writes the first ones, how many it leaves out, and
// the last (the topics, or "follow-up rebalance").
func writeLines(b *strings.Builder, lines []string) {
	if len(lines) == 1 && lines[0] == "" {
		b.WriteString(" (no members)")
		return
	}
	if n := len(lines); n > maxDumpLines {
		keep := maxDumpLines - 2
		lines = append(lines[:keep:keep], fmt.Sprintf("… %d more", n-keep-1), lines[n-1])
	}
	for _, line := range lines {
		b.WriteString("\n    " + cut(line))
	}
}

// groupLines renders g one member a line, in the group's order, then its
// topics:
//
//	a (instance i-a, rack r1): t0 t1; owns t0[0 1] t1[3] at generation 4; user data 3B
//	d: t0 t1 t2
//	e: no subscriptions
//	topics: t0(6)+racks t1[3 1 0 2] t2(2)
//
// A topic whose partitions are 0..n-1 in order prints as name(n); +racks
// marks a topic with replica racks.
func groupLines(g assignor.Group) []string {
	lines := make([]string, 0, len(g.Members)+1)
	for _, m := range g.Members {
		var b strings.Builder
		b.WriteString(m.ID)
		if m.ID == "" {
			b.WriteString(`""`)
		}
		var about []string
		if m.InstanceID != "" {
			about = append(about, "instance "+m.InstanceID)
		}
		if m.Rack != "" {
			about = append(about, "rack "+m.Rack)
		}
		if len(about) > 0 {
			b.WriteString(" (" + strings.Join(about, ", ") + ")")
		}
		b.WriteString(": ")
		if len(m.Topics) == 0 {
			b.WriteString("no subscriptions")
		}
		b.WriteString(strings.Join(m.Topics, " "))
		if len(m.Owned) > 0 {
			b.WriteString("; owns " + assignor.FormatTopicPartitions(m.Owned))
			if m.Generation >= 0 {
				fmt.Fprintf(&b, " at generation %d", m.Generation)
			} else {
				b.WriteString(" without generation")
			}
		}
		if len(m.UserData) > 0 {
			fmt.Fprintf(&b, "; user data %dB", len(m.UserData))
		}
		lines = append(lines, b.String())
	}
	topics := make([]string, len(g.Topics))
	for i, t := range g.Topics {
		n := int32(len(t.Partitions))
		if slices.Equal(t.Partitions, assignor.Partitions(n)) {
			topics[i] = fmt.Sprintf("%s(%d)", t.Name, n)
		} else {
			topics[i] = assignor.FormatTopicPartitions([]assignor.TopicPartitions{{Topic: t.Name, Partitions: t.Partitions}})
		}
		if t.ReplicaRacks != nil {
			topics[i] += "+racks"
		}
	}
	return append(lines, "topics: "+strings.Join(topics, " "))
}

// explain adds to a violation from [assignor.CheckPlan] what its text leaves
// out: every member holding a partition assigned twice, and for entries out
// of order, the order expected.
func explain(err error, plan assignor.Plan) error {
	var pe *assignor.PartitionError
	var me *assignor.MemberError
	switch {
	case errors.Is(err, assignor.ErrUnsorted) && errors.As(err, &pe):
		if i := entryIndex(plan, pe.Member); i >= 0 {
			got := plan.Members[i].Assigned
			return fmt.Errorf("%w: want topics in name order, each with its partitions ascending and distinct: %s, got %s",
				err, cut(assignor.FormatTopicPartitions(assignor.NormalizeTopicPartitions(got))), cut(assignor.FormatTopicPartitions(got)))
		}
	case errors.Is(err, assignor.ErrUnsorted) && errors.As(err, &me):
		if i := entryIndex(plan, me.Member); i > 0 {
			return fmt.Errorf("%w: want member entries in member ID order, so %q before %q, not after it",
				err, me.Member, plan.Members[i-1].Member)
		}
	}
	return err
}

// entryIndex returns the index of member's first entry in plan, or -1; the
// plan may be out of order, so it searches linearly.
func entryIndex(plan assignor.Plan, member string) int {
	return slices.IndexFunc(plan.Members, func(mp assignor.MemberPlan) bool { return mp.Member == member })
}

// cut shortens s to maxLineLength bytes.
func cut(s string) string {
	if len(s) > maxLineLength {
		return s[:maxLineLength] + " …"
	}
	return s
}
