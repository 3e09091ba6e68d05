package cooperative

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/rapidseed"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
	"pgregory.net/rapid"
)

func TestMain(m *testing.M) { rapidseed.Main(m) }

// inners are the inner assignors the properties run over. A stable one
// must settle; uniform restricts the settling properties to groups whose
// members all subscribe to the same topics. Sticky is stable only there: with
// different subscriptions there can be several optimal plans, and without
// the withheld partitions' history it may pick another one (see
// TestStableInners).
var inners = []struct {
	name    string
	a       assignor.Assignor
	stable  bool
	uniform bool
	// quiet: not stable, but its follow-up round never withholds (it may
	// hand the withheld partitions elsewhere than it first chose).
	quiet bool
}{
	{name: "roundrobin", a: roundrobin.New(), stable: true},
	{name: "sticky", a: sticky.New(), quiet: true},
	{name: "sticky, identical subscriptions", a: sticky.New(), stable: true, uniform: true},
	{name: "hash", a: hashAssignor{}, stable: true},
	{name: "hash answering in flat form", a: indexedHash{}, stable: true},
	{name: "messy (hash, lists out of order)", a: messyAssignor{}, stable: true},
	{name: "keep (valid, unstable)", a: keepAssignor{}, quiet: true},
	{name: "rotate (valid, unstable)", a: rotateAssignor{}},
}

// allTopics is every member's subscription in uniform groups.
var allTopics = []string{"t0", "t1", "t2", "t3", "t4"}

var topicNames = []string{"t0", "t1", "t2", "t3", "t4"}

// genTopics draws the leader's metadata: up to four of t0..t3 (t4 is never
// in it), some with gaps in their partition lists.
func genTopics(t *rapid.T) []assignor.Topic {
	var topics []assignor.Topic
	for _, name := range topicNames[:4] {
		if !rapid.Bool().Draw(t, name+" exists") {
			continue
		}
		tp := topic(name, int32(rapid.IntRange(0, 7).Draw(t, name+" partitions")))
		if len(tp.Partitions) > 2 && rapid.IntRange(0, 5).Draw(t, name+" gap") == 0 {
			tp.Partitions = slices.Delete(tp.Partitions, 1, 2)
		}
		topics = append(topics, tp)
	}
	return topics
}

// genClaims draws claims: mostly plausible, some odd (unknown topic,
// out of range, negative, duplicated).
func genClaims(t *rapid.T, label string) []assignor.TopicPartitions {
	var owned []assignor.TopicPartitions
	for range rapid.IntRange(0, 4).Draw(t, label+" claim topics") {
		tp := assignor.TopicPartitions{Topic: rapid.SampledFrom(topicNames).Draw(t, label+" claim topic")}
		tp.Partitions = rapid.SliceOfN(rapid.Int32Range(-1, 9), 0, 5).Draw(t, label+" claim partitions")
		owned = append(owned, tp)
	}
	return owned
}

// genGroup draws a group with arbitrary (odd, stale, contested) claims;
// with uniform, every member subscribes to every topic.
func genGroup(t *rapid.T, uniform bool) assignor.Group {
	g := assignor.Group{Topics: genTopics(t)}
	for i := range rapid.IntRange(1, 6).Draw(t, "members") {
		id := fmt.Sprintf("m%d", i)
		topics := allTopics
		if !uniform {
			topics = rapid.SliceOfNDistinct(rapid.SampledFrom(topicNames), 0, 5, rapid.ID[string]).Draw(t, id+" topics")
		}
		g.Members = append(g.Members, assignor.Member{
			ID:         id,
			Topics:     slices.Clone(topics),
			Owned:      genClaims(t, id),
			Generation: rapid.Int32Range(-2, 4).Draw(t, id+" generation"),
		})
	}
	return g
}

type key struct {
	topic string
	id    int32
}

func keys(tps []assignor.TopicPartitions) map[key]bool {
	out := map[key]bool{}
	for _, tp := range tps {
		for _, id := range tp.Partitions {
			out[key{tp.Topic, id}] = true
		}
	}
	return out
}

