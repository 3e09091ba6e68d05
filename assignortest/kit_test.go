package assignortest_test

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/assignortest"
	"github.com/kgroup/assignor/roundrobin"
)

// TestGoodAssignorsPass runs the whole kit, big group included, against a
// correct assignor of each declared kind. The constructors return concrete
// types, as sticky.New does: Run takes any.
func TestGoodAssignorsPass(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		run  func(t *testing.T)
	}{
		{"roundrobin: eager, balanced", func(t *testing.T) { assignortest.Run(t, roundrobin.New) }},
		{"reference sticky: eager, balanced, sticky", func(t *testing.T) { assignortest.Run(t, newRefSticky) }},
		{"cooperative roundrobin: cooperative, balanced", func(t *testing.T) {
			assignortest.Run(t, func() coop { return coop{roundrobin.New()} })
		}},
		{"cooperative sticky: cooperative, balanced, sticky", func(t *testing.T) {
			assignortest.Run(t, func() *coop { return &coop{refSticky{}} })
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.run(t)
		})
	}
}

// fake is an assignor made of a function and the capabilities it declares;
// its name is "fake" unless name says otherwise.
type fake struct {
	assign    func(assignor.Group) (assignor.Plan, error)
	name      func() string
	protocols []assignor.Protocol
	balanced  bool
	sticky    bool
}

func (f *fake) Name() string {
	if f.name != nil {
		return f.name()
	}
	return "fake"
}
func (f *fake) Assign(g assignor.Group) (assignor.Plan, error) { return f.assign(g) }
func (f *fake) Protocols() []assignor.Protocol                 { return f.protocols }
func (f *fake) Balanced() bool                                 { return f.balanced }
func (f *fake) Sticky() bool                                   { return f.sticky }

// edit returns an assignor that runs round-robin and then lets change edit
// its flat assignment (see flat) before building the plan.
func edit(change func(ix *assignor.Index, assigned [][]int32)) func(assignor.Group) (assignor.Plan, error) {
	return func(g assignor.Group) (assignor.Plan, error) {
		ix, err := assignor.NewIndex(g)
		if err != nil {
			return assignor.Plan{}, err
		}
		plan, err := roundrobin.New().Assign(g)
		if err != nil {
			return assignor.Plan{}, err
		}
		assigned := flat(ix, plan)
		change(ix, assigned)
		return planOf(ix, assigned), nil
	}
}

// inputOrderRoundRobin deals partitions round-robin to the members in the
// order the group lists them, not in a canonical order.
func inputOrderRoundRobin(g assignor.Group) (assignor.Plan, error) {
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return assignor.Plan{}, err
	}
	var ring []int32
	for _, m := range g.Members {
		i, _ := ix.MemberNumber(m.ID)
		ring = append(ring, i)
	}
	assigned := make([][]int32, ix.NumMembers())
	next := 0
	for p := range ix.NumPartitions() {
		t := ix.TopicOf(int32(p))
		if len(ix.Subscribers(t)) == 0 {
			continue
		}
		for !ix.Subscribes(ring[next], t) {
			next = (next + 1) % len(ring)
		}
		assigned[ring[next]] = append(assigned[ring[next]], int32(p))
		next = (next + 1) % len(ring)
	}
	return planOf(ix, assigned), nil
}

// brokenAssignor is an assignor that breaks one rule, the case that must
// catch it, the sentinel it must report, where one is at fault the member,
// and how the violation reads.
type brokenAssignor struct {
	name     string
	a        func() assignor.Assignor
	wantCase string
	want     error
	member   string // "" when any member (or none) may be named
	only     bool   // no other case may fail
	says     string // a regexp one of the case's violations matches, whole
}

