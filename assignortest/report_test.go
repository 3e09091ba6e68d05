package assignortest_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/assignortest"
	"github.com/kgroup/assignor/roundrobin"
)

// doubleAssigner gives the first member's first partition to the second
// member too.
func doubleAssigner() *fake {
	return &fake{assign: edit(func(ix *assignor.Index, assigned [][]int32) {
		if len(assigned) > 1 && len(assigned[0]) > 0 {
			assigned[1] = append(assigned[1], assigned[0][0])
		}
	})}
}

// failureOf returns the one failure of the named case in err.
func failureOf(t *testing.T, err error, name string) *assignortest.CaseError {
	t.Helper()
	for _, ce := range caseErrors(t, err) {
		if ce.Case == name {
			return ce
		}
	}
	t.Fatalf("no failure of case %q in:\n%v", name, err)
	return nil
}

// TestFailureShowsGroupAndPlan: a failure names its case, both holders of a
// partition assigned twice, and shows the group and the plan of the call.
func TestFailureShowsGroupAndPlan(t *testing.T) {
	t.Parallel()
	ce := failureOf(t, checkAll(func() assignor.Assignor { return doubleAssigner() }), "more-members-than-partitions")
	if ce.Group == nil || ce.Plan == nil {
		t.Fatalf("Group %v, Plan %v: want both", ce.Group, ce.Plan)
	}
	if len(ce.Group.Members) != 5 {
		t.Errorf("Group has %d members, want the case's 5", len(ce.Group.Members))
	}
	text := ce.Error()
	for _, want := range []string{
		"more-members-than-partitions: 1 violation\n",
		`t0/0: member "m1" and member "m0"`,
		"\n  group (5 members, 1 topic):\n    m0: t0\n",
		"\n    topics: t0(2)",
		"\n  plan:\n    m0: t0[0]\n    m1: t0[0 1]\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the failure does not contain %q:\n%s", want, text)
		}
	}
}

// TestUnsortedSaysTheOrderExpected: a plan out of order is reported with the
// order it should have.
func TestUnsortedSaysTheOrderExpected(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		mangle func(*assignor.Plan)
		want   string
	}{
		{
			name:   "member entries reversed",
			mangle: func(p *assignor.Plan) { slices.Reverse(p.Members) },
			want:   `want member entries in member ID order, so "C1" before "C2", not after it`,
		},
		{
			name: "partitions descending, topics reversed",
			mangle: func(p *assignor.Plan) {
				for _, mp := range p.Members {
					slices.Reverse(mp.Assigned)
					for _, tp := range mp.Assigned {
						slices.Reverse(tp.Partitions)
					}
				}
			},
			want: "want topics in name order, each with its partitions ascending and distinct: t1[1] t2[0 1 2], got t2[2 1 0] t1[1]",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := checkAll(func() assignor.Assignor {
				return &fake{assign: func(g assignor.Group) (assignor.Plan, error) {
					plan, err := roundrobin.New().Assign(g)
					tt.mangle(&plan)
					return plan, err
				}}
			})
			ce := failureOf(t, err, "heterogeneous-subscriptions")
			if !errors.Is(ce, assignor.ErrUnsorted) {
				t.Errorf("not assignor.ErrUnsorted: %v", ce)
			}
			if !strings.Contains(ce.Error(), tt.want) {
				t.Errorf("the failure does not say %q:\n%v", tt.want, ce)
			}
		})
	}
}