// TestPropertySplit checks, over random groups with arbitrary claims and
// every inner assignor: the plan passes CheckPlan for the cooperative
// protocol (the safety rule), each member's Revoked is its raw claims minus
// its Assigned, every assignment comes from the inner plan or is a
// give-back, the sets agree with the plan, FollowUp is set exactly when
// something is withheld, the group is not mutated, and the plan does not
// depend on input order.
func TestPropertySplit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		inner := inners[rapid.IntRange(0, len(inners)-1).Draw(t, "inner")]
		g := genGroup(t, inner.uniform)
		cfg := Config{RevokeUnknown: rapid.Bool().Draw(t, "revoke unknown")}
		before := g.Clone()
		sets, plan, err := SplitWithConfig(g, inner.a, cfg)
		if err != nil {
			t.Fatalf("%s: %v", inner.name, err)
		}
		if !groupsEqual(g, before) {
			t.Fatalf("the group was mutated")
		}
		if err := assignor.CheckPlan(g, plan, assignor.Cooperative); err != nil {
			t.Fatalf("CheckPlan:\n%v\nplan:\n%s", err, plan)
		}
		innerPlan, _ := inner.a.Assign(g)
		checkPlanAgainst(t, g, plan, innerPlan, sets)
		shuffled := shuffle(t, g)
		if again, err := WrapWithConfig(inner.a, cfg).Assign(shuffled); err != nil || again.String() != plan.String() {
			t.Fatalf("shuffled input: plan\n%s(err %v), want\n%s", again, err, plan)
		}
	})
}

// checkPlanAgainst checks Revoked, the provenance of every assignment and
// the agreement of plan and sets.
func checkPlanAgainst(t *rapid.T, g assignor.Group, plan, innerPlan assignor.Plan, sets Sets) {
	fates := map[key]Partition{}
	for _, set := range [][]Partition{sets.MaybeRevoking, sets.ReadyToMigrate, sets.UnknownButOwned} {
		for _, p := range set {
			k := key{p.Topic, p.Partition}
			if _, dup := fates[k]; dup {
				t.Fatalf("%s/%d is in two sets", p.Topic, p.Partition)
			}
			fates[k] = p
		}
	}
	withheld := false
	holder := map[key]string{}
	for _, m := range g.Members {
		mp, _ := plan.Member(m.ID)
		ip, _ := innerPlan.Member(m.ID)
		fromInner := keys(ip.Assigned)
		for k := range keys(mp.Assigned) {
			holder[k] = m.ID
			f, ok := fates[k]
			switch {
			case !ok:
				t.Fatalf("%s holds %v, which is in no set", m.ID, k)
			case f.Fate == GivenBack && f.Owner == m.ID:
			case (f.Fate == Kept && f.Owner == m.ID || f.Fate == Handed) && fromInner[k] && f.Target == m.ID:
			default:
				t.Fatalf("%s holds %v, but its fate is %+v", m.ID, k, f)
			}
		}
		claimed := keys(m.Owned)
		assigned := keys(mp.Assigned)
		want := map[key]bool{}
		for k := range claimed {
			if !assigned[k] {
				want[k] = true
			}
		}
		if got := keys(mp.Revoked); !mapsEqual(got, want) {
			t.Fatalf("%s revokes %v, want claims minus assigned %v", m.ID, mp.Revoked, want)
		}
		if !slices.IsSortedFunc(mp.Revoked, func(a, b assignor.TopicPartitions) int { return strings.Compare(a.Topic, b.Topic) }) {
			t.Fatalf("%s: Revoked not sorted: %v", m.ID, mp.Revoked)
		}
	}
	for k, f := range fates {
		if f.Fate == Withheld {
			withheld = true
		}
		_, held := holder[k]
		if held != (f.Fate == Kept || f.Fate == Handed || f.Fate == GivenBack) {
			t.Fatalf("%v has fate %v but held = %v", k, f.Fate, held)
		}
	}
	if plan.FollowUp != withheld {
		t.Fatalf("FollowUp = %v, something withheld = %v", plan.FollowUp, withheld)
	}
}