// broken are the broken assignors, at least one per case.
func broken() []brokenAssignor {
	calls, instances := 0, 0
	return []brokenAssignor{
		{
			name: "an empty name",
			a: func() assignor.Assignor {
				return &fake{assign: roundrobin.New().Assign, name: func() string { return "" }}
			},
			wantCase: "name", want: assignortest.ErrBadName, only: true,
			says: `assignortest: bad protocol name: Name returned ""`,
		},
		{
			name: "a name of its own per instance",
			a: func() assignor.Assignor {
				instances++
				id := instances
				return &fake{assign: roundrobin.New().Assign, name: func() string { return fmt.Sprintf("fake-%d", id) }}
			},
			wantCase: "name", want: assignortest.ErrBadName, only: true,
			says: `assignortest: bad protocol name: Name returned "fake-\d+", and "fake-\d+" from another instance`,
		},
		{
			name: "fails on a group without members",
			a: func() assignor.Assignor {
				return &fake{assign: func(g assignor.Group) (assignor.Plan, error) {
					if len(g.Members) == 0 {
						return assignor.Plan{}, errors.New("no members")
					}
					return roundrobin.New().Assign(g)
				}}
			},
			wantCase: "empty-group", want: assignortest.ErrAssignFailed, only: true,
			says: `assignortest: Assign failed on a valid group: no members`,
		},
		{
			name: "leaves out members without subscriptions",
			a: func() assignor.Assignor {
				return &fake{assign: func(g assignor.Group) (assignor.Plan, error) {
					plan, err := roundrobin.New().Assign(g)
					plan.Members = slices.DeleteFunc(plan.Members, func(mp assignor.MemberPlan) bool {
						i := slices.IndexFunc(g.Members, func(m assignor.Member) bool { return m.ID == mp.Member })
						return len(g.Members[i].Topics) == 0
					})
					return plan, err
				}}
			},
			wantCase: "no-subscriptions", want: assignor.ErrMissingMember, member: "a",
			says: `assignor: plan has no entry for a member of the group: member "a"`,
		},
		{
			name: "drops a partition",
			a: func() assignor.Assignor {
				return &fake{assign: edit(func(ix *assignor.Index, assigned [][]int32) {
					for m := range assigned {
						if n := len(assigned[m]); n > 0 {
							assigned[m] = assigned[m][:n-1]
							return
						}
					}
				})}
			},
			wantCase: "one-member", want: assignor.ErrUnassigned,
			says: `assignor: subscribed partition left unassigned: t\d/\d+`,
		},
		{
			name: "assigns a partition twice",
			a: func() assignor.Assignor {
				return &fake{assign: edit(func(ix *assignor.Index, assigned [][]int32) {
					if len(assigned) > 1 && len(assigned[0]) > 0 {
						assigned[1] = append(assigned[1], assigned[0][0])
					}
				})}
			},
			wantCase: "more-members-than-partitions", want: assignor.ErrAssignedTwice, member: "m1",
			says: `assignor: partition assigned to more than one member: t0/0: member "m1" and member "m0"`,
		},
		{
			name: "gives a partition to a non-subscriber",
			a: func() assignor.Assignor {
				return &fake{assign: edit(func(ix *assignor.Index, assigned [][]int32) {
					for m := range assigned {
						for i, p := range assigned[m] {
							t := ix.TopicOf(p)
							for other := range assigned {
								if !ix.Subscribes(int32(other), t) {
									assigned[m] = slices.Delete(assigned[m], i, i+1)
									assigned[other] = append(assigned[other], p)
									return
								}
							}
						}
					}
				})}
			},
			wantCase: "heterogeneous-subscriptions", want: assignor.ErrNotSubscribed, member: "C0",
			says: `assignor: partition assigned to a member that does not subscribe to its topic: t\d/\d+: member "C0"`,
		},
		{
			name:     "depends on the input order",
			a:        func() assignor.Assignor { return &fake{assign: inputOrderRoundRobin} },
			wantCase: "permutation-invariance", want: assignortest.ErrOrderDependent, only: true,
			says: `assignortest: plan depends on the order of the input: \w+/\d+ goes to member "\w+" in the (group as given but not in the shuffled group|shuffled group but not in the group as given)`,
		},
		{
			name: "keeps state between calls",
			a: func() assignor.Assignor {
				return &fake{assign: edit(func(ix *assignor.Index, assigned [][]int32) {
					calls++
					if calls%2 == 0 && len(assigned) > 1 {
						assigned[0], assigned[1] = assigned[1], assigned[0]
					}
				})}
			},
			wantCase: "determinism", want: assignortest.ErrNondeterministic,
			says: `assignortest: plan differs between two calls with the same group: \w+/\d+ goes to member "\w+" (in the first call but not in the second call|in the second call but not in the first call|from the first instance but not from a fresh instance|from a fresh instance but not from the first instance)`,
		},
		{
			name: "mutates its input",
			a: func() assignor.Assignor {
				return &fake{assign: func(g assignor.Group) (assignor.Plan, error) {
					slices.SortFunc(g.Members, func(a, b assignor.Member) int { return strings.Compare(b.ID, a.ID) })
					return roundrobin.New().Assign(g)
				}}
			},
			wantCase: "input-not-mutated", want: assignortest.ErrMutatedInput, only: true,
			says: `assignortest: Assign mutated its input: Members\[0\] was member "a" and became member "e" during Assign`,
		},
		{
			name: "returns its input's slices",
			a: func() assignor.Assignor {
				return &fake{assign: func(g assignor.Group) (assignor.Plan, error) {
					plan, err := roundrobin.New().Assign(g)
					for i := range plan.Members {
						for _, m := range g.Members {
							if m.ID == plan.Members[i].Member && assignor.FormatTopicPartitions(m.Owned) == assignor.FormatTopicPartitions(plan.Members[i].Assigned) {
								plan.Members[i].Assigned = m.Owned
							}
						}
					}
					return plan, err
				}}
			},
			wantCase: "input-not-mutated", want: assignortest.ErrAliasedInput, member: "a", only: true,
			says: `assignortest: plan aliases the input: Members\[0\]\.Owned \(member "a"\) changed when the kit overwrote the plan, so the plan shares its memory: t0\[0 1 2\] became overwritten-by-assignortest\[-1073741824 -1073741824 -1073741824\]`,
		},
		{
			name: "panics on a negative claim",
			a: func() assignor.Assignor {
				return &fake{assign: func(g assignor.Group) (assignor.Plan, error) {
					for _, m := range g.Members {
						for _, tp := range m.Owned {
							if slices.ContainsFunc(tp.Partitions, func(p int32) bool { return p < 0 }) {
								panic("negative partition")
							}
						}
					}
					return roundrobin.New().Assign(g)
				}}
			},
			wantCase: "odd-claims", want: assignortest.ErrPanic, only: true,
			says: `(?s)assignortest: the assignor panicked: in Assign: negative partition\nstack, innermost first:\n.*`,
		},
		{
			name: "fails on an unknown topic",
			a: func() assignor.Assignor {
				return &fake{assign: func(g assignor.Group) (assignor.Plan, error) {
					for _, m := range g.Members {
						if slices.Contains(m.Topics, "missing") {
							return assignor.Plan{}, errors.New("unknown topic")
						}
					}
					return roundrobin.New().Assign(g)
				}}
			},
			wantCase: "unknown-topics", want: assignortest.ErrAssignFailed,
			says: `assignortest: Assign failed on a valid group: unknown topic`,
		},
		{
			name: "accepts a duplicate member ID",
			a: func() assignor.Assignor {
				return &fake{assign: func(g assignor.Group) (assignor.Plan, error) {
					var plan assignor.Plan
					for _, m := range g.Members {
						plan.Members = append(plan.Members, assignor.MemberPlan{Member: m.ID})
					}
					return plan, nil
				}}
			},
			wantCase: "invalid-group", want: assignortest.ErrAcceptedInvalid,
			says: `assignortest: Assign accepted a group that cannot be assigned: member ID "a" is listed twice, yet Assign returned a plan and no error`,
		},
		{
			name: "declares cooperative, gives a claimed partition to a new member",
			a: func() assignor.Assignor {
				return &fake{assign: roundrobin.New().Assign, protocols: []assignor.Protocol{assignor.Cooperative}}
			},
			wantCase: "claims", want: assignor.ErrNotOwner, member: "new",
			says: `assignor: claimed partition assigned to a member that is not its valid owner: t\d/\d+: member "new"`,
		},
		{
			name: "declares cooperative, gives a partition to a stale claimant while its valid owner holds it",
			a: func() assignor.Assignor {
				c := coop{roundrobin.New()}
				return &fake{protocols: c.Protocols(), assign: func(g assignor.Group) (assignor.Plan, error) {
					ix, err := assignor.NewIndex(g)
					if err != nil {
						return assignor.Plan{}, err
					}
					plan, err := c.Assign(g)
					if err != nil {
						return plan, err
					}
					assigned := flat(ix, plan)
					// Hand every stale claimant what it claims.
					for m := range int32(ix.NumMembers()) {
						for _, p := range ix.Claims(m) {
							if o := ix.Owner(p); o >= 0 && o != m {
								assigned[m] = append(assigned[m], p)
							}
						}
					}
					out := planOf(ix, assigned)
					out.FollowUp = plan.FollowUp
					return out, nil
				}}
			},
			wantCase: "claims", want: assignor.ErrNotOwner, member: "stale",
			says: `assignor: claimed partition assigned to a member that is not its valid owner: t0/[03]: member "stale" \(generation 2\)`,
		},
		{
			name: "declares balanced, gives every topic to its first subscriber",
			a: func() assignor.Assignor {
				return &fake{balanced: true, assign: edit(func(ix *assignor.Index, assigned [][]int32) {
					for m := range assigned {
						assigned[m] = assigned[m][:0]
					}
					for p := range ix.NumPartitions() {
						if subs := ix.Subscribers(ix.TopicOf(int32(p))); len(subs) > 0 {
							assigned[subs[0]] = append(assigned[subs[0]], int32(p))
						}
					}
				})}
			},
			wantCase: "balanced", want: assignortest.ErrUnbalanced, member: "m0",
			says: `assignortest: plan is not balanced: member "m0" has 7 partitions and member "m1" 0; with identical subscriptions no two members may be more than one apart`,
		},
		{
			name:     "declares sticky, ignores ownership",
			a:        func() assignor.Assignor { return &fake{sticky: true, assign: roundrobin.New().Assign} },
			wantCase: "sticky-keeps-ownership", want: assignortest.ErrNotSticky, member: "m0",
			says: `assignortest: plan moves partitions a sticky assignor must keep: t\d/\d+ moved away from member "m0", its valid owner, though ownership was complete and balanced`,
		},
		{
			name:     "declares sticky, keeps ownership only when it is complete and balanced",
			a:        func() assignor.Assignor { return &fake{sticky: true, assign: keepsOnlyBalancedOwnership} },
			wantCase: "sticky-join-leave", want: assignortest.ErrNotSticky,
			says: `assignortest: plan moves partitions a sticky assignor must keep: (\w+/\d+ moved away from member "m\d", which owned \d+ partitions and keeps \d+, so (none|only \d+) had to move and \d+ did|\d+ partitions moved where balance requires \d+)`,
		},
		{
			name:     "a correct range assignor that does not validate member IDs",
			a:        func() assignor.Assignor { return naiveRange{} },
			wantCase: "invalid-group", want: assignortest.ErrAcceptedInvalid, member: "", only: true,
			says: `assignortest: Assign accepted a group that cannot be assigned: member ID "" is empty, yet Assign returned a plan and no error`,
		},
		{
			name: "refuses big groups",
			a: func() assignor.Assignor {
				return &fake{assign: func(g assignor.Group) (assignor.Plan, error) {
					n := 0
					for _, t := range g.Topics {
						n += len(t.Partitions)
					}
					if n > 10_000 {
						return assignor.Plan{}, fmt.Errorf("too many partitions: %d", n)
					}
					return roundrobin.New().Assign(g)
				}}
			},
			wantCase: "big-group", want: assignortest.ErrAssignFailed, only: true,
			says: `assignortest: Assign failed on a valid group: too many partitions: 100000`,
		},
	}
}

