package assignortest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor"
)

// Misbehaviours the kit finds beyond those of [assignor.CheckPlan]. Each
// comes wrapped in a [*CaseError], and where a member or partition is at
// fault, first in an [*assignor.MemberError], [*assignor.TopicError] or
// [*assignor.PartitionError] naming it.
var (
	// ErrPanic: Assign panicked. The error text carries the panic value.
	ErrPanic = errors.New("assignor: Assign panicked")
	// ErrAssignFailed: Assign returned an error for a group it must assign
	// (it wraps that error too).
	ErrAssignFailed = errors.New("assignor: Assign failed on a valid group")
	// ErrAcceptedInvalid: Assign returned a plan and no error for a group
	// with an empty or duplicate member ID.
	ErrAcceptedInvalid = errors.New("assignor: Assign accepted a group that cannot be assigned")
	// ErrBadName: Name is empty, or differs between two instances.
	ErrBadName = errors.New("assignor: bad protocol name")
	// ErrNondeterministic: two calls with the same group gave different
	// plans.
	ErrNondeterministic = errors.New("assignor: plan differs between two calls with the same group")
	// ErrOrderDependent: the same group in another order gave a different
	// plan.
	ErrOrderDependent = errors.New("assignor: plan depends on the order of the input")
	// ErrMutatedInput: Assign changed the group it was given.
	ErrMutatedInput = errors.New("assignor: Assign mutated its input")
	// ErrAliasedInput: the plan shares memory with the group, so changing
	// the plan changes the group.
	ErrAliasedInput = errors.New("assignor: plan aliases the input")
	// ErrUnbalanced: an assignor declared balanced gave, with identical
	// subscriptions, one member two or more partitions more than another.
	ErrUnbalanced = errors.New("assignor: plan is not balanced")
	// ErrNotSticky: an assignor declared sticky moved a partition that it
	// had no need to move.
	ErrNotSticky = errors.New("assignor: plan moves partitions a sticky assignor must keep")
)

// CaseError is one misbehaviour found by a case. Err is the violation: a
// root-package error such as [*assignor.PartitionError] (from
// [assignor.CheckPlan] or naming the member and partition at fault) or one of
// this package's sentinels; errors.Is and errors.As see through it.
type CaseError struct {
	// Case is the name of the case that found it (see [Cases]).
	Case string
	// Group describes which of the case's groups, or which round, it was
	// found in; "" when the case has only one.
	Group string
	Err   error
}

func (e *CaseError) Error() string {
	if e.Group == "" {
		return e.Case + ": " + e.Err.Error()
	}
	return e.Case + " (" + e.Group + "): " + e.Err.Error()
}

func (e *CaseError) Unwrap() error { return e.Err }

// Case is one conformance case: the rule it checks and the groups that
// probe it. The cases are listed by [Cases]; [Run] runs each as a subtest
// named Case.Name.
type Case struct {
	// Name is short and stable, such as "permutation-invariance".
	Name string
	// Rule is the rule the case checks, in one sentence.
	Rule string
	// Requires names the capability an assignor must declare for the case
	// to apply ("balanced", "sticky"), or "" when it always applies.
	Requires string

	run func(*runner)
}

// Cases returns the kit's cases in the order [Check] and [Run] run them.
// The result is a copy.
func Cases() []Case { return slices.Clone(cases) }

// Applies reports whether c applies to a: whether a declares the capability
// c requires.
func (c Case) Applies(a assignor.Assignor) bool {
	switch c.Requires {
	case "balanced":
		return assignor.IsBalanced(a)
	case "sticky":
		return assignor.IsSticky(a)
	}
	return true
}

// Check runs case c against assignors made by newAssignor and returns every
// misbehaviour it finds, each a [*CaseError], joined with [errors.Join]; nil
// if there is none or the case does not apply. newAssignor is called at least
// once and may be called several times; it must return a fresh or stateless
// assignor each time.
func (c Case) Check(newAssignor func() assignor.Assignor) error {
	return errors.Join(c.check(newAssignor, nil)...)
}

func (c Case) check(newAssignor func() assignor.Assignor, logf func(string, ...any)) []error {
	a := newAssignor()
	if !c.Applies(a) {
		return nil
	}
	r := &runner{
		caseName:    c.Name,
		newAssignor: newAssignor,
		a:           a,
		cooperative: assignor.Supports(a, assignor.Cooperative),
		balanced:    assignor.IsBalanced(a),
		sticky:      assignor.IsSticky(a),
		logf:        logf,
	}
	if r.logf == nil {
		r.logf = func(string, ...any) {}
	}
	c.run(r)
	return r.errs
}

// Check runs every case of the kit against assignors made by newAssignor and
// returns every misbehaviour found, joined with [errors.Join] (nil if there
// is none). Each is a [*CaseError] whose text starts with the case name and
// names the member, topic and partition at fault; it wraps the violation, so
// errors.Is finds sentinels such as [assignor.ErrAssignedTwice] and
// [ErrOrderDependent], and errors.As finds the [*assignor.PartitionError]
// with the details. The usual call is
//
//	if err := assignortest.Check(mypkg.New); err != nil {
//		t.Fatal(err)
//	}
//
// Cases that need a declared capability ([assignor.IsBalanced],
// [assignor.IsSticky]) are skipped when it is not declared; the cooperative
// rules apply in every case when the assignor supports
// [assignor.Cooperative].
func Check(newAssignor func() assignor.Assignor) error {
	var errs []error
	for _, c := range cases {
		errs = append(errs, c.check(newAssignor, nil)...)
	}
	return errors.Join(errs...)
}

