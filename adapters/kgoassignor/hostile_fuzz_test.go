package kgoassignor

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/weighted"
	"github.com/kgroup/assignor/wire"
)

// FuzzHostileMember: one member ("x") of an otherwise honest group sends
// arbitrary JoinGroup metadata, under each of this module's assignors
// (sticky, round-robin and weighted, eager and through cooperative.Wrap),
// through the leader as kgo drives it (MemberBalancer, SetBalanceInfo,
// BalanceOrError), for two rounds after the one that forms the group, on
// the same balancer, so that the leader's memory of its last round is used.
//
// The inputs: setup (see hostileSetup: the assignor, how many honest
// members, whether x was an honest member of the settled round before,
// whether the leader changed since, x's member ID, whether x's bytes
// change between the rounds), and x's metadata in rounds 1 and 2.
//
// The group: topics t (12 partitions) and u (5), which every honest member
// subscribes to, and w (3), which only x may. Round 0 (generation 5) forms
// the group from scratch, with x in it when setup says so (an honest
// member then, subscribed to t, u and w). Round 1 (generation 6): each
// honest member sends what round 0 gave it, at generation 5; x sends
// meta1. Round 2
// (generation 7): each honest member sends what round 1 gave it (it took
// its assignment and revoked the rest); x sends meta2 (or meta1 again).
//
// The oracle, for every round and every assignor:
//   - no error, no panic; one assignment per distinct non-empty member ID,
//     none for an empty one, each one kgo can parse;
//   - no partition given to two members; an honest member only gets
//     partitions of the leader's metadata; x only those, or partitions its
//     own metadata claims or, when its claims are unknown, the leader's
//     memory stands for (a cooperative give-back of a claim outside the
//     metadata);
//   - eager assignors: every partition of t and u (and of w when x's
//     metadata decodes, its ID is not empty and it subscribes to w) is
//     assigned.
//
// Cooperative assignors, where "x's claims are unknown" means x's
// metadata does not decode or ends before its owned partitions
// (wire.SubscriptionView.OwnedAbsent), which the leader must see too
// (Stats.ClaimsUnknown):
//   - KIP-429 safety: no partition goes to a member while an honest member
//     other than it claims it (honest members claim at the newest
//     generation, so their claims are valid or, tied with x's, contested);
//     and when x's claims are unknown, none of what x truly holds goes to
//     another member: what it got in the round before (round 1: its
//     round-0 assignment, if it was in round 0; round 2: its round-1
//     assignment), x being a member whose bytes are cut short, not one
//     that lies;
//   - nothing withheld without a claim to justify it: a partition of a
//     subscribed topic left unassigned is claimed by an honest member (a
//     move: it revokes, the next round hands it over), or by x's metadata,
//     or x's claims are unknown and it is something x may hold: round 1,
//     what x got in round 0 or, when the leader changed (no memory),
//     anything nobody else claims; round 2, what x got in round 1 or what
//     x claimed in round 1 (the leader withholds that once more, in case x
//     missed round 1's SyncGroup).
//
// Round 2 is where "no honest member's partitions withheld beyond one
// round" is checked: a partition round 1 withheld (an honest member's, or
// anything nobody claimed when the leader had no memory) is claimed by
// nobody honest in round 2, so round 2 must assign it unless x's own
// claims, as above, may cover it. The oracle is permissive where the
// leader may be stricter (a claim of x that the leader drops as
// impossible still justifies withholding), so that it cannot fail on
// correct behaviour, and exact where a bug would show: a partition lost,
// doubly held, or kept from everyone with no claim behind it.
//
// Seeds: testdata/fuzz/FuzzHostileMember, and the hand-written hostile
// metadata of hostile_test.go under a few setups. The assignor is drawn
// from the input, so one fuzzing run covers all six.
func FuzzHostileMember(f *testing.F) {
	for i, meta := range slices.Sorted(maps.Keys(hostileCases())) {
		b := hostileCases()[meta]
		f.Add(uint16(i*7), b, b)
		f.Add(uint16(i*7+8), b, []byte(nil)) // x in round 0
	}
	f.Fuzz(func(t *testing.T, setup uint16, meta1, meta2 []byte) {
		s := readSetup(setup)
		if err := runHostile(hostileAssignors[s.assignor].new, s, meta1, meta2); err != nil {
			t.Fatal(err)
		}
	})
}