// keepsOnlyBalancedOwnership returns the valid ownership when it is complete
// and balanced, else round-robin's plan: it passes sticky-keeps-ownership
// and moves more than it must when one member joins or leaves.
func keepsOnlyBalancedOwnership(g assignor.Group) (assignor.Plan, error) {
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return assignor.Plan{}, err
	}
	assigned := make([][]int32, ix.NumMembers())
	for p := range int32(ix.NumPartitions()) {
		o := ix.Owner(p)
		if o < 0 {
			return roundrobin.New().Assign(g)
		}
		assigned[o] = append(assigned[o], p)
	}
	counts := make([]int, len(assigned))
	for m := range assigned {
		counts[m] = len(assigned[m])
	}
	if len(counts) > 0 && slices.Max(counts)-slices.Min(counts) > 1 {
		return roundrobin.New().Assign(g)
	}
	return planOf(ix, assigned), nil
}

// naiveRange is a correct range assignor (each topic's subscribers, in
// member ID order, get contiguous ranges) written without assignor.NewIndex,
// so it does not reject empty or duplicate member IDs: it must fail
// invalid-group, and only that case.
type naiveRange struct{}

func (naiveRange) Name() string { return "range" }

func (naiveRange) Assign(g assignor.Group) (assignor.Plan, error) {
	members := slices.SortedFunc(slices.Values(g.Members), func(a, b assignor.Member) int { return strings.Compare(a.ID, b.ID) })
	topics := slices.SortedFunc(slices.Values(g.Topics), func(a, b assignor.Topic) int { return strings.Compare(a.Name, b.Name) })
	plan := assignor.Plan{Members: make([]assignor.MemberPlan, len(members))}
	for i, m := range members {
		plan.Members[i].Member = m.ID
	}
	for _, t := range topics {
		var subscribers []int
		for i, m := range members {
			if slices.Contains(m.Topics, t.Name) {
				subscribers = append(subscribers, i)
			}
		}
		ps := slices.Sorted(slices.Values(t.Partitions))
		n, k := len(ps), len(subscribers)
		for j, i := range subscribers {
			if lo, hi := j*n/k, (j+1)*n/k; hi > lo {
				plan.Members[i].Assigned = append(plan.Members[i].Assigned, assignor.TopicPartitions{Topic: t.Name, Partitions: slices.Clone(ps[lo:hi])})
			}
		}
	}
	return plan, nil
}

