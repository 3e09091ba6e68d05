package assignortest

import (
	"errors"
	"fmt"
	"time"

	"github.com/kgroup/assignor"
)

const bigGroupCase = "big-group"

// cases are the kit's cases, in the order they run. Every case checks each
// plan it gets with [assignor.CheckPlan] (through runner.settle), so the
// rules of the plan checker apply everywhere: one entry per member, no
// partition twice, only to subscribers, nothing outside the metadata,
// everything assigned (for cooperative assignors, once the follow-up round
// has run) and, for cooperative assignors, claimed partitions only to their
// valid owner. Each case's rule and fix are what a failure prints for the
// violations it probes; others get the general advice (advice.go).
var cases = []testCase{
	{
		name:   "name",
		rule:   "Name returns a non-empty protocol name, the same from every instance.",
		fix:    "Return one constant, non-empty string from Name: it is the protocol name every member sends, and the group runs only a name all members send.",
		probes: []error{ErrBadName},
		run:    checkName,
	},
	{
		name:   "empty-group",
		rule:   "A group without members gets a plan without entries, and no error.",
		fix:    "For a group without members return assignor.Plan{} and a nil error, whatever the topics.",
		probes: []error{ErrAssignFailed, assignor.ErrUnknownMember},
		run:    checkEmptyGroup,
	},
	{
		name:   "no-subscriptions",
		rule:   "Members that subscribe to nothing get an empty entry each.",
		fix:    "Give a member without subscriptions an entry without partitions (assignor.MemberPlan{Member: id}); it is no error, and its claims are ignored.",
		probes: []error{ErrAssignFailed, assignor.ErrMissingMember},
		run:    checkNoSubscriptions,
	},
	{
		name:   "unknown-topics",
		rule:   "Subscribed topics missing from the metadata are ignored, never an error.",
		fix:    "Take the partitions from g.Topics only and skip a subscribed topic it does not list; assign the others as usual.",
		probes: []error{ErrAssignFailed, assignor.ErrOutsideMetadata},
		run:    checkUnknownTopics,
	},
	{
		name:   "one-member",
		rule:   "A lone member gets every partition of the topics it subscribes to, and no other.",
		fix:    "Give the member every partition of each subscribed topic that g.Topics lists (a topic of no partitions gives none) and nothing of the other topics.",
		probes: []error{ErrAssignFailed, assignor.ErrUnassigned, assignor.ErrNotSubscribed},
		run:    checkOneMember,
	},
	{
		name:   "more-members-than-partitions",
		rule:   "With more members than partitions every partition is still assigned exactly once.",
		fix:    "Give each partition to exactly one member, and an entry without partitions to each member left over.",
		probes: []error{assignor.ErrAssignedTwice, assignor.ErrUnassigned, assignor.ErrMissingMember},
		run:    checkMoreMembers,
	},
	{
		name:   "heterogeneous-subscriptions",
		rule:   "Only a topic's subscribers receive its partitions.",
		fix:    "Choose each partition's member among its topic's subscribers only (Index.Subscribers lists them); a member's subscriptions are its own, not the group's.",
		probes: []error{assignor.ErrNotSubscribed},
		run:    checkHeterogeneous,
	},
	{
		name:   "claims",
		rule:   "Valid, stale and contested claims, a new member and a member that left its topic are handled; a cooperative assignor gives a claimed partition only to its valid owner and settles in the follow-up round.",
		fix:    "Resolve claims with assignor.NewIndex (Index.Owner is the valid owner: the highest generation, uncontested); a cooperative assignor withholds a partition another member validly owns for one round and sets Plan.FollowUp, as cooperative.Wrap does around any eager assignor.",
		probes: []error{ErrAssignFailed, assignor.ErrNotOwner, assignor.ErrUnassigned},
		run:    checkClaims,
	},
	{
		name:   "odd-claims",
		rule:   "Claims outside the metadata, negative, without generation or duplicated never cause a panic, an error or a double assignment.",
		fix:    "Read claims through assignor.NewIndex: Index.Claims holds those inside the metadata, each once, Index.Outside the rest (unknown topics, unknown or negative partitions), and a negative generation reads as none; never index by a claimed partition unchecked.",
		probes: []error{ErrPanic, ErrAssignFailed, assignor.ErrAssignedTwice, assignor.ErrOutsideMetadata},
		run:    checkOddClaims,
	},
	{
		name:   "invalid-group",
		rule:   "A group with an empty or duplicate member ID is an error, never a plan or a panic.",
		fix:    "Start Assign with ix, err := assignor.NewIndex(g) and return err: NewIndex rejects an empty or duplicate member ID (and topic name) with an *assignor.MemberError.",
		probes: []error{ErrAcceptedInvalid, ErrPanic},
		run:    checkInvalidGroup,
	},
	{
		name:   "determinism",
		rule:   "The same group gives the same plan, twice from one instance and once from a fresh one.",
		fix:    "Keep no state between calls, draw no randomness the group does not seed, and let no map iteration order decide anything.",
		probes: []error{ErrNondeterministic},
		run:    checkDeterminism,
	},
	{
		name:   "permutation-invariance",
		rule:   "The plan does not depend on the order of members, topics, partitions, subscriptions or claims.",
		fix:    "Put the group in a canonical order before deciding anything (members by ID, topics by name, partitions ascending); assignor.NewIndex does.",
		probes: []error{ErrOrderDependent},
		run:    checkPermutations,
	},
	{
		name:   "input-not-mutated",
		rule:   "Assign does not change its input, and the plan shares no memory with it.",
		fix:    "Treat the group as read-only (sort a copy made with g.Clone, or work from assignor.NewIndex) and copy every slice the plan takes from it (assignor.CloneTopicPartitions, slices.Clone).",
		probes: []error{ErrMutatedInput, ErrAliasedInput},
		run:    checkNotMutated,
	},
	{
		name:   "balanced",
		needs:  balancedCapability,
		rule:   "With identical subscriptions no member gets more than one partition above another.",
		fix:    "Deal the partitions so that members with identical subscriptions end at most one apart, or do not declare Balanced.",
		probes: []error{ErrUnbalanced},
		run:    checkBalance,
	},
	{
		name:   "sticky-keeps-ownership",
		needs:  stickyCapability,
		rule:   "When valid ownership is complete and balanced, the plan keeps it unchanged.",
		fix:    "Start from the valid ownership (Index.Owner) and move nothing when it is already complete and balanced, or do not declare Sticky.",
		probes: []error{ErrNotSticky},
		run:    checkKeepsOwnership,
	},
	{
		name:   "sticky-join-leave",
		needs:  stickyCapability,
		rule:   "After one member joins or leaves (identical subscriptions) only the partitions balance requires move.",
		fix:    "Keep each member's valid ownership up to its balanced quota, give the larger quotas to the members that own most, and move only the excess; or do not declare Sticky.",
		probes: []error{ErrNotSticky},
		run:    checkJoinLeave,
	},
	{
		name:   bigGroupCase,
		rule:   "A group of 1,000 members and 100,000 partitions is assigned, and correctly.",
		fix:    "Assign any valid group, however big: no size limit, and no memory quadratic in members or partitions.",
		probes: []error{ErrAssignFailed},
		run:    checkBigGroup,
	},
}