// TestLongFailuresAreCut: a failure in a big group shows at most a dozen
// lines of group and plan and ten violations, and keeps every violation in
// Err.
func TestLongFailuresAreCut(t *testing.T) {
	t.Parallel()
	g := assignor.Group{Topics: []assignor.Topic{{Name: "t0", Partitions: assignor.Partitions(100)}}}
	var plan assignor.Plan
	var errs []error
	for i := range 50 {
		id := fmt.Sprintf("m%02d", i)
		g.Members = append(g.Members, assignor.Member{ID: id, Topics: []string{"t0"}})
		plan.Members = append(plan.Members, assignor.MemberPlan{Member: id, Assigned: []assignor.TopicPartitions{{Topic: "t0", Partitions: assignor.Partitions(100)}}})
		errs = append(errs, &assignor.MemberError{Member: id, Err: assignor.ErrAssignedTwice})
	}
	ce := &assignortest.CaseError{Case: "big", Group: &g, Plan: &plan, Err: errors.Join(errs...)}
	text := ce.Error()
	if lines := strings.Count(text, "\n") + 1; lines > 1+10+1+1+12+1+12 {
		t.Errorf("%d lines:\n%s", lines, text)
	}
	for _, want := range []string{"big: 50 violations\n", "\n  … and 40 more\n", "\n    m09: t0\n    … 40 more\n    topics: t0(100)\n", "\n    … 39 more\n    m49: t0[0 1 2"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if len(line) > 220 {
			t.Errorf("line of %d bytes: %.80s…", len(line), line)
		}
	}
	if n := len(flatten(ce.Err)); n != 50 {
		t.Errorf("Err holds %d violations, want 50", n)
	}
}

// TestNilAssignor: a constructor that returns nil is a failure, not a panic.
func TestNilAssignor(t *testing.T) {
	t.Parallel()
	err := assignortest.Check(func() *fake { return nil })
	if err == nil || !strings.Contains(err.Error(), "nil assignor") {
		t.Errorf("Check of a nil assignor: %v", err)
	}
	if err := assignortest.Check[assignor.Assignor](nil); err == nil {
		t.Error("Check of a nil constructor: no error")
	}
}

// runChildEnv makes TestRunReportsAtTheCallersLine the failing child.
const runChildEnv = "ASSIGNORTEST_RUN_CHILD"