func mapsEqual(a, b map[key]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func groupsEqual(a, b assignor.Group) bool { return fmt.Sprintf("%v", a) == fmt.Sprintf("%v", b) }

// shuffle returns a deep copy of g with members, topics, partitions and
// claims in a drawn order.
func shuffle(t *rapid.T, g assignor.Group) assignor.Group {
	g = g.Clone()
	perm := func(n int, label string) []int {
		return rapid.Permutation(seq(n)).Draw(t, label)
	}
	members := make([]assignor.Member, len(g.Members))
	for i, j := range perm(len(g.Members), "member order") {
		m := g.Members[j]
		owned := make([]assignor.TopicPartitions, len(m.Owned))
		for a, b := range perm(len(m.Owned), "claim order") {
			owned[a] = m.Owned[b]
		}
		m.Owned = owned
		members[i] = m
	}
	g.Members = members
	topics := make([]assignor.Topic, len(g.Topics))
	for i, j := range perm(len(g.Topics), "topic order") {
		tp := g.Topics[j]
		ps := make([]int32, len(tp.Partitions))
		for a, b := range perm(len(tp.Partitions), "partition order") {
			ps[a] = tp.Partitions[b]
		}
		tp.Partitions = ps
		topics[i] = tp
	}
	g.Topics = topics
	return g
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestVerifyAgreesWithCheckPlan holds the wrapper's self-check to
// assignor.CheckPlan for the cooperative protocol, violation for violation:
// over random groups, the decided round is corrupted at random (partitions
// moved to any member or to nobody, give-backs flipped), and verify must
// report exactly what CheckPlan finds in the plan built from it.
func TestVerifyAgreesWithCheckPlan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := genGroup(t, false)
		ix, err := assignor.NewIndex(g)
		if err != nil {
			t.Fatal(err)
		}
		r := newRebalance(ix, Config{RevokeUnknown: rapid.Bool().Draw(t, "revoke unknown")})
		if err := r.readAnswer(hashAssignor{}); err != nil {
			t.Fatal(err)
		}
		r.decide()
		for p := range r.final {
			if rapid.IntRange(0, 3).Draw(t, "corrupt") == 0 {
				r.final[p] = int32(rapid.IntRange(-1, ix.NumMembers()-1).Draw(t, "holder"))
			}
		}
		for i := range r.back {
			if rapid.IntRange(0, 2).Draw(t, "flip") == 0 {
				r.back[i] = !r.back[i]
			}
		}
		r.reuse = nil // build every list from the corrupted r.final
		got := errLines(r.verify())
		want := errLines(assignor.CheckPlan(g, r.plan(), assignor.Cooperative))
		if !slices.Equal(got, want) {
			t.Fatalf("verify:\n%s\nCheckPlan:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// errLines returns the lines of err's message, sorted.
func errLines(err error) []string {
	if err == nil {
		return nil
	}
	lines := strings.Split(err.Error(), "\n")
	slices.Sort(lines)
	return lines
}

// TestFlatAnswerMatchesAssign: an inner assignor answering in flat form
// gives the same plans and sets as through Assign.
func TestFlatAnswerMatchesAssign(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := genGroup(t, false)
		cfg := Config{RevokeUnknown: rapid.Bool().Draw(t, "revoke unknown")}
		wantSets, want, err := SplitWithConfig(g, hashAssignor{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		gotSets, got, err := SplitWithConfig(g, indexedHash{}, cfg)
		if err != nil || got.String() != want.String() || gotSets.String() != wantSets.String() {
			t.Fatalf("through AssignFlat:\n%s%s(err %v)\nthrough Assign:\n%s%s", got, gotSets, err, want, wantSets)
		}
	})
}

// TestWrapperFlatStandsForAssign: the wrapper's own flat answer stands for
// its plan (assignor.FlatAssignor's contract): PlanOf gives Assign's plan
// but for Revoked, with an inner assignor answering in flat form and one
// answering with a plan, on groups with outside claims.
func TestWrapperFlatStandsForAssign(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := genGroup(t, false)
		cfg := Config{RevokeUnknown: rapid.Bool().Draw(t, "revoke unknown")}
		for _, inner := range []assignor.Assignor{hashAssignor{}, indexedHash{}, keepAssignor{}} {
			w := WrapWithConfig(inner, cfg)
			want, err := w.Assign(g)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want.Members {
				want.Members[i].Revoked = nil
			}
			ix, err := assignor.NewIndex(g)
			if err != nil {
				t.Fatal(err)
			}
			fp, err := w.(assignor.FlatAssignor).AssignFlat(ix)
			if err != nil {
				t.Fatal(err)
			}
			if got := ix.PlanOf(fp); got.String() != want.String() {
				t.Fatalf("%s: PlanOf(AssignFlat):\n%s\nAssign without Revoked:\n%s", inner.Name(), got, want)
			}
		}
	})
}

// randomPlan is an inner assignor returning a drawn, mostly broken plan.
type randomPlan struct{ plan assignor.Plan }

func (randomPlan) Name() string                                   { return "random" }
func (r randomPlan) Assign(assignor.Group) (assignor.Plan, error) { return r.plan, nil }

// TestPropertyBrokenInner: whatever plan the inner assignor returns (any
// assignment of the partitions to their subscribers, in lists out of order,
// or any mess: unknown or repeated members, odd partitions), the
// wrapper never panics, and it either fails or returns a plan that passes
// CheckPlan for the cooperative protocol.
func TestPropertyBrokenInner(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := genGroup(t, false)
		var plan assignor.Plan
		if rapid.Bool().Draw(t, "plausible") {
			plan = drawAssignment(t, g)
		} else {
			ids := []string{"m0", "m1", "m2", "m3", "m4", "m5", "zz"}
			for range rapid.IntRange(0, 7).Draw(t, "entries") {
				plan.Members = append(plan.Members, assignor.MemberPlan{
					Member:   rapid.SampledFrom(ids).Draw(t, "plan member"),
					Assigned: genClaims(t, "plan"),
				})
			}
		}
		sets, got, err := SplitWithConfig(g, randomPlan{plan}, Config{RevokeUnknown: rapid.Bool().Draw(t, "revoke unknown")})
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not a *cooperative.Error", err)
			}
			return
		}
		if err := assignor.CheckPlan(g, got, assignor.Cooperative); err != nil {
			t.Fatalf("accepted an inner plan and returned an unsafe one:\n%v\ninner:\n%s\nplan:\n%s", err, plan, got)
		}
		checkPlanAgainst(t, g, got, plan, sets)
	})
}