// hostileAssignors are the assignors under test, by the index setup
// draws.
var hostileAssignors = []struct {
	name string
	new  func() assignor.Assignor
}{
	{"sticky", func() assignor.Assignor { return sticky.New() }},
	{"roundrobin", func() assignor.Assignor { return roundrobin.New() }},
	{"weighted", func() assignor.Assignor { return weighted.New() }},
	{"cooperative-sticky", func() assignor.Assignor { return cooperative.Wrap(sticky.New()) }},
	{"cooperative-roundrobin", func() assignor.Assignor { return cooperative.Wrap(roundrobin.New()) }},
	{"cooperative-weighted", func() assignor.Assignor { return cooperative.Wrap(weighted.New()) }},
}

// hostileSetup is what the fuzz input's setup chooses.
type hostileSetup struct {
	assignor     int  // bits 0–2, modulo len(hostileAssignors)
	honest       int  // bits 8–9: 1 to 3 honest members (0 reads as 3)
	xBefore      bool // bit 3: x was an honest member of round 0, and holds what it got
	leaderChange bool // bit 4: round 0 was led by another balancer: round 1's leader has no memory
	sameBytes    bool // bit 5: x sends meta1 again in round 2
	emptyID      bool // bit 6: x's member ID is "" (only when x was not in round 0)
	static       bool // bit 7: x has a static instance ID
}

func readSetup(s uint16) hostileSetup {
	h := hostileSetup{
		assignor:     int(s&7) % len(hostileAssignors),
		xBefore:      s&(1<<3) != 0,
		leaderChange: s&(1<<4) != 0,
		sameBytes:    s&(1<<5) != 0,
		static:       s&(1<<7) != 0,
		honest:       int(s>>8) & 3,
	}
	h.emptyID = s&(1<<6) != 0 && !h.xBefore
	if h.honest == 0 {
		h.honest = 3
	}
	return h
}

// hostileCounts are the partition counts the leader's metadata has, for
// the topics MemberBalancer asks for; "" is always there (kgo's counts
// may name a topic with an empty name: it is left out).
var hostileCounts = map[string]int32{"t": 12, "u": 5, "w": 3, "": 4}

// partitionSet is a set of partitions.
type partitionSet map[topicPartition]bool

func setOf(tps []assignor.TopicPartitions) partitionSet {
	s := partitionSet{}
	for _, tp := range tps {
		for _, p := range tp.Partitions {
			s[topicPartition{tp.Topic, p}] = true
		}
	}
	return s
}

func (s partitionSet) union(o partitionSet) partitionSet {
	out := maps.Clone(s)
	if out == nil {
		out = partitionSet{}
	}
	maps.Copy(out, o)
	return out
}

// xMetadata is x's metadata as the contract says the leader reads it.
type xMetadata struct {
	decoded bool // the metadata decodes (topics, and claims unless absent)
	known   bool // its claims are known: it decodes, and its owned partitions are present
	topics  []string
	claims  partitionSet // what it claims, any generation (when known)
}

func readX(meta []byte) xMetadata {
	var d wire.SubscriptionDecoder
	v, err := d.Decode(meta)
	if err != nil {
		return xMetadata{}
	}
	x := xMetadata{decoded: true, known: !v.OwnedAbsent(), topics: v.Topics, claims: partitionSet{}}
	for topic, ids := range v.OwnedPartitions(nil) {
		for _, id := range ids {
			x.claims[topicPartition{topic, id}] = true
		}
	}
	return x
}