// TestRunReportsAtTheCallersLine runs Run on a broken assignor in a child
// test process and checks that every failure is reported at the line that
// called Run, never inside the kit.
func TestRunReportsAtTheCallersLine(t *testing.T) {
	_, _, line, _ := runtime.Caller(0)
	callLine := line + 3 // the line of assignortest.Run below
	if os.Getenv(runChildEnv) != "" {
		assignortest.Run(t, doubleAssigner)
		return
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestRunReportsAtTheCallersLine$", "-test.short")
	cmd.Env = append(os.Environ(), runChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child passed:\n%s", out)
	}
	if !strings.Contains(string(out), "--- FAIL: TestRunReportsAtTheCallersLine/more-members-than-partitions") {
		t.Errorf("no failing subtest for the case:\n%s", out)
	}
	at := regexp.MustCompile(`(?m)^\s+(\S+\.go):(\d+): `).FindAllStringSubmatch(string(out), -1)
	if len(at) == 0 {
		t.Fatalf("no file:line in:\n%s", out)
	}
	want := fmt.Sprintf("report_test.go:%d", callLine)
	for _, m := range at {
		if m[1]+":"+m[2] != want {
			t.Errorf("a failure reported at %s:%s, want %s", m[1], m[2], want)
		}
	}
}

// panicDeep panics with v two calls below the assignor, so that the stack
// has frames of the test's own to show.
//
//go:noinline
func panicDeep(v any) { panicDeeper(v) }

//go:noinline
func panicDeeper(v any) { panic(v) }

// TestPanicShowsItsStack: a panic in Assign or Name is a failure that says
// which method panicked, with what, and the stack from the panic down to
// the method, none of the kit's frames; a panic value that is an error is
// found by errors.Is; the case that probes panics (odd-claims) gives its
// own rule, the others the general one.
func TestPanicShowsItsStack(t *testing.T) {
	t.Parallel()
	stack := regexp.MustCompile(`\n    stack, innermost first:\n      \S+/assignortest_test\.panicDeeper\n        \S+/report_test\.go:\d+\n      \S+/assignortest_test\.panicDeep\n        \S+/report_test\.go:\d+\n`)
	for _, tt := range []struct {
		name     string
		a        *fake
		wantCase string
		says     string
		is       error  // an error errors.Is must find, besides ErrPanic
		rule     string // the rule the failure gives; "" for the case's own
	}{
		{
			name:     "a string with a NUL, in Assign",
			a:        &fake{assign: func(assignor.Group) (assignor.Plan, error) { panicDeep("boom\x00"); return assignor.Plan{}, nil }},
			wantCase: "determinism",
			says:     `assignortest: the assignor panicked: in Assign: boom\x00`,
			rule:     "Neither Name nor Assign panics, whatever the group.",
		},
		{
			name: "an error, in Assign",
			a: &fake{assign: func(assignor.Group) (assignor.Plan, error) {
				panicDeep(io.ErrUnexpectedEOF)
				return assignor.Plan{}, nil
			}},
			wantCase: "odd-claims",
			says:     "assignortest: the assignor panicked: in Assign: unexpected EOF",
			is:       io.ErrUnexpectedEOF,
		},
		{
			name:     "in Name",
			a:        &fake{assign: roundrobin.New().Assign, name: func() string { panicDeep("no name"); return "" }},
			wantCase: "name",
			says:     "assignortest: the assignor panicked: in Name: no name",
			rule:     "Neither Name nor Assign panics, whatever the group.",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := checkAll(func() assignor.Assignor { return tt.a })
			ce := failureOf(t, err, tt.wantCase)
			text := ce.Error()
			if !errors.Is(ce, assignortest.ErrPanic) || tt.is != nil && !errors.Is(ce, tt.is) {
				t.Errorf("errors.Is finds neither ErrPanic nor %v in %v", tt.is, ce)
			}
			if !strings.Contains(text, "\n  "+tt.says+"\n") && !strings.HasPrefix(text, tt.wantCase+": "+tt.says+"\n") {
				t.Errorf("the failure does not say %q on a line of its own:\n%s", tt.says, text)
			}
			if !stack.MatchString(text) {
				t.Errorf("the failure does not show the stack from panicDeeper down (%s):\n%s", stack, text)
			}
			for _, kit := range []string{"runtime.gopanic", "assignortest.safeAssign", "assignortest.safeName", "assignortest.recovered", "assignortest.(*runner)", "testing.tRunner"} {
				if strings.Contains(text, kit) {
					t.Errorf("the stack shows the kit's frame %s:\n%s", kit, text)
				}
			}
			checkPrintable(t, text)
			want := tt.rule
			if want == "" {
				want = caseInfo(t, tt.wantCase).Rule
			}
			if ce.Rule != want {
				t.Errorf("rule %q, want %q", ce.Rule, want)
			}
		})
	}
}

