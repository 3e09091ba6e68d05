package assignortest

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kgroup/assignor"
)

// CaseError is what one case found in one call of Assign: every violation
// in its plan, the rule they break and how to keep it, with the group and
// the plan, so that a failure can be read without rerunning it. Its text
// starts with the case (and step), then the rule and the fix on one line,
// the violations, one a line (a panic's with its stack), then the group and
// the plan, compactly (one line a member, in the group's order) and cut
// short for big groups; a partition assigned twice names every member
// holding it, and entries out of order say the order expected:
//
//	unknown-topics: 1 violation
//	  rule: Every partition of a topic that some member subscribes to is assigned (…). fix: Assign each partition in g.Topics whose topic has a subscriber; …
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
// The text is printable: bytes and runes that are not (a NUL in a topic
// name, say) are escaped as in a Go string literal, and a name that needs
// it (empty, with spaces or escapes) is quoted.
//
// Err wraps the violations (joined with [errors.Join] when there are
// several), so errors.Is matches the root package's sentinels (such as
// [assignor.ErrAssignedTwice], [assignor.ErrNotOwner]) and this package's
// ([ErrOrderDependent], [ErrUnbalanced] and the rest), and errors.As finds
// the [*assignor.PartitionError], [*assignor.MemberError] or
// [*assignor.TopicError] with the details.
type CaseError struct {
	// Case is the name of the case, as [Run] names its subtest.
	Case string
	// Step says which of the case's groups, or which round, the call was;
	// "" when the case has only one.
	Step string
	// Rule is the rule the violations break, and Fix how a correct
	// assignor keeps it, a sentence or two each: the case's own for the
	// violations it probes, else the rule of each kind of violation found
	// (a panic, a plan [assignor.CheckPlan] rejects).
	Rule, Fix string
	// Group is the group Assign was given, as it was before the call; nil
	// when the failure is about no call (such as an empty Name).
	Group *assignor.Group
	// Plan is a copy of the plan Assign returned, taken before the kit
	// checked or changed anything; nil when Assign failed or panicked, or
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
	advice := ""
	if e.Rule != "" || e.Fix != "" {
		advice = "rule: " + e.Rule + " fix: " + e.Fix
	}
	if len(errs) == 1 && e.Group == nil && e.Plan == nil {
		b.WriteString(": " + indent(errs[0].Error()))
		if advice != "" {
			b.WriteString("\n  " + advice)
		}
		return printable(b.String())
	}
	fmt.Fprintf(&b, ": %d violation%s", len(errs), plural(len(errs)))
	if advice != "" {
		b.WriteString("\n  " + advice)
	}
	for i, err := range errs {
		if i == maxViolations {
			fmt.Fprintf(&b, "\n  … and %d more", len(errs)-i)
			break
		}
		b.WriteString("\n  " + indent(err.Error()))
	}
	if e.Group != nil {
		fmt.Fprintf(&b, "\n  group (%d member%s, %d topic%s):", len(e.Group.Members), plural(len(e.Group.Members)), len(e.Group.Topics), plural(len(e.Group.Topics)))
		writeLines(&b, groupLines(*e.Group))
	}
	if e.Plan != nil {
		b.WriteString("\n  plan:")
		writeLines(&b, planLines(*e.Plan))
	}
	return printable(b.String())
}

func (e *CaseError) Unwrap() error { return e.Err }

// indent indents the lines after the first of a violation's text (a
// panic's stack, an assignor's error of several lines) two spaces deeper
// than the violation, so that they read as part of it.
func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }

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
	if len(lines) == 0 {
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
//	"": t0
//	topics: t0(6)+racks t1[3 1 0 2] t2(2)
//
// A topic whose partitions are 0..n-1 in order prints as name(n); +racks
// marks a topic with replica racks. Names print as [name] does.
func groupLines(g assignor.Group) []string {
	lines := make([]string, 0, len(g.Members)+1)
	for _, m := range g.Members {
		var b strings.Builder
		b.WriteString(name(m.ID))
		var about []string
		if m.InstanceID != "" {
			about = append(about, "instance "+name(m.InstanceID))
		}
		if m.Rack != "" {
			about = append(about, "rack "+name(m.Rack))
		}
		if len(about) > 0 {
			b.WriteString(" (" + strings.Join(about, ", ") + ")")
		}
		b.WriteString(":")
		if len(m.Topics) == 0 {
			b.WriteString(" no subscriptions")
		}
		for _, t := range m.Topics {
			b.WriteString(" " + name(t))
		}
		if len(m.Owned) > 0 {
			b.WriteString("; owns" + formatTopicPartitions(m.Owned))
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
	var topics strings.Builder
	topics.WriteString("topics:")
	for _, t := range g.Topics {
		n := int32(len(t.Partitions))
		if slices.Equal(t.Partitions, assignor.Partitions(n)) {
			fmt.Fprintf(&topics, " %s(%d)", name(t.Name), n)
		} else {
			topics.WriteString(formatTopicPartitions([]assignor.TopicPartitions{{Topic: t.Name, Partitions: t.Partitions}}))
		}
		if t.ReplicaRacks != nil {
			topics.WriteString("+racks")
		}
	}
	return append(lines, topics.String())
}

// planLines renders plan as [assignor.Plan.String] does, one member a line
// and "follow-up rebalance" last if the plan asks for one, with names
// printed as [name] does:
//
//	a: t0[0 1] revoke t1[2] userdata=4B
//	b:
func planLines(plan assignor.Plan) []string {
	lines := make([]string, 0, len(plan.Members)+1)
	for _, mp := range plan.Members {
		line := name(mp.Member) + ":" + formatTopicPartitions(mp.Assigned)
		if len(mp.Revoked) > 0 {
			line += " revoke" + formatTopicPartitions(mp.Revoked)
		}
		if len(mp.UserData) > 0 {
			line += fmt.Sprintf(" userdata=%dB", len(mp.UserData))
		}
		lines = append(lines, line)
	}
	if plan.FollowUp {
		lines = append(lines, "follow-up rebalance")
	}
	return lines
}

// formatTopicPartitions renders tps as " t0[0 1] t1[3]", each topic after a
// space, names printed as [name] does.
func formatTopicPartitions(tps []assignor.TopicPartitions) string {
	var b strings.Builder
	for _, tp := range tps {
		b.WriteString(" " + name(tp.Topic) + "[")
		for i, p := range tp.Partitions {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString(strconv.FormatInt(int64(p), 10))
		}
		b.WriteString("]")
	}
	return b.String()
}

// name returns s as a dump prints a member ID, topic, instance or rack:
// as it is when that is unambiguous, else quoted as a Go string literal
// (empty, or with a space, a quote, a bracket, a colon, a comma, a
// semicolon, a backslash or anything not printable).
func name(s string) string {
	if s == "" || strings.ContainsAny(s, " \"[]:,;()\\") || !isPrintable(s) {
		return strconv.Quote(s)
	}
	return s
}

// isPrintable reports whether s is valid UTF-8 of printable runes only.
func isPrintable(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// printable returns s with every byte or rune that is not printable but
// newlines escaped as in a Go string literal (\x00, \t, \u200b), so that
// the text of a failure is printable whatever the assignor returned.
func printable(s string) string {
	if isPrintable(strings.ReplaceAll(s, "\n", "")) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || unicode.IsPrint(r):
			b.WriteString(s[i : i+size])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
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

// cut shortens s to at most maxLineLength bytes, at a rune boundary.
func cut(s string) string {
	if len(s) <= maxLineLength {
		return s
	}
	end := maxLineLength
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + " …"
}