// hostileGroup is the group of one fuzz input.
type hostileGroup struct {
	setup       hostileSetup
	name        string // the assignor's
	cooperative bool
	xID         string
	honest      []string
	// held: what each member got in the last round (by ID).
	held map[string][]assignor.TopicPartitions
	// stats: the leader's last round's.
	stats Stats
}

// runHostile runs the three rounds of one input with assignors from newA
// and returns the first thing the oracle finds wrong (see
// FuzzHostileMember).
func runHostile(newA func() assignor.Assignor, setup hostileSetup, meta1, meta2 []byte) error {
	a := newA()
	g := &hostileGroup{setup: setup, name: a.Name(), cooperative: assignor.Supports(a, assignor.Cooperative), xID: "x", held: map[string][]assignor.TopicPartitions{}}
	if setup.emptyID {
		g.xID = ""
	}
	for i := range setup.honest {
		g.honest = append(g.honest, fmt.Sprint("h", i))
	}
	lead := build(a, Config{Logger: discard, OnRebalance: func(s Stats) { g.stats = s }})
	side := build(newA(), Config{Logger: discard}) // the members' side: JoinGroupMetadata is stateless
	honestMeta := func(id string, gen int32) []byte {
		owned := assignor.TopicPartitionsMap(g.held[id])
		if owned == nil {
			owned = map[string][]int32{}
		}
		return side.JoinGroupMetadata([]string{"t", "u"}, owned, gen)
	}
	withX := func(members []kmsg.JoinGroupResponseMember, id string, meta []byte) []kmsg.JoinGroupResponseMember {
		km := member(id, meta)
		if setup.static {
			km = static(km, "x-instance")
		}
		return append(members, km)
	}

	// Round 0: the group forms; x is in it, honest, if setup says so.
	var members []kmsg.JoinGroupResponseMember
	for _, id := range g.honest {
		members = append(members, member(id, honestMeta(id, -1)))
	}
	if setup.xBefore {
		members = withX(members, "x", side.JoinGroupMetadata([]string{"t", "u", "w"}, map[string][]int32{}, -1))
	}
	leader0 := lead
	if setup.leaderChange {
		leader0 = build(newA(), Config{Logger: discard})
	}
	if err := g.round(leader0, 5, members); err != nil {
		return err
	}
	if missing := g.unassigned(setup.xBefore); len(missing) > 0 {
		return fmt.Errorf("%s: round 0: %v unassigned in a group formed from scratch", g, missing)
	}
	round0 := maps.Clone(g.held)

	// Round 1: x sends meta1.
	x1 := readX(meta1)
	members = nil
	for _, id := range g.honest {
		members = append(members, member(id, honestMeta(id, 5)))
	}
	if err := g.round(lead, 6, withX(members, g.xID, meta1)); err != nil {
		return err
	}
	held0 := setOf(round0[g.xID])
	if err := g.check(1, round0, x1, held0, held0, setup.leaderChange); err != nil {
		return err
	}
	round1 := maps.Clone(g.held)

	// Round 2: x sends meta2 (or meta1 again).
	if setup.sameBytes {
		meta2 = meta1
	}
	x2 := readX(meta2)
	members = nil
	for _, id := range g.honest {
		members = append(members, member(id, honestMeta(id, 6)))
	}
	if err := g.round(lead, 7, withX(members, g.xID, meta2)); err != nil {
		return err
	}
	// What the leader may withhold for x once more: what x claimed in
	// round 1 (its metadata's claims, or, unknown, what it held).
	claimed1 := x1.claims
	if !x1.known {
		claimed1 = held0
	}
	held1 := setOf(round1[g.xID])
	return g.check(2, round1, x2, held1, held1.union(claimed1), false)
}

