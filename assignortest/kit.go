package assignortest

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor"
)

// Misbehaviours the kit finds beyond those of [assignor.CheckPlan]. Each
// comes inside a [*CaseError], and where a member or partition is at fault,
// first in an [*assignor.MemberError], [*assignor.TopicError] or
// [*assignor.PartitionError] naming it.
var (
	// ErrPanic: Assign or Name panicked. The error text carries the panic
	// value and the stack from the panic down to the method the kit called;
	// when the value is an error, errors.Is and errors.As find it too.
	ErrPanic = errors.New("assignortest: the assignor panicked")
	// ErrAssignFailed: Assign returned an error for a group it must assign
	// (it wraps that error too).
	ErrAssignFailed = errors.New("assignortest: Assign failed on a valid group")
	// ErrAcceptedInvalid: Assign returned a plan and no error for a group
	// with an empty or duplicate member ID.
	ErrAcceptedInvalid = errors.New("assignortest: Assign accepted a group that cannot be assigned")
	// ErrBadName: Name is empty, or differs between two instances.
	ErrBadName = errors.New("assignortest: bad protocol name")
	// ErrNondeterministic: two calls with the same group gave different
	// plans.
	ErrNondeterministic = errors.New("assignortest: plan differs between two calls with the same group")
	// ErrOrderDependent: the same group in another order gave a different
	// plan.
	ErrOrderDependent = errors.New("assignortest: plan depends on the order of the input")
	// ErrMutatedInput: Assign changed the group it was given.
	ErrMutatedInput = errors.New("assignortest: Assign mutated its input")
	// ErrAliasedInput: the plan shares memory with the group, so changing
	// the plan changes the group.
	ErrAliasedInput = errors.New("assignortest: plan aliases the input")
	// ErrUnbalanced: an assignor declared balanced gave, with identical
	// subscriptions, one member two or more partitions more than another.
	ErrUnbalanced = errors.New("assignortest: plan is not balanced")
	// ErrNotSticky: an assignor declared sticky moved a partition that it
	// had no need to move.
	ErrNotSticky = errors.New("assignortest: plan moves partitions a sticky assignor must keep")
)

// errNilAssignor: the constructor returned nil, so there is nothing to check.
var errNilAssignor = errors.New("assignortest: the constructor returned a nil assignor")

// Check runs every case of the kit against assignors made by newAssignor and
// returns what it finds, joined with [errors.Join] (nil if nothing): one
// [*CaseError] per failing call of Assign, naming the case, showing the group
// and the plan, and listing every violation in that plan. The usual call is
//
//	if err := assignortest.Check(mypkg.New); err != nil {
//		t.Fatal(err)
//	}
//
// newAssignor may return any type that implements [assignor.Assignor] (such
// as *sticky.Assignor); it is called at least once per case and must return
// a fresh or stateless assignor each time. Cases that need a declared
// capability ([assignor.IsBalanced], [assignor.IsSticky]) are skipped when it
// is not declared; the cooperative rules apply in every case when the
// assignor supports [assignor.Cooperative]. Check runs the big-group case
// too; [Run] skips it under -short.
func Check[A assignor.Assignor](newAssignor func() A) error {
	if newAssignor == nil {
		return errors.New("assignortest: Check: nil constructor")
	}
	newA := erase(newAssignor)
	var errs []error
	for _, c := range cases {
		found, _ := c.check(newA)
		for _, ce := range found {
			errs = append(errs, ce)
		}
	}
	return errors.Join(errs...)
}

