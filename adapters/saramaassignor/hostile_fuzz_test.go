package saramaassignor

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/weighted"
	"github.com/kgroup/assignor/wire"
)

// FuzzHostileMember: one member ("x") of an otherwise honest sarama group
// hands the leader arbitrary decoded metadata (what sarama's decoder may
// give a strategy: any version, topics with empty or unknown names, owned
// entries that are nil, empty, of unknown topics, with negative, huge or
// repeated partition IDs, any generation, any user data, any rack), under
// each of this module's assignors (sticky, round-robin and weighted, eager
// and through cooperative.Wrap), through Strategy.Plan, AssignmentData and
// every member's OnAssignment as sarama calls them, for two rounds after
// the one that forms the group, on the same strategy, so that the leader's
// memory of its last round is used (it learns that its plan was delivered
// from its own member's OnAssignment).
//
// The inputs: setup (see hostileSetup: the assignor, how many honest
// members, whether x was an honest member of the settled round before,
// whether the leader changed since, x's member ID, and what x sends in
// round 2), then x's round-1 metadata: version, generation, topics
// (comma-separated), owned entries (see readOwned), user data and rack
// ("" for none, "-" for an empty one); then the owned entries and
// generation x sends in round 2 when setup says so.
//
// The group: topics t (12 partitions) and u (5), which every honest member
// subscribes to, and w (3), which only x may; the leader's topic metadata
// also holds a topic with an empty name (4 partitions), which no member
// can be given. Round 0 (generation 5) forms the group from scratch, with
// x in it when setup says so (an honest member then, subscribed to t, u
// and w). Round 1 (generation 6): each honest member sends what round 0
// gave it, at generation 5; x sends its fuzzed metadata. Round 2
// (generation 7): each honest member sends what round 1 gave it.
//
// The oracle is FuzzHostileMember's of the franz-go adapter, with sarama's
// reading of "x's claims are unknown" (the package doc, # Unreadable
// metadata): at version 2 or above, no owned entries and generation 0; at
// version 1, no owned entries and, for a cooperative assignor, a
// generation in the user data. One difference: sarama does not tell the
// leader which generation it balances into, so a claim at a generation
// above the group's cannot be dropped as impossible; x claiming a
// partition at a generation above an honest member's is, for the leader,
// its valid owner (KIP-792), and may be given it while the honest member
// still holds it. That is what the oracle lets through, only for x and only
// for such a claim.
//
// Seeds: testdata/fuzz/FuzzHostileMember. The assignor is drawn from the
// input, so one fuzzing run covers all six.
func FuzzHostileMember(f *testing.F) {
	f.Fuzz(func(t *testing.T, setup uint16, version int16, generation int32, topics string, owned, userData []byte, rack string, owned2 []byte, generation2 int32) {
		s := readSetup(setup)
		x1 := sarama.ConsumerGroupMemberMetadata{Version: version, Topics: readTopics(topics), UserData: userData,
			OwnedPartitions: readOwned(owned), GenerationID: generation, RackID: readRack(rack)}
		if err := runHostile(hostileAssignors[s.assignor].new, s, x1, readOwned(owned2), generation2); err != nil {
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

// What x sends in round 2 (setup bits 10–11).
const (
	sameAgain   = iota // its round-1 metadata
	newClaims          // its round-1 metadata with the round-2 owned entries and generation
	honestAgain        // its round-1 assignment at generation 6, version 3
	cutShort           // version 3, no owned entries, generation 0
)

// hostileSetup is what the fuzz input's setup chooses.
type hostileSetup struct {
	assignor     int  // bits 0–2, modulo len(hostileAssignors)
	honest       int  // bits 8–9: 1 to 3 honest members (0 reads as 3)
	xBefore      bool // bit 3: x was an honest member of round 0, and holds what it got
	leaderChange bool // bit 4: round 0 was led by another strategy: round 1's leader has no memory
	emptyID      bool // bit 6: x's member ID is "" (only when x was not in round 0)
	round2       int  // bits 10–11: what x sends in round 2
}

func readSetup(s uint16) hostileSetup {
	h := hostileSetup{
		assignor:     int(s&7) % len(hostileAssignors),
		xBefore:      s&(1<<3) != 0,
		leaderChange: s&(1<<4) != 0,
		honest:       int(s>>8) & 3,
		round2:       int(s>>10) & 3,
	}
	h.emptyID = s&(1<<6) != 0 && !h.xBefore
	if h.honest == 0 {
		h.honest = 3
	}
	return h
}

// readTopics splits a comma-separated list; empty names stay.
func readTopics(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// ownedTopics are the topics an owned entry may name, by its first byte.
var ownedTopics = []string{"t", "u", "w", "", "zz"}

// readOwned reads owned entries from b, one after another: a byte 0xff is
// a nil entry; any other byte k names ownedTopics[k%5] and is followed by
// a count byte (modulo 8) and that many partition IDs, each one signed
// byte, or the byte 0x80 and a big-endian int32. Missing bytes read as 0.
func readOwned(b []byte) []*sarama.OwnedPartition {
	next := func() byte {
		if len(b) == 0 {
			return 0
		}
		c := b[0]
		b = b[1:]
		return c
	}
	var out []*sarama.OwnedPartition
	for len(b) > 0 && len(out) < 64 {
		k := next()
		if k == 0xff {
			out = append(out, nil)
			continue
		}
		op := &sarama.OwnedPartition{Topic: ownedTopics[int(k)%len(ownedTopics)]}
		for range next() % 8 {
			c := next()
			id := int32(int8(c))
			if c == 0x80 {
				var w [4]byte
				for i := range w {
					w[i] = next()
				}
				id = int32(binary.BigEndian.Uint32(w[:]))
			}
			op.Partitions = append(op.Partitions, id)
		}
		out = append(out, op)
	}
	return out
}

// readRack: "" is no rack, "-" an empty one, anything else itself.
func readRack(s string) *string {
	switch s {
	case "":
		return nil
	case "-":
		return strp("")
	}
	return &s
}

// hostileTopics is the leader's topic metadata.
var hostileTopics = map[string][]int32{"t": assignor.Partitions(12), "u": assignor.Partitions(5), "w": assignor.Partitions(3), "": assignor.Partitions(4)}

// topicPartition is one partition of one topic.
type topicPartition struct {
	topic     string
	partition int32
}

func (p topicPartition) String() string { return fmt.Sprintf("%s/%d", p.topic, p.partition) }

// partitionSet is a set of partitions.
type partitionSet map[topicPartition]bool

func setOfMap(m map[string][]int32) partitionSet {
	s := partitionSet{}
	for topic, ids := range m {
		for _, id := range ids {
			s[topicPartition{topic, id}] = true
		}
	}
	return s
}

func (s partitionSet) union(o partitionSet) partitionSet {
	out := partitionSet{}
	maps.Copy(out, s)
	maps.Copy(out, o)
	return out
}

// sortedSet returns s's partitions in order.
func sortedSet(s partitionSet) []topicPartition {
	return slices.SortedFunc(maps.Keys(s), func(a, b topicPartition) int {
		return cmp.Or(cmp.Compare(a.topic, b.topic), cmp.Compare(a.partition, b.partition))
	})
}

// xMetadata is x's metadata as the contract says the leader reads it.
type xMetadata struct {
	known      bool // its claims are known
	claims     partitionSet
	generation int32 // of its claims
	topics     []string
}

func readX(meta sarama.ConsumerGroupMemberMetadata, coop bool) xMetadata {
	x := xMetadata{known: true, claims: partitionSet{}, generation: assignor.NoGeneration, topics: meta.Topics}
	switch {
	case meta.Version >= 2:
		x.generation = max(meta.GenerationID, assignor.NoGeneration)
		x.known = len(meta.OwnedPartitions) > 0 || meta.GenerationID != 0
	case meta.Version == 1 && coop && len(meta.UserData) > 0:
		gen, _ := wire.UserDataGeneration(meta.UserData)
		x.generation = max(gen, assignor.NoGeneration)
		x.known = len(meta.OwnedPartitions) > 0 || x.generation == assignor.NoGeneration
	}
	if meta.Version >= 1 {
		for _, op := range meta.OwnedPartitions {
			if op != nil {
				for _, id := range op.Partitions {
					x.claims[topicPartition{op.Topic, id}] = true
				}
			}
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
	strategies  map[string]Strategy // each honest member's, and x's in round 0
	// held: what each member got in the last round (by ID).
	held map[string]map[string][]int32
	// stats: the leader's last round's.
	stats Stats
}

// runHostile runs the three rounds of one input with assignors from newA
// and returns the first thing the oracle finds wrong (see
// FuzzHostileMember).
func runHostile(newA func() assignor.Assignor, setup hostileSetup, x1 sarama.ConsumerGroupMemberMetadata, owned2 []*sarama.OwnedPartition, generation2 int32) error {
	a := newA()
	g := &hostileGroup{setup: setup, name: a.Name(), cooperative: assignor.Supports(a, assignor.Cooperative), xID: "x",
		strategies: map[string]Strategy{}, held: map[string]map[string][]int32{}}
	if setup.emptyID {
		g.xID = ""
	}
	for i := range setup.honest {
		id := fmt.Sprint("h", i)
		g.honest = append(g.honest, id)
		g.strategies[id] = build(newA(), Config{Logger: discard})
	}
	// The leader is h0: its strategy plans and is its member side.
	lead := build(a, Config{Logger: discard, OnRebalance: func(s Stats) { g.stats = s }})
	g.strategies["h0"] = lead

	// Round 0: the group forms; x is in it, honest, if setup says so.
	members := g.honestMetadata(assignor.NoGeneration)
	if setup.xBefore {
		g.strategies["x"] = build(newA(), Config{Logger: discard})
		members["x"] = g.metadata("x", []string{"t", "u", "w"}, assignor.NoGeneration)
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

	// Round 1: x sends its fuzzed metadata.
	members = g.honestMetadata(5)
	members[g.xID] = x1
	if err := g.round(lead, 6, members); err != nil {
		return err
	}
	r1 := readX(x1, g.cooperative)
	held0 := setOfMap(round0[g.xID])
	if err := g.check(1, round0, r1, held0, held0, setup.leaderChange); err != nil {
		return err
	}
	round1 := maps.Clone(g.held)

	// Round 2.
	x2 := x1
	switch setup.round2 {
	case newClaims:
		x2.OwnedPartitions, x2.GenerationID = owned2, generation2
	case honestAgain:
		x2.Version, x2.GenerationID, x2.OwnedPartitions = 3, 6, ownedOf(round1[g.xID])
	case cutShort:
		x2.Version, x2.GenerationID, x2.OwnedPartitions = 3, 0, nil
	}
	members = g.honestMetadata(6)
	members[g.xID] = x2
	if err := g.round(lead, 7, members); err != nil {
		return err
	}
	// What the leader may withhold for x once more: what x claimed in
	// round 1 (its metadata's claims, or, unknown, what it held).
	claimed1 := r1.claims
	if !r1.known {
		claimed1 = held0
	}
	held1 := setOfMap(round1[g.xID])
	return g.check(2, round1, readX(x2, g.cooperative), held1, held1.union(claimed1), false)
}

func (g *hostileGroup) String() string {
	s := g.setup
	return fmt.Sprintf("%s, %d honest, x in round 0 %v, leader change %v, empty ID %v, round 2 %d",
		g.name, s.honest, s.xBefore, s.leaderChange, s.emptyID, s.round2)
}

// ownedOf is a plan entry as sarama's owned partitions.
func ownedOf(m map[string][]int32) []*sarama.OwnedPartition {
	var out []*sarama.OwnedPartition
	for _, topic := range slices.Sorted(maps.Keys(m)) {
		out = append(out, &sarama.OwnedPartition{Topic: topic, Partitions: m[topic]})
	}
	return out
}

// metadata is an honest member's subscription as sarama sends it: its
// strategy's user data, what it holds, at gen.
func (g *hostileGroup) metadata(id string, topics []string, gen int32) sarama.ConsumerGroupMemberMetadata {
	meta := sarama.ConsumerGroupMemberMetadata{Version: 3, Topics: topics, OwnedPartitions: ownedOf(g.held[id]), GenerationID: gen}
	if s, ok := g.strategies[id].(sarama.SubscriptionUserDataBalanceStrategy); ok {
		ud, err := s.SubscriptionUserData(topics)
		if err != nil {
			panic(err) // this module's assignors' user data does not fail
		}
		meta.UserData = ud
	}
	return meta
}

func (g *hostileGroup) honestMetadata(gen int32) map[string]sarama.ConsumerGroupMemberMetadata {
	members := map[string]sarama.ConsumerGroupMemberMetadata{}
	for _, id := range g.honest {
		members[id] = g.metadata(id, []string{"t", "u"}, gen)
	}
	return members
}

// round runs one rebalance into generation gen as sarama's leader does
// (Plan, then AssignmentData for every member of the plan) and delivers
// it (every member's OnAssignment on its own strategy), keeping what each
// member got. It fails on an error, or on a plan that is not one entry per
// non-empty member ID, no partition in two of them.
func (g *hostileGroup) round(leader Strategy, gen int32, members map[string]sarama.ConsumerGroupMemberMetadata) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: generation %d: %s", g, gen, fmt.Sprintf(format, args...))
	}
	topics := map[string][]int32{"": hostileTopics[""]}
	for _, meta := range members {
		for _, topic := range meta.Topics {
			if ids, ok := hostileTopics[topic]; ok {
				topics[topic] = ids
			}
		}
	}
	plan, err := leader.Plan(members, topics)
	if err != nil {
		return fail("one member's metadata failed the rebalance: %v", err)
	}
	clear(g.held)
	holder := map[topicPartition]string{}
	for _, id := range slices.Sorted(maps.Keys(plan)) {
		if _, ok := members[id]; !ok || id == "" {
			return fail("a plan entry for %q, not a member with an ID", id)
		}
		for _, p := range sortedSet(setOfMap(plan[id])) {
			if prev, ok := holder[p]; ok {
				return fail("%s given to %q and %q", p, prev, id)
			}
			holder[p] = id
		}
		ud, err := leader.AssignmentData(id, plan[id], gen)
		if err != nil {
			return fail("AssignmentData(%q): %v", id, err)
		}
		g.held[id] = plan[id]
		if s, ok := g.strategies[id].(sarama.OnAssignmentBalanceStrategy); ok {
			s.OnAssignment(&sarama.ConsumerGroupMemberAssignment{Version: 3, Topics: plan[id], UserData: ud}, gen)
		}
	}
	for id := range members {
		if _, ok := plan[id]; !ok && id != "" {
			return fail("no plan entry for %q", id)
		}
	}
	return nil
}

// inside reports whether p is in the leader's metadata.
func inside(p topicPartition) bool {
	return p.topic != "" && slices.Contains(hostileTopics[p.topic], p.partition)
}

// unassigned returns the partitions of t and u, and of w when wWanted,
// that no member got in the last round.
func (g *hostileGroup) unassigned(wWanted bool) []topicPartition {
	given := partitionSet{}
	for _, m := range g.held {
		maps.Copy(given, setOfMap(m))
	}
	var out []topicPartition
	for _, topic := range []string{"t", "u", "w"} {
		if topic == "w" && !wWanted {
			continue
		}
		for _, id := range hostileTopics[topic] {
			if tp := (topicPartition{topic, id}); !given[tp] {
				out = append(out, tp)
			}
		}
	}
	return out
}

// check checks round r's plan (see FuzzHostileMember): before is what
// each member got in the round before (the honest members' claims now,
// at the round before's generation), x is x's metadata this round, truth
// what x holds if its claims are unknown, possible what its unknown
// claims may stand for, blind that the leader has no memory to read them
// from.
func (g *hostileGroup) check(r int, before map[string]map[string][]int32, x xMetadata, truth, possible partitionSet, blind bool) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: round %d: %s\nbefore: %s\nafter:  %s", g, r, fmt.Sprintf(format, args...), renderHeld(before), renderHeld(g.held))
	}
	honestGen := int32(4 + r) // the honest members' claims are of the round before
	honestClaim := map[topicPartition]string{}
	for _, id := range g.honest {
		for p := range setOfMap(before[id]) {
			honestClaim[p] = id
		}
	}
	for _, id := range slices.Sorted(maps.Keys(g.held)) {
		for _, p := range sortedSet(setOfMap(g.held[id])) {
			// An outside partition is a give-back: x's own claim, or one
			// the leader recalled for x from its last plan.
			if !inside(p) && (id != g.xID || !x.claims[p] && (x.known || !possible[p])) {
				return fail("%s, outside the metadata, given to %q", p, id)
			}
		}
	}
	wWanted := g.xID != "" && slices.Contains(x.topics, "w")
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
		for _, p := range sortedSet(setOfMap(g.held[id])) {
			h, claimed := honestClaim[p]
			newer := id == g.xID && x.claims[p] && x.generation > honestGen // x's claim outranks h's (see FuzzHostileMember)
			if claimed && h != id && !newer {
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
		case x.claims[p]: // x's claim, valid or contested
		case !x.known && (blind || possible[p]): // what x may hold
		default:
			return fail("%s withheld, claimed by nobody (withheld %d, claims unknown %d)", p, g.stats.Withheld, g.stats.ClaimsUnknown)
		}
	}
	return nil
}

// renderHeld shows who holds what.
func renderHeld(held map[string]map[string][]int32) string {
	var parts []string
	for _, id := range slices.Sorted(maps.Keys(held)) {
		parts = append(parts, fmt.Sprintf("%q: %s", id, assignor.FormatTopicPartitions(assignor.TopicPartitionsFromMap(held[id]))))
	}
	return strings.Join(parts, "; ")
}

// TestHostileOracle: the oracle of FuzzHostileMember catches each failure
// it is there for, shown by deliberately broken assignors run through the
// same three rounds.
func TestHostileOracle(t *testing.T) {
	joiner := sarama.ConsumerGroupMemberMetadata{Version: 3, Topics: []string{"t", "u"}, GenerationID: -1}
	cut := sarama.ConsumerGroupMemberMetadata{Version: 3, Topics: []string{"t", "u", "w"}} // cut short: no owned entries, generation 0
	for _, tc := range []struct {
		name  string
		a     func() assignor.Assignor
		setup hostileSetup
		x     sarama.ConsumerGroupMemberMetadata
		want  string
	}{
		{
			name:  "a cooperative assignor that hands over a claimed partition in one round",
			a:     broken("unsafe", true, func(g assignor.Group) assignor.Plan { return must(sticky.New().Assign(g)) }),
			setup: hostileSetup{honest: 3}, x: joiner,
			want: "still claims it (KIP-429)",
		},
		{
			name:  "a cooperative assignor that keeps withholding what nobody claims",
			a:     broken("withholding", true, withholdUnclaimed),
			setup: hostileSetup{honest: 3}, x: joiner,
			want: "round 2: t/7 withheld, claimed by nobody",
		},
		{
			name: "an eager assignor that leaves a partition out",
			a: broken("incomplete", false, func(g assignor.Group) assignor.Plan {
				plan := must(sticky.New().Assign(g))
				if !slices.ContainsFunc(g.Members, func(m assignor.Member) bool { return len(m.Owned) > 0 }) {
					return plan // a group from scratch
				}
				for i := range plan.Members {
					plan.Members[i].Assigned = assignor.SubtractTopicPartitions(plan.Members[i].Assigned, []assignor.TopicPartitions{{Topic: "u", Partitions: []int32{4}}})
				}
				return plan
			}),
			setup: hostileSetup{honest: 2}, x: joiner,
			want: "round 1: eager plan leaves [u/4] unassigned",
		},
		{
			name:  "a cooperative assignor that gives away what x holds when the leader cannot read x's claims",
			a:     broken("robs-x", true, robX),
			setup: hostileSetup{honest: 2, xBefore: true}, x: cut,
			want: "whose claims the leader cannot read, still holds it",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := runHostile(tc.a, tc.setup, tc.x, nil, 0)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("the oracle says %v; want an error containing %q", err, tc.want)
			}
		})
	}
}

// planFunc is a test assignor answering with plan.
type planFunc struct {
	name        string
	cooperative bool
	plan        func(assignor.Group) assignor.Plan
}

func (p planFunc) Name() string                                   { return p.name }
func (p planFunc) Assign(g assignor.Group) (assignor.Plan, error) { return p.plan(g), nil }

func (p planFunc) Protocols() []assignor.Protocol {
	if p.cooperative {
		return []assignor.Protocol{assignor.Cooperative, assignor.Eager}
	}
	return []assignor.Protocol{assignor.Eager}
}

// broken returns a constructor of a deliberately broken assignor.
func broken(name string, cooperative bool, plan func(assignor.Group) assignor.Plan) func() assignor.Assignor {
	return func() assignor.Assignor { return planFunc{name, cooperative, plan} }
}

func must(plan assignor.Plan, err error) assignor.Plan {
	if err != nil {
		panic(err)
	}
	return plan
}

// claimedBy returns every partition some member of g claims, and by whom.
func claimedBy(g assignor.Group) map[topicPartition]string {
	owner := map[topicPartition]string{}
	for _, m := range g.Members {
		for _, tp := range m.Owned {
			for _, id := range tp.Partitions {
				owner[topicPartition{tp.Topic, id}] = m.ID
			}
		}
	}
	return owner
}

// withholdUnclaimed is cooperative-sticky that, once anyone claims
// anything, withholds every partition nobody claims, round after round.
func withholdUnclaimed(g assignor.Group) assignor.Plan {
	plan := must(cooperative.Wrap(sticky.New()).Assign(g))
	claimed := claimedBy(g)
	if len(claimed) == 0 {
		return plan // a group from scratch
	}
	for i := range plan.Members {
		mp := &plan.Members[i]
		var kept []assignor.TopicPartitions
		for _, tp := range mp.Assigned {
			for _, id := range tp.Partitions {
				if claimed[topicPartition{tp.Topic, id}] != "" {
					kept = append(kept, assignor.TopicPartitions{Topic: tp.Topic, Partitions: []int32{id}})
				}
			}
		}
		mp.Assigned = assignor.NormalizeTopicPartitions(kept)
	}
	plan.FollowUp = true
	return plan
}

// robX gives every partition to the member that claims it, but x's claims
// to the first other subscriber, and what nobody claims round-robin over
// its subscribers.
func robX(g assignor.Group) assignor.Plan {
	owner := claimedBy(g)
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
			to := owner[topicPartition{topic.Name, id}]
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