// checkAll runs every case but the big group, which the broken assignors
// need not pay for (TestGoodAssignorsPass runs it).
func checkAll(newAssignor func() assignor.Assignor) error {
	return assignortest.CheckExcept(newAssignor, "big-group")
}

// checkFor runs the cases a broken assignor is checked with: every case
// but the big group, or only the big group when that is the one it breaks.
func checkFor(tt brokenAssignor) error {
	if tt.wantCase != "big-group" {
		return checkAll(tt.a)
	}
	var others []string
	for _, c := range assignortest.CaseInfos() {
		if c.Name != "big-group" {
			others = append(others, c.Name)
		}
	}
	return assignortest.CheckExcept(tt.a, others...)
}

// caseInfo returns the named case's CaseInfo.
func caseInfo(t *testing.T, name string) assignortest.CaseInfo {
	t.Helper()
	i := slices.IndexFunc(assignortest.CaseInfos(), func(c assignortest.CaseInfo) bool { return c.Name == name })
	if i < 0 {
		t.Fatalf("no case %q", name)
	}
	return assignortest.CaseInfos()[i]
}

// checkPrintable fails t if text is not valid UTF-8 of printable runes and
// newlines only.
func checkPrintable(t *testing.T, text string) {
	t.Helper()
	if !utf8.ValidString(text) {
		t.Errorf("the failure is not valid UTF-8: %q", text)
		return
	}
	for i, r := range text {
		if r != '\n' && !unicode.IsPrint(r) {
			t.Errorf("the failure has the unprintable %U at byte %d: %q", r, i, text)
			return
		}
	}
}