// Run runs every case of the kit as a subtest of t named after the case (so
// one case reruns with -run 'TestConformance/permutation-invariance'),
// reporting each [*CaseError] with t.Error at the line that called Run. A
// case that needs a capability the assignor does not declare is skipped, and
// so is the big-group case under -short; that case logs how long Assign took
// (it is not asserted). newAssignor is as for [Check].
func Run[A assignor.Assignor](t *testing.T, newAssignor func() A) {
	t.Helper()
	if newAssignor == nil {
		t.Fatal("assignortest: Run: nil constructor")
		return
	}
	newA := erase(newAssignor)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Helper()
			if a := newA(); !isNil(a) && !c.appliesTo(a) {
				t.Skipf("the assignor does not declare itself %s", c.needs.name)
			}
			if c.name == bigGroupCase && testing.Short() {
				t.Skip("skipped under -short")
			}
			found, logs := c.check(newA)
			for _, line := range logs {
				t.Log(line)
			}
			for _, ce := range found {
				t.Error(ce)
			}
		})
	}
}

// erase turns a constructor of a concrete assignor type into one of the
// interface, so that Run(t, sticky.New) compiles.
func erase[A assignor.Assignor](newAssignor func() A) func() assignor.Assignor {
	return func() assignor.Assignor { return newAssignor() }
}