func checkName(r *runner) {
	name, err := safeName(r.a)
	if err != nil {
		r.fail(err)
		return
	}
	if name == "" {
		r.fail(fmt.Errorf("%w: Name returned \"\"", ErrBadName))
	}
	other, ok := r.fresh()
	if !ok {
		return
	}
	if otherName, err := safeName(other); err != nil {
		r.fail(err)
	} else if otherName != name {
		r.fail(fmt.Errorf("%w: Name returned %q, and %q from another instance", ErrBadName, name, otherName))
	}
}

func checkEmptyGroup(r *runner) {
	r.inGroup("no members, no topics")
	r.settle(assignor.Group{})
	r.inGroup("no members, one topic")
	r.settle(assignor.Group{Topics: []assignor.Topic{topic("t0", 3)}})
}

func checkNoSubscriptions(r *runner) {
	r.settle(assignor.Group{
		Members: []assignor.Member{member("a"), member("b"), owning(member("c"), 2, tps("t0", 1))},
		Topics:  []assignor.Topic{topic("t0", 3)},
	})
}

func checkUnknownTopics(r *runner) {
	r.settle(assignor.Group{
		Members: []assignor.Member{member("a", "t0", "missing"), member("b", "missing", "also-missing"), member("c", "also-missing", "t0")},
		Topics:  []assignor.Topic{topic("t0", 3)},
	})
}