// TestFailureShowsThePlanAsReturned: an assignor that reorders its input
// and returns the input's slices in its plan fails input-not-mutated, and
// the plan shown is the one it returned, copied before the kit overwrote
// the plan to find the aliasing (the kit's scribbles, once printed here,
// carried NUL bytes).
func TestFailureShowsThePlanAsReturned(t *testing.T) {
	t.Parallel()
	assign := func(g assignor.Group) (assignor.Plan, error) {
		plan, err := roundrobin.New().Assign(g)
		for i := range plan.Members {
			for _, m := range g.Members {
				if m.ID == plan.Members[i].Member && assignor.EqualTopicPartitions(m.Owned, plan.Members[i].Assigned) {
					plan.Members[i].Assigned = m.Owned
				}
			}
		}
		slices.Reverse(g.Members)
		return plan, err
	}
	err := checkAll(func() assignor.Assignor { return &fake{assign: assign} })
	var shown, overwritten int
	for _, ce := range caseErrors(t, err) {
		if ce.Case != "input-not-mutated" {
			continue
		}
		shown++
		if ce.Group == nil || ce.Plan == nil {
			t.Fatalf("Group %v, Plan %v: want both", ce.Group, ce.Plan)
		}
		want, err := roundrobin.New().Assign(ce.Group.Clone())
		if err != nil {
			t.Fatal(err)
		}
		if got := ce.Plan.String(); got != want.String() {
			t.Errorf("%s: CaseError.Plan is\n%s\nwant what Assign returned:\n%s", ce.Step, got, want.String())
		}
		text := ce.Error()
		_, dump, _ := strings.Cut(text, "\n  plan:\n")
		if wantDump := "    " + strings.ReplaceAll(strings.TrimSuffix(want.String(), "\n"), "\n", "\n    "); dump != wantDump {
			t.Errorf("%s: the plan shown is\n%s\nwant\n%s", ce.Step, dump, wantDump)
		}
		mutated, aliased := errors.Is(ce, assignortest.ErrMutatedInput), errors.Is(ce, assignortest.ErrAliasedInput)
		if !mutated && !aliased {
			t.Errorf("%s: neither ErrMutatedInput nor ErrAliasedInput: %v", ce.Step, ce)
		}
		if aliased {
			overwritten++ // the kit scribbled over the plan Assign returned
		}
		checkPrintable(t, text)
	}
	if shown != 3 || overwritten == 0 {
		t.Errorf("%d failures of input-not-mutated, %d of them with the plan overwritten; want one per group (3), and some:\n%v", shown, overwritten, err)
	}
}

// TestFailureIsPrintable: names that need it print quoted, every other byte
// that is not printable escaped, and a cut line stays valid UTF-8, whatever
// the group, the plan and the violations hold.
func TestFailureIsPrintable(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 150) // 300 bytes: cut inside the line
	ce := &assignortest.CaseError{
		Case: "printable",
		Group: &assignor.Group{
			Members: []assignor.Member{
				{ID: ""},
				{ID: "a b", Topics: []string{"t\x00"}, Owned: []assignor.TopicPartitions{{Topic: "\xff", Partitions: []int32{0}}}, Generation: 2},
				{ID: "x\ny", Rack: "r\t1"},
				{ID: long},
			},
			Topics: []assignor.Topic{{Name: "t\x00", Partitions: assignor.Partitions(1)}, {Name: "\xff", Partitions: []int32{1, 0}}},
		},
		Plan: &assignor.Plan{Members: []assignor.MemberPlan{{Member: "a b", Assigned: []assignor.TopicPartitions{{Topic: "t\x00", Partitions: []int32{0}}}}}},
		Err:  errors.New("bad \x1b[31mred\x1b[0m \xfe"),
	}
	text := ce.Error()
	checkPrintable(t, text)
	want := `printable: 1 violation
  bad \x1b[31mred\x1b[0m \xfe
  group (4 members, 2 topics):
    "": no subscriptions
    "a b": "t\x00"; owns "\xff"[0] at generation 2
    "x\ny" (rack "r\t1"): no subscriptions
    ` + long[:200] + ` …
    topics: "t\x00"(1) "\xff"[1 0]
  plan:
    "a b": "t\x00"[0]`
	if text != want {
		t.Errorf("the failure is\n%s\nwant\n%s", text, want)
	}

	// Through the kit: an assignor whose errors carry control bytes and
	// invalid UTF-8.
	err := checkAll(func() assignor.Assignor {
		return &fake{assign: func(assignor.Group) (assignor.Plan, error) { return assignor.Plan{}, errors.New("bad\x00 \xff") }}
	})
	for _, ce := range caseErrors(t, err) {
		text := ce.Error()
		checkPrintable(t, text)
		if errors.Is(ce, assignortest.ErrAssignFailed) && !strings.Contains(text, `Assign failed on a valid group: bad\x00 \xff`) {
			t.Errorf("the assignor's error is not shown escaped:\n%s", text)
		}
	}
}