func (g *hostileGroup) String() string {
	s := g.setup
	return fmt.Sprintf("%s, %d honest, x in round 0 %v, leader change %v, same bytes %v, empty ID %v, static %v",
		g.name, s.honest, s.xBefore, s.leaderChange, s.sameBytes, s.emptyID, s.static)
}

// round runs one rebalance into generation gen as kgo's leader does and
// keeps what each member got. It fails on an error, or on assignments
// that are not one per distinct non-empty member ID, each parseable by
// kgo, no partition in two of them.
func (g *hostileGroup) round(leader *Balancer, gen int32, members []kmsg.JoinGroupResponseMember) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: generation %d: %s", g, gen, fmt.Sprintf(format, args...))
	}
	mb, topics, err := leader.MemberBalancer(members)
	if err != nil {
		return fail("MemberBalancer: %v", err)
	}
	counts := map[string]int32{"": hostileCounts[""]}
	for topic := range topics {
		if n, ok := hostileCounts[topic]; ok {
			counts[topic] = n
		}
	}
	mb.(kgo.GroupMemberBalancerInfo).SetBalanceInfo(kgo.BalanceInfo{Generation: gen})
	into, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(counts)
	if err != nil {
		return fail("one member's metadata failed the rebalance: %v", err)
	}
	ids := map[string]bool{}
	for _, km := range members {
		if km.MemberID != "" {
			ids[km.MemberID] = true
		}
	}
	clear(g.held)
	holder := map[topicPartition]string{}
	for _, sa := range into.IntoSyncAssignment() {
		if !ids[sa.MemberID] {
			return fail("an assignment for %q, not a member with an ID", sa.MemberID)
		}
		if _, dup := g.held[sa.MemberID]; dup {
			return fail("two assignments for %q", sa.MemberID)
		}
		if _, err := kgo.ParseConsumerSyncAssignment(sa.MemberAssignment); err != nil {
			return fail("kgo cannot parse %q's assignment: %v", sa.MemberID, err)
		}
		a, err := wire.DecodeAssignment(sa.MemberAssignment)
		if err != nil {
			return fail("%q's assignment: %v", sa.MemberID, err)
		}
		g.held[sa.MemberID] = assignor.NormalizeTopicPartitions(a.Partitions)
		for p := range setOf(a.Partitions) {
			if prev, ok := holder[p]; ok {
				return fail("%s given to %q and %q", p, prev, sa.MemberID)
			}
			holder[p] = sa.MemberID
		}
	}
	if len(g.held) != len(ids) {
		return fail("assignments for %d members, want %d", len(g.held), len(ids))
	}
	return nil
}

// inside reports whether p is in the leader's metadata.
func inside(p topicPartition) bool {
	n, ok := hostileCounts[p.topic]
	return ok && p.topic != "" && p.partition >= 0 && p.partition < n
}

// unassigned returns the partitions of t and u, and of w when wWanted,
// that no member got in the last round.
func (g *hostileGroup) unassigned(wWanted bool) []topicPartition {
	given := partitionSet{}
	for _, tps := range g.held {
		maps.Copy(given, setOf(tps))
	}
	var out []topicPartition
	for _, topic := range []string{"t", "u", "w"} {
		if topic == "w" && !wWanted {
			continue
		}
		for p := range hostileCounts[topic] {
			if tp := (topicPartition{topic, p}); !given[tp] {
				out = append(out, tp)
			}
		}
	}
	return out
}