func checkOneMember(r *runner) {
	r.settle(assignor.Group{
		Members: []assignor.Member{member("only", "t0", "t1", "empty")},
		Topics:  []assignor.Topic{topic("t0", 3), topic("t1", 2), topic("t2", 4), topic("empty", 0)},
	})
}

func checkMoreMembers(r *runner) {
	_, plan, ok := r.settle(uniform(5, topic("t0", 2)))
	if ok && r.balanced {
		r.failAll(checkBalanced(plan))
	}
}

func checkHeterogeneous(r *runner) {
	r.inGroup("Java's example")
	r.settle(javaHeterogeneous())
	r.inGroup("mixed subscriptions")
	r.settle(mixedSubscriptions())
}

func checkClaims(r *runner) {
	// old1 and old2 own everything at generation 4; stale claims an old
	// generation's partitions; tie claims t1/3 at generation 4 as old2 does,
	// so nobody owns it; quitter, at generation 9, owns t0/5 but no longer
	// subscribes to t0; new owns nothing.
	r.inGroup("join with stale, contested and abandoned claims")
	r.settle(assignor.Group{
		Members: []assignor.Member{
			owning(member("old1", "t0", "t1"), 4, tps("t0", 0, 1, 2), tps("t1", 0, 1)),
			owning(member("old2", "t0", "t1"), 4, tps("t0", 3, 4), tps("t1", 2, 3)),
			owning(member("stale", "t0", "t1"), 2, tps("t0", 0, 3)),
			owning(member("tie", "t0", "t1"), 4, tps("t1", 3)),
			owning(member("quitter", "t1"), 9, tps("t0", 5)),
			member("new", "t0", "t1"),
		},
		Topics: []assignor.Topic{topic("t0", 6), topic("t1", 4)},
	})
	// A member left: its partitions are unclaimed; the rest stay put.
	r.inGroup("leave")
	r.settle(withoutMember(withBlockOwnership(uniform(3, topic("t0", 4), topic("t1", 5)), 3, 6), 1))
}

func checkOddClaims(r *runner) {
	r.settle(assignor.Group{
		Members: []assignor.Member{
			// Duplicates within one member, out of range, unknown topic, negative.
			owning(member("a", "t0", "t1", "t9"), 3, tps("t0", 0, 1, 1), tps("t0", 2), tps("t0", 99), tps("t9", 0), tps("t0", -1)),
			// t0/0 at the same generation as a: contested.
			owning(member("b", "t0", "t1"), 3, tps("t0", 0), tps("t1", 0)),
			// Stale against a and b.
			owning(member("c", "t0", "t1"), 1, tps("t0", 1), tps("t1", 0)),
			// Claims without a generation: t1/1 tied at NoGeneration.
			owning(member("d", "t0", "t1"), assignor.NoGeneration, tps("t1", 1)),
			owning(member("e", "t0", "t1"), assignor.NoGeneration, tps("t1", 1, 2)),
			// A negative generation reads as NoGeneration: tied with e on t1/2.
			owning(member("f", "t1"), -7, tps("t1", 2)),
			// Outside claims at a higher generation than a's.
			owning(member("h", "t0", "t1", "t9"), 5, tps("t0", 3), tps("t9", 0), tps("t1", 7)),
			member("new", "t0", "t1"),
		},
		Topics: []assignor.Topic{topic("t0", 4), topic("t1", 3)},
	})
}