// TestBrokenAssignorsAreCaught feeds the kit assignors that each break one
// rule and checks that the kit names the case, the member and the partition
// at fault, words the violation as the row says, gives the case's rule and
// fix on one line, shows the call's group and plan, prints nothing
// unprintable, and that errors.Is and errors.As see through the joined
// error.
func TestBrokenAssignorsAreCaught(t *testing.T) {
	t.Parallel()
	for _, tt := range broken() {
		t.Run(tt.name, func(t *testing.T) {
			info := caseInfo(t, tt.wantCase)
			says := regexp.MustCompile("^(?:" + tt.says + ")$")
			var worded, advised bool
			err := checkFor(tt)
			if err == nil {
				t.Fatal("the kit found nothing")
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("errors.Is(err, %v) is false; err:\n%v", tt.want, err)
			}
			var caught bool
			for _, ce := range caseErrors(t, err) {
				text := ce.Error()
				if !strings.HasPrefix(text, ce.Case+": ") && !strings.HasPrefix(text, ce.Case+" (") {
					t.Errorf("error does not start with its case %q: %v", ce.Case, text)
				}
				if tt.only && ce.Case != tt.wantCase {
					t.Errorf("case %q failed too: %v", ce.Case, ce)
				}
				if ce.Group != nil && !strings.Contains(text, "\n  group (") {
					t.Errorf("the failure has a group but does not show it: %v", text)
				}
				if ce.Plan != nil && !strings.Contains(text, "\n  plan:") {
					t.Errorf("the failure has a plan but does not show it: %v", text)
				}
				if ce.Rule == "" || ce.Fix == "" || !strings.Contains(text, "\n  rule: "+ce.Rule+" fix: "+ce.Fix+"\n") && !strings.HasSuffix(text, "\n  rule: "+ce.Rule+" fix: "+ce.Fix) {
					t.Errorf("the failure does not give its rule and fix on a line of their own:\n%v", text)
				}
				checkPrintable(t, text)
				if ce.Case != tt.wantCase {
					continue
				}
				if strings.Contains(ce.Rule, info.Rule) && strings.Contains(ce.Fix, info.Fix) {
					advised = true
				}
				for _, e := range flatten(ce.Err) {
					if !errors.Is(e, tt.want) {
						continue
					}
					worded = worded || says.MatchString(e.Error())
					if tt.member == "" {
						caught = true
						continue
					}
					var pe *assignor.PartitionError
					var me *assignor.MemberError
					switch {
					case errors.As(e, &pe):
						caught = caught || pe.Member == tt.member
						if pe.Topic == "" {
							t.Errorf("partition error without a topic: %v", e)
						}
					case errors.As(e, &me):
						caught = caught || me.Member == tt.member
					}
				}
			}
			if !caught {
				t.Errorf("no error from case %q wrapping %v naming member %q; got:\n%v", tt.wantCase, tt.want, tt.member, err)
			}
			if !worded {
				t.Errorf("no violation of case %q wrapping %v reads as\n%s\ngot:\n%v", tt.wantCase, tt.want, says, err)
			}
			if !advised {
				t.Errorf("no failure of case %q gives its rule %q and fix %q; got:\n%v", tt.wantCase, info.Rule, info.Fix, err)
			}
		})
	}
}