// drawAssignment draws an arbitrary assignment of g's partitions to their
// topics' subscribers (some left out), one entry per member, each member's
// list in a drawn order: what any valid or almost valid inner assignor
// might return.
func drawAssignment(t *rapid.T, g assignor.Group) assignor.Plan {
	var plan assignor.Plan
	lists := map[string][]assignor.TopicPartitions{}
	for _, tp := range g.Topics {
		var subs []string
		for _, m := range g.Members {
			if slices.Contains(m.Topics, tp.Name) {
				subs = append(subs, m.ID)
			}
		}
		if len(subs) == 0 {
			continue
		}
		for _, id := range tp.Partitions {
			i := rapid.IntRange(-1, len(subs)-1).Draw(t, "holder")
			if i < 0 {
				continue
			}
			lists[subs[i]] = append(lists[subs[i]], assignor.TopicPartitions{Topic: tp.Name, Partitions: []int32{id}})
		}
	}
	for _, m := range g.Members {
		l := lists[m.ID]
		order := rapid.Permutation(seq(len(l))).Draw(t, "list order")
		shuffled := make([]assignor.TopicPartitions, len(l))
		for a, b := range order {
			shuffled[a] = l[b]
		}
		plan.Members = append(plan.Members, assignor.MemberPlan{Member: m.ID, Assigned: shuffled})
	}
	return plan
}