func checkInvalidGroup(r *runner) {
	for _, tt := range []struct {
		name    string
		g       assignor.Group
		culprit string // the member ID at fault
		problem string // what is wrong with it, as a sentence goes on
	}{
		{"empty member ID", assignor.Group{Members: []assignor.Member{member("a", "t0"), member("", "t0")}, Topics: []assignor.Topic{topic("t0", 2)}}, "", "is empty"},
		{"duplicate member ID", assignor.Group{Members: []assignor.Member{member("a", "t0"), member("b", "t0"), member("a", "t0")}, Topics: []assignor.Topic{topic("t0", 2)}}, "a", "is listed twice"},
	} {
		r.inGroup("%s", tt.name)
		r.input = &tt.g
		plan, err := safeAssign(r.a, tt.g.Clone())
		switch {
		case errors.Is(err, ErrPanic):
			r.fail(err)
		case err == nil:
			returned := clonePlan(plan)
			r.plan = &returned
			r.fail(memberViolation(tt.culprit, ErrAcceptedInvalid, "member ID %q %s, yet Assign returned a plan and no error", tt.culprit, tt.problem))
		}
	}
}

func checkDeterminism(r *runner) {
	for _, tt := range []struct {
		name string
		g    assignor.Group
	}{{"rich group", richGroup()}, {"mixed subscriptions", mixedSubscriptions()}} {
		r.inGroup("%s", tt.name)
		first, ok := r.call(r.a, tt.g)
		if !ok {
			continue
		}
		if again, ok := r.call(r.a, tt.g); ok {
			r.failAll(diffPlans(first, again, ErrNondeterministic, "in the first call", "in the second call"))
		}
		r.inGroup("%s, fresh instance", tt.name)
		a, ok := r.fresh()
		if !ok {
			continue
		}
		if fresh, ok := r.call(a, tt.g); ok {
			r.failAll(diffPlans(first, fresh, ErrNondeterministic, "from the first instance", "from a fresh instance"))
		}
	}
}

func checkPermutations(r *runner) {
	groups := []struct {
		name string
		g    assignor.Group
	}{
		{"rich group", richGroup()},
		{"mixed subscriptions", mixedSubscriptions()},
		{"Java's example", javaHeterogeneous()},
		{"uniform with claims", withBlockOwnership(uniform(4, topic("t0", 5), topic("t1", 7)), 3, 2)},
	}
	for _, tt := range groups {
		r.inGroup("%s", tt.name)
		want, ok := r.call(r.a, tt.g)
		if !ok {
			continue
		}
		for seed := uint64(1); seed <= 4; seed++ {
			r.inGroup("%s, shuffle seed %d", tt.name, seed)
			if got, ok := r.call(r.a, shuffled(tt.g, seed)); ok {
				r.failAll(diffPlans(want, got, ErrOrderDependent, "in the group as given", "in the shuffled group"))
			}
		}
	}
}

func checkNotMutated(r *runner) {
	for _, tt := range []struct {
		name string
		g    assignor.Group
	}{
		{"rich group", richGroup()},
		{"shuffled rich group", shuffled(richGroup(), 7)},
		{"one member", assignor.Group{Members: []assignor.Member{owning(member("a", "t0"), 1, tps("t0", 0, 1, 2))}, Topics: []assignor.Topic{topic("t0", 3)}}},
	} {
		r.inGroup("%s", tt.name)
		pristine, in := tt.g.Clone(), tt.g.Clone()
		plan, ok := r.callInPlace(r.a, in)
		if !ok {
			continue
		}
		r.failAll(diffGroups(pristine, in, ErrMutatedInput, "during Assign"))
		after := in.Clone()
		scribble(plan)
		r.failAll(diffGroups(after, in, ErrAliasedInput, "when the kit overwrote the plan, so the plan shares its memory"))
	}
}