// check checks round r's plan (see FuzzHostileMember): before is what
// each member got in the round before (the honest members' claims now), x
// is x's metadata this round, truth what x holds if its claims are
// unknown, possible what its unknown claims may stand for, blind that the
// leader has no memory to read them from.
func (g *hostileGroup) check(r int, before map[string][]assignor.TopicPartitions, x xMetadata, truth, possible partitionSet, blind bool) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: round %d: %s\nbefore: %s\nafter:  %s", g, r, fmt.Sprintf(format, args...), renderHeld(before), renderHeld(g.held))
	}
	honestClaim := map[topicPartition]string{}
	for _, id := range g.honest {
		for p := range setOf(before[id]) {
			honestClaim[p] = id
		}
	}
	for _, id := range slices.Sorted(maps.Keys(g.held)) {
		for _, p := range sortedSet(setOf(g.held[id])) {
			// An outside partition is a give-back: x's own claim, or one
			// the leader recalled for x from its last plan.
			if !inside(p) && (id != g.xID || !x.claims[p] && (x.known || !possible[p])) {
				return fail("%s, outside the metadata, given to %q", p, id)
			}
		}
	}
	wWanted := x.decoded && g.xID != "" && slices.Contains(x.topics, "w")
	if !g.cooperative {
		if missing := g.unassigned(wWanted); len(missing) > 0 {
			return fail("eager plan leaves %v unassigned", missing)
		}
		return nil
	}
	if unknown := g.stats.ClaimsUnknown > 0; unknown != !x.known {
		return fail("x's claims unknown to the leader: %v; by its metadata: %v", unknown, !x.known)
	}
	for _, id := range slices.Sorted(maps.Keys(g.held)) {
		for _, p := range sortedSet(setOf(g.held[id])) {
			if h, ok := honestClaim[p]; ok && h != id {
				return fail("%s given to %q while %q still claims it (KIP-429)", p, id, h)
			}
			if !x.known && truth[p] && id != g.xID {
				return fail("%s given to %q while x, whose claims the leader cannot read, still holds it", p, id)
			}
		}
	}
	for _, p := range g.unassigned(wWanted) {
		switch {
		case honestClaim[p] != "": // moved: its owner revokes it first
		case x.claims[p]: // x's claim, valid, contested or dropped
		case !x.known && (blind || possible[p]): // what x may hold
		default:
			return fail("%s withheld, claimed by nobody (withheld %d, claims unknown %d)", p, g.stats.Withheld, g.stats.ClaimsUnknown)
		}
	}
	return nil
}

func (p topicPartition) String() string { return fmt.Sprintf("%s/%d", p.topic, p.partition) }

// sortedSet returns s's partitions in order.
func sortedSet(s partitionSet) []topicPartition {
	return slices.SortedFunc(maps.Keys(s), func(a, b topicPartition) int {
		return cmp.Or(cmp.Compare(a.topic, b.topic), cmp.Compare(a.partition, b.partition))
	})
}

// renderHeld shows who holds what, a member a line.
func renderHeld(held map[string][]assignor.TopicPartitions) string {
	var parts []string
	for _, id := range slices.Sorted(maps.Keys(held)) {
		parts = append(parts, fmt.Sprintf("%q: %s", id, assignor.FormatTopicPartitions(held[id])))
	}
	return strings.Join(parts, "; ")
}

