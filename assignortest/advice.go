package assignortest

import (
	"errors"
	"slices"
	"strings"

	"github.com/kgroup/assignor"
)

// advice is a rule an assignor must keep and how a correct one keeps it,
// one or two sentences each, for the rule line of a [CaseError].
type advice struct {
	sentinel  error // the violation the rule is about
	rule, fix string
}

// general is the advice for violations any case may find: a panic, an
// error for a valid group, a plan [assignor.CheckPlan] rejects. A case's
// own advice (testCase.rule, fix) takes over for the violations it probes
// (testCase.probes). The order matters: a violation gets the first entry it
// matches with errors.Is, and ErrAssignFailed wraps whatever the assignor
// returned.
var general = []advice{
	{ErrPanic, "Neither Name nor Assign panics, whatever the group.",
		"Return an error for a group assignor.NewIndex rejects and a plan for any other; the stack shows where it panicked."},
	{ErrAssignFailed, "Assign returns a plan, not an error, for every group assignor.NewIndex accepts.",
		"Return an error only for what NewIndex rejects (an empty or duplicate member ID or topic name); unknown topics, odd claims and members without subscriptions are not errors."},
	{errNilAssignor, "The constructor returns an assignor.",
		"Return a non-nil assignor from the constructor given to Run, Check or Benchmark, a fresh or stateless one each call."},
	{assignor.ErrAssignedTwice, "Each partition goes to one member at most.",
		"Give each partition to exactly one member."},
	{assignor.ErrNotSubscribed, "A partition goes only to a member that subscribes to its topic.",
		"Choose each partition's member among its topic's subscribers (Index.Subscribers lists them)."},
	{assignor.ErrUnknownMember, "The plan names only members of the group.",
		"Build the plan's entries from the IDs in g.Members (Index.PlanOf does)."},
	{assignor.ErrMissingMember, "The plan has one entry per member of the group, an empty one for a member that gets nothing.",
		"Add an entry without partitions for every member that gets nothing (Index.PlanOf does)."},
	{assignor.ErrOutsideMetadata, "Only partitions the metadata lists (g.Topics) are assigned.",
		"Take the partitions to assign from g.Topics, never from claims or subscriptions."},
	{assignor.ErrUnassigned, "Every partition of a topic that some member subscribes to is assigned (by a cooperative assignor, at the latest in the follow-up round).",
		"Assign each partition in g.Topics whose topic has a subscriber; a cooperative assignor may withhold a claimed one for one round only, and sets Plan.FollowUp when it does."},
	{assignor.ErrNotOwner, "Under the cooperative protocol a claimed partition goes to its valid owner or, for one round, to nobody (KIP-429).",
		"Withhold a partition that another member validly owns until that member has revoked it; cooperative.Wrap does this around any eager assignor."},
	{assignor.ErrUnsorted, "Plan entries are in member ID order, each with its topics in name order and its partitions ascending and distinct.",
		"Sort the plan before returning it; Index.PlanOf builds it sorted."},
}

// adviceFor returns the rule and fix for the violations errs that case c
// found: c's own for the violations it probes, else the general advice of
// each kind, else the advice of the case that probes that kind, else c's.
// Each distinct rule and fix appears once, in the order of errs.
func adviceFor(c *testCase, errs []error) (rule, fix string) {
	var rules, fixes []string
	add := func(r, f string) {
		if !slices.Contains(rules, r) {
			rules = append(rules, r)
		}
		if !slices.Contains(fixes, f) {
			fixes = append(fixes, f)
		}
	}
	for _, err := range errs {
		switch {
		case c.probesAny(err):
			add(c.rule, c.fix)
		default:
			if a, ok := generalAdvice(err); ok {
				add(a.rule, a.fix)
			} else if other := caseProbing(err); other != nil {
				add(other.rule, other.fix)
			} else {
				add(c.rule, c.fix)
			}
		}
	}
	return strings.Join(rules, " "), strings.Join(fixes, " ")
}

// generalAdvice returns the first entry of general that err matches.
func generalAdvice(err error) (advice, bool) {
	for _, a := range general {
		if errors.Is(err, a.sentinel) {
			return a, true
		}
	}
	return advice{}, false
}

// caseProbing returns the first case that probes err, or nil.
func caseProbing(err error) *testCase {
	for i := range cases {
		if cases[i].probesAny(err) {
			return &cases[i]
		}
	}
	return nil
}

// probesAny reports whether err is one of the violations c probes.
func (c *testCase) probesAny(err error) bool {
	return slices.ContainsFunc(c.probes, func(sentinel error) bool { return errors.Is(err, sentinel) })
}