// isNil reports whether a is nil or a nil pointer (as a constructor
// returning (*T)(nil) gives).
func isNil(a assignor.Assignor) bool {
	if a == nil {
		return true
	}
	v := reflect.ValueOf(a)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// capability is an optional declaration a case needs, read by type
// assertion.
type capability struct {
	name     string
	declared func(assignor.Assignor) bool
}

var (
	balancedCapability = &capability{"balanced", assignor.IsBalanced}
	stickyCapability   = &capability{"sticky", assignor.IsSticky}
)

// testCase is one conformance case: the rule it checks and the groups that
// probe it.
type testCase struct {
	name   string  // short and stable: the subtest name, CaseError.Case
	rule   string  // the rule it checks, in one sentence
	fix    string  // how a correct assignor keeps the rule, in a sentence or two
	probes []error // the violations the rule and fix are about
	needs  *capability
	run    func(*runner)
}

// appliesTo reports whether a declares what c needs.
func (c testCase) appliesTo(a assignor.Assignor) bool {
	return c.needs == nil || c.needs.declared(a)
}

// check runs c against assignors made by newAssignor and returns what it
// found and the lines it logged; nothing if c does not apply.
func (c testCase) check(newAssignor func() assignor.Assignor) (found []*CaseError, logs []string) {
	a := newAssignor()
	if isNil(a) {
		return []*CaseError{{Case: c.name, Err: errNilAssignor}}, nil
	}
	if !c.appliesTo(a) {
		return nil, nil
	}
	r := &runner{
		c:           &c,
		newAssignor: newAssignor,
		a:           a,
		cooperative: assignor.Supports(a, assignor.Cooperative),
		balanced:    assignor.IsBalanced(a),
	}
	c.run(r)
	return r.caseErrors(), r.logs
}

// runner runs one case against one assignor and collects what it finds.
type runner struct {
	c           *testCase
	newAssignor func() assignor.Assignor
	a           assignor.Assignor
	cooperative bool
	balanced    bool
	logs        []string        // lines for Run to log
	group       string          // the current step's label, for CaseError.Step
	input       *assignor.Group // the group of the last call, as given
	plan        *assignor.Plan  // a copy of the plan of the last call, as returned; nil if it failed
	found       []finding
	calls       int           // Assign calls made through call
	assignTime  time.Duration // time spent in them
}

// finding is one violation and the call it was found in.
type finding struct {
	step  string
	input *assignor.Group
	plan  *assignor.Plan
	err   error
}

func (r *runner) logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

func (r *runner) fail(err error) {
	r.found = append(r.found, finding{step: r.group, input: r.input, plan: r.plan, err: err})
}

func (r *runner) failAll(errs []error) {
	for _, err := range errs {
		r.fail(err)
	}
}

// caseErrors gathers the findings into one CaseError per call (runs of
// findings with the same step, group and plan), in the order found.
func (r *runner) caseErrors() []*CaseError {
	var out []*CaseError
	for i := 0; i < len(r.found); {
		f, j := r.found[i], i+1
		for j < len(r.found) && r.found[j].step == f.step && r.found[j].input == f.input && r.found[j].plan == f.plan {
			j++
		}
		errs := make([]error, j-i)
		for k := range errs {
			errs[k] = r.found[i+k].err
		}
		err := errs[0]
		if len(errs) > 1 {
			err = errors.Join(errs...)
		}
		rule, fix := adviceFor(r.c, errs)
		out = append(out, &CaseError{Case: r.c.name, Step: f.step, Rule: rule, Fix: fix, Group: f.input, Plan: f.plan, Err: err})
		i = j
	}
	return out
}

// inGroup starts a step of the case: the following failures are about the
// group it labels, and about no call until the next one.
func (r *runner) inGroup(format string, args ...any) {
	r.group = fmt.Sprintf(format, args...)
	r.input, r.plan = nil, nil
}

// fresh returns a new instance from the constructor, failing the case if it
// is nil.
func (r *runner) fresh() (assignor.Assignor, bool) {
	a := r.newAssignor()
	if isNil(a) {
		r.fail(errNilAssignor)
		return nil, false
	}
	return a, true
}

// call runs a.Assign on a copy of g, so that an assignor that mutates its
// input cannot disturb the checks that follow. It reports a panic or an
// error; ok is false then.
func (r *runner) call(a assignor.Assignor, g assignor.Group) (plan assignor.Plan, ok bool) {
	return r.assign(a, g, g.Clone())
}

// callInPlace is call without the copy: Assign gets g itself. Failures are
// shown with g as it was before the call.
func (r *runner) callInPlace(a assignor.Assignor, g assignor.Group) (plan assignor.Plan, ok bool) {
	return r.assign(a, g.Clone(), g)
}

// assign runs a.Assign(in) and makes shown and a copy of the plan, taken
// before any check can touch the plan, the context of the failures that
// follow.
func (r *runner) assign(a assignor.Assignor, shown, in assignor.Group) (assignor.Plan, bool) {
	r.input, r.plan = &shown, nil
	start := time.Now()
	plan, err := safeAssign(a, in)
	r.assignTime += time.Since(start)
	r.calls++
	if err != nil {
		if !errors.Is(err, ErrPanic) {
			err = &assignFailed{err}
		}
		r.fail(err)
		return assignor.Plan{}, false
	}
	returned := clonePlan(plan)
	r.plan = &returned
	return plan, true
}

// assignFailed is the error Assign returned for a valid group. It matches
// ErrAssignFailed and unwraps to the assignor's error; it is no
// fmt.Errorf("%w: %w"), which the kit would read as two joined violations.
type assignFailed struct{ err error }

func (e *assignFailed) Error() string        { return ErrAssignFailed.Error() + ": " + e.err.Error() }
func (e *assignFailed) Is(target error) bool { return target == ErrAssignFailed }
func (e *assignFailed) Unwrap() error        { return e.err }

// clonePlan returns a deep copy of p: nothing in the copy aliases p.
func clonePlan(p assignor.Plan) assignor.Plan {
	out := assignor.Plan{Members: slices.Clone(p.Members), FollowUp: p.FollowUp}
	for i, mp := range p.Members {
		mp.Assigned = assignor.CloneTopicPartitions(mp.Assigned)
		mp.Revoked = assignor.CloneTopicPartitions(mp.Revoked)
		mp.UserData = slices.Clone(mp.UserData)
		out.Members[i] = mp
	}
	return out
}

// checkPlan reports every violation [assignor.CheckPlan] finds in plan, with
// what its errors leave out (see explain).
func (r *runner) checkPlan(g assignor.Group, plan assignor.Plan, proto assignor.Protocol) {
	for _, err := range unjoin(assignor.CheckPlan(g, plan, proto)) {
		r.fail(explain(err, plan))
	}
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