// TestHostileOracle: the oracle of FuzzHostileMember catches each failure
// it is there for, shown by deliberately broken assignors run through the
// same three rounds.
func TestHostileOracle(t *testing.T) {
	joiner := v3([]string{"t", "u"}, nil, -1, nil, "")
	cutShort := wire.Subscription{Topics: []string{"t", "u", "w"}}.AppendTo(nil) // v0 bytes ...
	cutShort[1] = 3                                                              // ... saying v3: they end after the user data
	for _, tc := range []struct {
		name  string
		a     func() assignor.Assignor
		setup hostileSetup
		meta  []byte
		want  string
	}{
		{
			name:  "a cooperative assignor that hands over a claimed partition in one round",
			a:     brokenCooperative("unsafe", func(g assignor.Group) assignor.Plan { return must(sticky.New().Assign(g)) }),
			setup: hostileSetup{honest: 3}, meta: joiner,
			want: "still claims it (KIP-429)",
		},
		{
			name: "a cooperative assignor that keeps withholding what nobody claims",
			a: brokenCooperative("withholding", func(g assignor.Group) assignor.Plan {
				plan := must(cooperative.Wrap(sticky.New()).Assign(g))
				claimed := partitionSet{}
				for _, m := range g.Members {
					maps.Copy(claimed, setOf(m.Owned))
				}
				if len(claimed) == 0 {
					return plan // a group from scratch
				}
				for i := range plan.Members {
					mp := &plan.Members[i]
					var kept []assignor.TopicPartitions
					for _, p := range sortedSet(setOf(mp.Assigned)) {
						if claimed[p] {
							kept = append(kept, assignor.TopicPartitions{Topic: p.topic, Partitions: []int32{p.partition}})
						}
					}
					mp.Assigned = assignor.NormalizeTopicPartitions(kept)
				}
				plan.FollowUp = true
				return plan
			}),
			setup: hostileSetup{honest: 3, sameBytes: true}, meta: joiner,
			want: "round 2: t/7 withheld, claimed by nobody",
		},
		{
			name: "an eager assignor that leaves a partition out",
			a: func() assignor.Assignor {
				return &recorder{name: "incomplete", protocols: eagerProtocols, plan: func(g assignor.Group) assignor.Plan {
					plan := must(sticky.New().Assign(g))
					if !slices.ContainsFunc(g.Members, func(m assignor.Member) bool { return len(m.Owned) > 0 }) {
						return plan // a group from scratch
					}
					for i := range plan.Members {
						plan.Members[i].Assigned = assignor.SubtractTopicPartitions(plan.Members[i].Assigned, tps("u", []int32{4}))
					}
					return plan
				}}
			},
			setup: hostileSetup{honest: 2}, meta: joiner,
			want: "round 1: eager plan leaves [u/4] unassigned",
		},
		{
			name:  "a cooperative assignor that gives away what x holds when the leader cannot read x's claims",
			a:     brokenCooperative("robs-x", robX),
			setup: hostileSetup{honest: 2, xBefore: true, sameBytes: true}, meta: cutShort,
			want: "whose claims the leader cannot read, still holds it",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := runHostile(tc.a, tc.setup, tc.meta, tc.meta)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("the oracle says %v; want an error containing %q", err, tc.want)
			}
		})
	}
}

// brokenCooperative returns a constructor of an assignor that declares the
// cooperative protocol and answers with plan.
func brokenCooperative(name string, plan func(assignor.Group) assignor.Plan) func() assignor.Assignor {
	return func() assignor.Assignor { return &recorder{name: name, protocols: coopProtocols, plan: plan} }
}

func must(plan assignor.Plan, err error) assignor.Plan {
	if err != nil {
		panic(err)
	}
	return plan
}

// robX gives every partition to the member that claims it, but x's claims
// to the first other subscriber, and what nobody claims round-robin over
// its subscribers.
func robX(g assignor.Group) assignor.Plan {
	owner := map[topicPartition]string{}
	for _, m := range g.Members {
		for p := range setOf(m.Owned) {
			owner[p] = m.ID
		}
	}
	assigned := map[string][]assignor.TopicPartitions{}
	next := 0
	for _, topic := range g.Topics {
		var subs []string
		for _, m := range g.Members {
			if slices.Contains(m.Topics, topic.Name) {
				subs = append(subs, m.ID)
			}
		}
		slices.Sort(subs)
		for _, id := range topic.Partitions {
			p := topicPartition{topic.Name, id}
			to := owner[p]
			switch {
			case len(subs) == 0:
				continue
			case to == "x" && subs[0] != "x":
				to = subs[0]
			case to == "":
				to = subs[next%len(subs)]
				next++
			}
			assigned[to] = append(assigned[to], assignor.TopicPartitions{Topic: topic.Name, Partitions: []int32{id}})
		}
	}
	var plan assignor.Plan
	for _, m := range g.Members {
		plan.Members = append(plan.Members, assignor.MemberPlan{Member: m.ID, Assigned: assignor.NormalizeTopicPartitions(assigned[m.ID])})
	}
	return plan
}