func checkBalance(r *runner) {
	shapes := []struct {
		name string
		g    assignor.Group
	}{
		{"7 partitions, 3 members", uniform(3, topic("t0", 7))},
		{"3 partitions, 5 members", uniform(5, topic("t0", 3))},
		{"3 topics of 5, 4 members", uniform(4, topic("t0", 5), topic("t1", 5), topic("t2", 5))},
		{"topics of 10 and 1, 3 members", uniform(3, topic("t0", 10), topic("t1", 1))},
		{"sparse partition IDs, 4 members", uniform(4, assignor.Topic{Name: "t0", Partitions: []int32{0, 3, 9, 12, 40, 41, 77}})},
		{"100 partitions owned by one of 7 members", withBlockOwnership(uniform(7, topic("t0", 60), topic("t1", 40)), 1, 2)},
		{"12 partitions owned by 2 of 4 members", withBlockOwnership(uniform(4, topic("t0", 12)), 2, 5)},
	}
	for _, s := range shapes {
		r.inGroup("%s", s.name)
		if _, plan, ok := r.settle(s.g); ok {
			r.failAll(checkBalanced(plan))
		}
	}
}

func checkKeepsOwnership(r *runner) {
	shapes := []struct {
		name string
		g    assignor.Group
	}{
		{"12 partitions over 4 members", withBlockOwnership(uniform(4, topic("t0", 5), topic("t1", 7)), 4, 7)},
		{"10 partitions over 3 members", withBlockOwnership(uniform(3, topic("t0", 10)), 3, 7)},
		{"3 partitions over 3 of 5 members", withBlockOwnership(uniform(5, topic("t0", 3)), 3, 7)},
	}
	for _, s := range shapes {
		r.inGroup("%s", s.name)
		if _, plan, ok := r.settle(s.g); ok {
			r.failAll(checkKept(s.g, plan))
		}
	}
}

// checkKept reports every partition validly owned in g that plan gives to
// another member.
func checkKept(g assignor.Group, plan assignor.Plan) []error {
	var errs []error
	for _, m := range g.Members {
		mp, _ := plan.Member(m.ID)
		errs = append(errs, partitionViolations(m.ID, assignor.SubtractTopicPartitions(m.Owned, mp.Assigned), ErrNotSticky, func(p string) string {
			return fmt.Sprintf("%s moved away from member %q, its valid owner, though ownership was complete and balanced", p, m.ID)
		})...)
	}
	return errs
}

func checkJoinLeave(r *runner) {
	shapes := []struct {
		name    string
		owners  int
		topics  []assignor.Topic
		join    bool
		leaving int
	}{
		{"12 partitions, 3 members, one joins", 3, []assignor.Topic{topic("t0", 12)}, true, 0},
		{"10 partitions, 3 members, one joins", 3, []assignor.Topic{topic("t0", 4), topic("t1", 6)}, true, 0},
		{"3 partitions, 3 members, one joins", 3, []assignor.Topic{topic("t0", 3)}, true, 0},
		{"12 partitions, 4 members, one leaves", 4, []assignor.Topic{topic("t0", 12)}, false, 1},
		{"11 partitions, 4 members, one leaves", 4, []assignor.Topic{topic("t0", 5), topic("t1", 6)}, false, 3},
		{"7 partitions, 3 members, one leaves", 3, []assignor.Topic{topic("t0", 7)}, false, 0},
	}
	for _, s := range shapes {
		r.inGroup("%s", s.name)
		members := s.owners
		if s.join {
			members++
		}
		g := withBlockOwnership(uniform(members, s.topics...), s.owners, 7)
		if !s.join {
			g = withoutMember(g, s.leaving)
		}
		if _, plan, ok := r.settle(g); ok {
			r.failAll(checkMoves(g, plan))
			if r.balanced {
				r.failAll(checkBalanced(plan))
			}
		}
	}
}

func checkBigGroup(r *runner) {
	const members, topics, perTopic = 1000, 100, 1000
	ts := make([]assignor.Topic, topics)
	for i := range ts {
		ts[i] = topic(fmt.Sprintf("t%02d", i), perTopic)
	}
	// The members before the last owned everything at generation 1; the
	// last one has just joined.
	g := withBlockOwnership(uniform(members, ts...), members-1, 1)
	start := time.Now()
	_, plan, ok := r.settle(g)
	r.logf("%d members, %d partitions: Assign took %v over %d round%s; with the checks, %v",
		members, topics*perTopic, r.assignTime.Round(time.Millisecond), r.calls, plural(r.calls), time.Since(start).Round(time.Millisecond))
	if ok && r.balanced {
		r.failAll(checkBalanced(plan))
	}
}