// caseErrors returns the failures Check joined, failing t on anything that
// is not a *CaseError.
func caseErrors(t *testing.T, err error) []*assignortest.CaseError {
	t.Helper()
	var out []*assignortest.CaseError
	for _, e := range flatten(err) {
		ce, ok := e.(*assignortest.CaseError)
		if !ok {
			t.Errorf("not a *CaseError: %T %v", e, e)
			continue
		}
		out = append(out, ce)
	}
	return out
}

// flatten returns the leaves of a tree of joined errors.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// TestCheckJoinsEveryCase checks that Check reports through one joined error
// that unwraps to a list, and that errors.As reaches the root package's
// *PartitionError through it.
func TestCheckJoinsEveryCase(t *testing.T) {
	t.Parallel()
	err := assignortest.Check(func() assignor.Assignor {
		return &fake{assign: edit(func(ix *assignor.Index, assigned [][]int32) {
			if len(assigned) > 1 && len(assigned[0]) > 0 {
				assigned[1] = append(assigned[1], assigned[0][0])
			}
		})}
	})
	if _, ok := err.(interface{ Unwrap() []error }); !ok {
		t.Fatalf("Check's error %T does not unwrap to a list", err)
	}
	var pe *assignor.PartitionError
	if !errors.As(err, &pe) || pe.Topic == "" {
		t.Errorf("errors.As found no *assignor.PartitionError: %v", err)
	}
	cases := map[string]bool{}
	for _, ce := range caseErrors(t, err) {
		for _, e := range flatten(ce.Err) {
			if errors.As(e, &pe) && errors.Is(pe, assignor.ErrAssignedTwice) {
				cases[ce.Case] = true
			}
		}
	}
	if len(cases) < 5 {
		t.Errorf("a double assignment in every plan was reported by only %d cases: %v", len(cases), cases)
	}
}