// Run runs every case of the kit as a subtest of t named after the case,
// reporting each misbehaviour with t.Error. A case that does not apply is
// skipped. The big-group case logs how long Assign took, and is skipped when
// testing.Short() reports true.
func Run(t *testing.T, newAssignor func() assignor.Assignor) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if !c.Applies(newAssignor()) {
				t.Skipf("the assignor does not declare itself %s", c.Requires)
			}
			if c.Name == bigGroupCase && testing.Short() {
				t.Skip("skipped under -short")
			}
			for _, err := range c.check(newAssignor, t.Logf) {
				t.Error(err)
			}
		})
	}
}

// runner runs one case against one assignor and collects what it finds.
type runner struct {
	caseName    string
	newAssignor func() assignor.Assignor
	a           assignor.Assignor
	cooperative bool
	balanced    bool
	sticky      bool
	logf        func(string, ...any)
	group       string // the current group's label, for CaseError.Group
	errs        []error
	calls       int           // Assign calls made through call
	assignTime  time.Duration // time spent in them
}

func (r *runner) fail(err error) {
	r.errs = append(r.errs, &CaseError{Case: r.caseName, Group: r.group, Err: err})
}

func (r *runner) failAll(errs []error) {
	for _, err := range errs {
		r.fail(err)
	}
}

// inGroup sets the label of the group the following failures are about.
func (r *runner) inGroup(format string, args ...any) { r.group = fmt.Sprintf(format, args...) }

// call runs a.Assign on a copy of g, so that an assignor that mutates its
// input cannot disturb the checks that follow. It reports a panic or an
// error; ok is false then.
func (r *runner) call(a assignor.Assignor, g assignor.Group) (plan assignor.Plan, ok bool) {
	return r.callInPlace(a, g.Clone())
}

// callInPlace is call without the copy: Assign gets g itself.
func (r *runner) callInPlace(a assignor.Assignor, g assignor.Group) (plan assignor.Plan, ok bool) {
	start := time.Now()
	plan, err := safeAssign(a, g)
	r.assignTime += time.Since(start)
	r.calls++
	if err != nil {
		if !errors.Is(err, ErrPanic) {
			err = fmt.Errorf("%w: %w", ErrAssignFailed, err)
		}
		r.fail(err)
		return assignor.Plan{}, false
	}
	return plan, true
}

// safeAssign calls a.Assign(g), turning a panic into an error wrapping
// ErrPanic.
func safeAssign(a assignor.Assignor, g assignor.Group) (plan assignor.Plan, err error) {
	defer func() {
		if v := recover(); v != nil {
			plan, err = assignor.Plan{}, fmt.Errorf("%w: %v", ErrPanic, v)
		}
	}()
	return a.Assign(g)
}

// checkPlan reports every violation [assignor.CheckPlan] finds in plan.
func (r *runner) checkPlan(g assignor.Group, plan assignor.Plan, proto assignor.Protocol) {
	r.failAll(unjoin(assignor.CheckPlan(g, plan, proto)))
}

// settle assigns g the way a group would converge: an eager assignor once,
// checked with the eager rules; a cooperative one twice, the first plan
// checked with the cooperative rules, then a follow-up round in which every
// member owns what the first plan gave it, at the next generation, checked
// with the cooperative rules and for completeness. It returns the group and
// plan of the last round; ok is false if Assign failed.
func (r *runner) settle(g assignor.Group) (final assignor.Group, plan assignor.Plan, ok bool) {
	plan, ok = r.call(r.a, g)
	if !ok {
		return g, plan, false
	}
	if !r.cooperative {
		r.checkPlan(g, plan, assignor.Eager)
		return g, plan, true
	}
	r.checkPlan(g, plan, assignor.Cooperative)
	next := followUp(g, plan)
	label := r.group
	r.group = strings.TrimPrefix(label+", follow-up round", ", ")
	defer func() { r.group = label }()
	plan2, ok := r.call(r.a, next)
	if !ok {
		return next, plan2, false
	}
	r.checkPlan(next, plan2, assignor.Cooperative)
	// The eager rules add completeness; report only that, the rest is
	// reported above already.
	for _, err := range unjoin(assignor.CheckPlan(next, plan2, assignor.Eager)) {
		if errors.Is(err, assignor.ErrUnassigned) {
			r.fail(err)
		}
	}
	return next, plan2, true
}

// followUp returns the group of the round after plan: every member of g
// owns what plan assigned it, at one generation above the highest in g.
func followUp(g assignor.Group, plan assignor.Plan) assignor.Group {
	next := g.Clone()
	gen := int32(0)
	for _, m := range g.Members {
		gen = max(gen, m.Generation)
	}
	for i := range next.Members {
		m := &next.Members[i]
		m.Generation = gen + 1
		m.Owned = nil
		if mp, ok := plan.Member(m.ID); ok {
			m.Owned = assignor.CloneTopicPartitions(mp.Assigned)
		}
	}
	return next
}

// unjoin flattens err into the errors it joins.
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, unjoin(e)...)
		}
		return out
	}
	return []error{err}
}