func TestCases(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, c := range assignortest.CaseInfos() {
		if c.Name == "" || c.Rule == "" || c.Fix == "" {
			t.Errorf("case %q has no name, rule or fix", c.Name)
		}
		for _, sentence := range []string{c.Rule, c.Fix} {
			if r, _ := utf8.DecodeRuneInString(sentence); !unicode.IsUpper(r) || !strings.HasSuffix(sentence, ".") || strings.Contains(sentence, "\n") {
				t.Errorf("case %q: %q is not one line of sentences", c.Name, sentence)
			}
		}
		if seen[c.Name] {
			t.Errorf("case %q listed twice", c.Name)
		}
		seen[c.Name] = true
	}
	for _, want := range []string{"empty-group", "no-subscriptions", "unknown-topics", "one-member", "more-members-than-partitions",
		"heterogeneous-subscriptions", "determinism", "permutation-invariance", "input-not-mutated", "odd-claims", "big-group",
		"balanced", "sticky-keeps-ownership", "sticky-join-leave", "claims"} {
		if !seen[want] {
			t.Errorf("no case %q", want)
		}
	}
}

// TestEveryCaseHasABrokenAssignor: the kit is itself tested with an
// assignor that breaks each case's rule.
func TestEveryCaseHasABrokenAssignor(t *testing.T) {
	t.Parallel()
	tested := map[string]bool{}
	for _, tt := range broken() {
		tested[tt.wantCase] = true
	}
	for _, c := range assignortest.CaseInfos() {
		if !tested[c.Name] {
			t.Errorf("no broken assignor for case %q", c.Name)
		}
	}
}

// TestCapabilityCasesApply pins that the balanced and sticky cases run only
// for assignors that declare the capability, found by type assertion.
func TestCapabilityCasesApply(t *testing.T) {
	t.Parallel()
	plain := &fake{}
	for _, c := range assignortest.CaseInfos() {
		if c.Needs == "" {
			if !assignortest.Applies(c.Name, plain) {
				t.Errorf("case %q needs nothing but does not apply to an assignor that declares nothing", c.Name)
			}
			continue
		}
		declared := &fake{balanced: c.Needs == "balanced", sticky: c.Needs == "sticky"}
		if assignortest.Applies(c.Name, plain) {
			t.Errorf("case %q applies to an assignor that declares nothing", c.Name)
		}
		if !assignortest.Applies(c.Name, declared) {
			t.Errorf("case %q does not apply to an assignor that declares only %s", c.Name, c.Needs)
		}
		if c.Needs != "balanced" && c.Needs != "sticky" {
			t.Errorf("case %q needs %q, a capability the test does not know", c.Name, c.Needs)
		}
	}
}

// planOf builds the plan in which member m holds the flat partitions
// assigned[m] (a partition may be in several lists: the kit's broken
// assignors give some twice).
func planOf(ix *assignor.Index, assigned [][]int32) assignor.Plan {
	plan := assignor.Plan{Members: make([]assignor.MemberPlan, ix.NumMembers())}
	for m := range plan.Members {
		plan.Members[m].Member = ix.Member(int32(m)).ID
		if m < len(assigned) && len(assigned[m]) > 0 {
			plan.Members[m].Assigned = ix.TopicPartitions(assigned[m])
		}
	}
	return plan
}
