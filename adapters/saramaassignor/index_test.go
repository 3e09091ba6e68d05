package saramaassignor

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/rebalance"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/wire"
	"github.com/kgroup/assignor/workload"
)

// legacyPlan is Plan as it was before the adapter read sarama's metadata
// through an IndexBuilder: the assignor's Assign on the Group of
// strategy.group, converted by legacyBalancePlan. It is the reference of
// TestPlanMatchesLegacy and BenchmarkLeader's before figures.
func (s *strategy) legacyPlan(members map[string]sarama.ConsumerGroupMemberMetadata, topics map[string][]int32) (sarama.BalanceStrategyPlan, error) {
	plan, err := s.a.Assign(s.legacyGroup(members, topics))
	if err != nil {
		return nil, s.wrap("plan", err)
	}
	out := s.legacyBalancePlan(members, plan)
	s.legacySetAssignmentData(plan)
	return out, nil
}

// legacySetAssignmentData is setAssignmentData as it was: each member's
// own user data, in the fast re-join envelope when the plan of a
// cooperative assignor with a subscription hook withholds.
func (s *strategy) legacySetAssignmentData(plan assignor.Plan) {
	_, hook := s.a.(assignor.SubscriptionUserDataAssignor)
	mark := !s.cfg.DisableFastRejoin && plan.FollowUp && hook && s.cooperative
	data := make(map[string][]byte)
	for _, mp := range plan.Members {
		ud := rebalance.Assignment{UserData: mp.UserData, Rejoin: mark}.AppendUserData(nil)
		if ud == nil && mp.UserData != nil {
			ud = []byte{}
		}
		if ud != nil {
			data[mp.Member] = ud
		}
	}
	s.mu.Lock()
	s.assignmentData = data
	s.mu.Unlock()
}

// randomPlanner is a cooperative assignor with a subscription hook whose
// plans are drawn from its seed, odd ones included: members the group lacks
// or listed twice, topics listed twice or empty, user data null, empty,
// bytes or beginning with the fast re-join envelope's magic, withholding or
// not.
type randomPlanner struct{ seed uint64 }

func (randomPlanner) Name() string { return "random" }

func (randomPlanner) Protocols() []assignor.Protocol {
	return []assignor.Protocol{assignor.Cooperative, assignor.Eager}
}

func (randomPlanner) SubscriptionUserData(assignor.MemberState) ([]byte, error) { return nil, nil }

func (r randomPlanner) Assign(g assignor.Group) (assignor.Plan, error) {
	rng := rand.New(rand.NewPCG(r.seed, 7))
	ids := []string{"ghost"}
	for _, m := range g.Members {
		ids = append(ids, m.ID)
	}
	magic := rebalance.Assignment{Rejoin: true}.AppendUserData(nil)[:4]
	plan := assignor.Plan{FollowUp: rng.IntN(2) == 0}
	for range rng.IntN(2 * len(ids)) {
		mp := assignor.MemberPlan{Member: ids[rng.IntN(len(ids))]}
		for range rng.IntN(4) {
			tp := assignor.TopicPartitions{Topic: []string{"a", "b", "c"}[rng.IntN(3)]}
			for range rng.IntN(3) {
				tp.Partitions = append(tp.Partitions, rng.Int32N(6))
			}
			mp.Assigned = append(mp.Assigned, tp)
		}
		mp.UserData = [][]byte{nil, {}, []byte("own"), magic}[rng.IntN(4)]
		plan.Members = append(plan.Members, mp)
	}
	return plan, nil
}

// legacyBalancePlan is balancePlan before it cut each member's lists from
// one array: an empty map per member, then one append per plan entry.
func (s *strategy) legacyBalancePlan(members map[string]sarama.ConsumerGroupMemberMetadata, plan assignor.Plan) sarama.BalanceStrategyPlan {
	out := make(sarama.BalanceStrategyPlan, len(members))
	for id := range members {
		out[id] = map[string][]int32{}
	}
	for _, mp := range plan.Members {
		assigned, ok := out[mp.Member]
		if !ok {
			continue
		}
		for _, tp := range mp.Assigned {
			if len(tp.Partitions) > 0 {
				assigned[tp.Topic] = append(assigned[tp.Topic], tp.Partitions...)
			}
		}
	}
	return out
}

// groupOnly hides every optional ability of an assignor but its name and
// Assign: an assignor that cannot take an Index.
type groupOnly struct{ assignor.Assignor }

// randomInput draws what sarama may hand a leader, odd parts included:
// unsorted, duplicate and negative partition IDs, topics the metadata
// lacks, nil and empty owned entries, every subscription version,
// generations below -1, user data of each layout and garbage, and now and
// then an empty member ID or topic name (which no assignor can assign).
func randomInput(rng *rand.Rand) (map[string]sarama.ConsumerGroupMemberMetadata, map[string][]int32) {
	names := []string{"a", "b", "c", "d"}
	if rng.IntN(25) == 0 {
		names = append(names, "")
	}
	topics := map[string][]int32{}
	for _, name := range names[:1+rng.IntN(len(names))] {
		var ids []int32
		for range rng.IntN(7) {
			ids = append(ids, rng.Int32N(8)-1)
		}
		topics[name] = ids
	}
	known := append(slices.Clone(names), "zzz")
	members := map[string]sarama.ConsumerGroupMemberMetadata{}
	for i := range 1 + rng.IntN(5) {
		id := fmt.Sprint("m", i)
		if rng.IntN(30) == 0 {
			id = ""
		}
		meta := sarama.ConsumerGroupMemberMetadata{Version: int16(rng.IntN(4)), GenerationID: rng.Int32N(8) - 3}
		for _, name := range known {
			if rng.IntN(2) == 0 {
				meta.Topics = append(meta.Topics, name)
			}
		}
		for range rng.IntN(4) {
			switch rng.IntN(6) {
			case 0:
				meta.OwnedPartitions = append(meta.OwnedPartitions, nil)
			case 1:
				meta.OwnedPartitions = append(meta.OwnedPartitions, &sarama.OwnedPartition{Topic: known[rng.IntN(len(known))]})
			default:
				op := &sarama.OwnedPartition{Topic: known[rng.IntN(len(known))]}
				for range 1 + rng.IntN(4) {
					op.Partitions = append(op.Partitions, rng.Int32N(9)-1)
				}
				meta.OwnedPartitions = append(meta.OwnedPartitions, op)
			}
		}
		switch rng.IntN(4) {
		case 0:
			meta.UserData = wire.CooperativeUserData(rng.Int32N(6) - 1)
		case 1:
			meta.UserData = stickyUserData(rng.Int32N(6)-1, "a", rng.Int32N(4), rng.Int32N(4))
		case 2:
			meta.UserData = []byte("not kafka")
		}
		if rng.IntN(3) == 0 {
			meta.RackID = strp([]string{"", "r1", "r2"}[rng.IntN(3)])
		}
		if len(meta.OwnedPartitions) == 0 && meta.Version >= 1 {
			// Not a subscription sarama may have read cut short (the
			// old path had no such notion; TestCutShortSubscription):
			// no generation 0 at v2+, no generation in v1 user data.
			meta.GenerationID = cmp.Or(meta.GenerationID, 1)
			if meta.Version == 1 {
				meta.UserData = nil
			}
		}
		members[id] = meta
	}
	return members, topics
}

// TestPlanMatchesLegacy: running the leader on the rebalance kit changes
// nothing a user sees on the Group path as it was: for random inputs, odd
// ones included, every assignor of the module (and one that cannot take an
// Index) gives the plan, the assignment user data and the error of the
// Group path. Where the old path failed the whole rebalance on one member's
// empty ID or the metadata's empty topic name, the kit leaves that member
// out (no entry; sarama sends it nothing) or that topic unassigned; a
// random planner's plan that breaks the rules, which the old path sent as
// it could, the kit refuses. Log lines are checked by each case's test.
func TestPlanMatchesLegacy(t *testing.T) {
	assignors := []func() assignor.Assignor{
		func() assignor.Assignor { return cooperative.Wrap(sticky.New()) },
		func() assignor.Assignor { return sticky.New() },
		func() assignor.Assignor { return roundrobin.New() },
		func() assignor.Assignor { return cooperative.Wrap(roundrobin.New()) },
		func() assignor.Assignor {
			return cooperative.WrapWithConfig(sticky.New(), cooperative.Config{InnerUserData: true})
		},
		func() assignor.Assignor { return groupOnly{sticky.New()} },
	}
	planners := func(seed uint64) func() assignor.Assignor {
		return func() assignor.Assignor { return randomPlanner{seed} }
	}
	configs := []Config{
		{},
		{MemberRack: func(id string) string { return "r" + strings.TrimPrefix(id, "m") }},
		{ReplicaRacks: func(topic string, p int32) []string {
			if p%2 == 0 {
				return nil
			}
			return []string{"r1", "r" + topic}
		}},
	}
	compared, refused, emptied := 0, 0, 0
	for seed := range uint64(400) {
		rng := rand.New(rand.NewPCG(seed, 14))
		members, topics := randomInput(rng)
		newA := assignors[rng.IntN(len(assignors))]
		planner := rng.IntN(4) == 0
		if planner {
			newA = planners(seed)
		}
		cfg := configs[rng.IntN(len(configs))]
		cfg.DisableFastRejoin = rng.IntN(4) == 0
		cfg.Logger = discard
		got, want := build(newA(), cfg), build(newA(), cfg)
		gotPlan, gotErr := got.Plan(members, topics)
		name := fmt.Sprintf("seed %d, %s: members %v, topics %v", seed, got.Name(), members, topics)
		_, emptyID := members[""]
		_, emptyTopic := topics[""]
		if emptyID || emptyTopic {
			if gotErr != nil && !planner {
				t.Fatalf("%s: an empty member ID or topic name failed the rebalance: %v", name, gotErr)
			}
			if _, ok := gotPlan[""]; ok {
				t.Fatalf("%s: a plan entry for the empty member ID", name)
			}
			emptied++
			continue
		}
		wantPlan, wantErr := base(want).legacyPlan(members, topics)
		if planner && gotErr != nil && wantErr == nil && breaksRules(gotErr) {
			refused++
			continue
		}
		compared++
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("%s: error %v, want %v", name, gotErr, wantErr)
		}
		if !reflect.DeepEqual(gotPlan, wantPlan) {
			t.Fatalf("%s:\nplan %v\nwant %v", name, gotPlan, wantPlan)
		}
		for _, id := range append(slices.Collect(maps.Keys(members)), "ghost") {
			g, _ := got.AssignmentData(id, nil, 1)
			w, _ := want.AssignmentData(id, nil, 1)
			if !slices.Equal(g, w) || (g == nil) != (w == nil) {
				t.Fatalf("%s: AssignmentData(%q) = %x, want %x", name, id, g, w)
			}
		}
	}
	if compared < 250 || refused == 0 || emptied == 0 {
		t.Fatalf("compared %d inputs, refused %d plans, %d with an empty member ID or topic: the draw covers too little", compared, refused, emptied)
	}
}

// breaksRules reports whether err is a plan that breaks the rules every
// plan keeps, which the kit refuses.
func breaksRules(err error) bool {
	for _, rule := range []error{assignor.ErrUnknownMember, assignor.ErrDuplicateMember, assignor.ErrMissingMember,
		assignor.ErrAssignedTwice, assignor.ErrNotSubscribed, assignor.ErrOutsideMetadata} {
		if errors.Is(err, rule) {
			return true
		}
	}
	return false
}

// TestBalancePlanOwnsItsLists: no list of the plan maps can overwrite
// another, though the kit cuts them from shared arrays (capacity clipped).
func TestBalancePlanOwnsItsLists(t *testing.T) {
	members := map[string]sarama.ConsumerGroupMemberMetadata{
		"m0": {Topics: []string{"a", "b"}}, "m1": {Topics: []string{"a", "b"}}, "m2": {Topics: []string{"a", "b"}},
	}
	out, err := build(sticky.New(), Config{Logger: discard}).Plan(members, map[string][]int32{"a": {0, 1, 2, 3, 4}, "b": {0, 1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	// Each list gets a marker of its own, then one more element: a list
	// sharing memory with another shows a foreign value.
	marker := map[string]int32{}
	for id, lists := range out {
		for topic, ids := range lists {
			m := int32(-10 - len(marker))
			marker[id+"/"+topic] = m
			for i := range ids {
				ids[i] = m
			}
		}
	}
	for _, lists := range out {
		for topic := range lists {
			lists[topic] = append(lists[topic], 99)
		}
	}
	for id, lists := range out {
		for topic, ids := range lists {
			m := marker[id+"/"+topic]
			if ids[len(ids)-1] != 99 || slices.ContainsFunc(ids[:len(ids)-1], func(p int32) bool { return p != m }) {
				t.Errorf("%s/%s = %v: another list overwrote it", id, topic, ids)
			}
		}
	}
	if len(marker) != 6 {
		t.Fatalf("%d lists, want 6: %v", len(marker), out)
	}
}

// TestLeaderInput pins what BenchmarkLeader measures: the JoinGroup members
// decode as a sarama v1.61 member sends them (subscription v2; cooperative:
// owned partitions at generation 1 for every member but the one joining;
// eager: none, generation -1, the history in sticky's user data), and
// Plan on them gives the legacy plan.
func TestLeaderInput(t *testing.T) {
	shape := workload.Shape{Topics: 3, Partitions: 20, Members: 6}
	for _, mode := range leaderModes {
		t.Run(mode.name, func(t *testing.T) {
			in := newLeaderInput(t, mode, shape)
			members, err := in.join.GetMembers()
			if err != nil {
				t.Fatal(err)
			}
			if len(members) != shape.Members+1 {
				t.Fatalf("%d members, want %d", len(members), shape.Members+1)
			}
			holders, history := 0, 0
			for id, meta := range members {
				if meta.Version != 2 || len(meta.Topics) != shape.Topics {
					t.Fatalf("%s: version %d, %d topics", id, meta.Version, len(meta.Topics))
				}
				if len(meta.OwnedPartitions) > 0 {
					holders++
					if mode.eager || meta.GenerationID != 1 {
						t.Fatalf("%s: owned %d topics at generation %d", id, len(meta.OwnedPartitions), meta.GenerationID)
					}
				} else if meta.GenerationID != -1 {
					t.Fatalf("%s: owns nothing at generation %d", id, meta.GenerationID)
				}
				ud, err := wire.DecodeStickyUserData(meta.UserData)
				if mode.eager && err == nil && len(ud.Owned) > 0 {
					history++
				}
			}
			withHistory := holders // cooperative: in the owned partitions
			if mode.eager {
				withHistory = history // eager: only in the user data
			}
			if withHistory != shape.Members {
				t.Fatalf("%d members hold history, want %d", withHistory, shape.Members)
			}
			got, err := build(mode.assignor(), Config{}).Plan(members, in.topics)
			if err != nil {
				t.Fatal(err)
			}
			legacy, err := base(build(mode.assignor(), Config{})).legacyPlan(members, in.topics)
			if err != nil || !reflect.DeepEqual(got, legacy) {
				t.Fatalf("plan %v, legacy %v (%v)", got, legacy, err)
			}
		})
	}
}

// group returns the [assignor.Group] Plan hands the assignor for sarama's
// input, as the package documentation describes under "What the assignor
// sees". Nothing in the result aliases members or topics.
func (s *strategy) legacyGroup(members map[string]sarama.ConsumerGroupMemberMetadata, topics map[string][]int32) assignor.Group {
	return s.legacyReadGroup(members, topics)
}

// legacyReadGroup is legacyGroup.
func (s *strategy) legacyReadGroup(members map[string]sarama.ConsumerGroupMemberMetadata, topics map[string][]int32) assignor.Group {
	g := assignor.Group{
		Members: make([]assignor.Member, 0, len(members)),
		Topics:  make([]assignor.Topic, 0, len(topics)),
	}
	for _, id := range slices.Sorted(maps.Keys(members)) {
		g.Members = append(g.Members, s.legacyMember(id, members[id]))
	}
	for _, name := range slices.Sorted(maps.Keys(topics)) {
		t := assignor.Topic{Name: name, Partitions: slices.Clone(topics[name])}
		t.ReplicaRacks = s.replicaRacks(name, t.Partitions)
		g.Topics = append(g.Topics, t)
	}
	return g
}

func (s *strategy) legacyMember(id string, meta sarama.ConsumerGroupMemberMetadata) assignor.Member {
	m := assignor.Member{
		ID:         id,
		Topics:     slices.Clone(meta.Topics),
		UserData:   slices.Clone(meta.UserData),
		Generation: s.legacyGeneration(meta),
		Rack:       s.legacyRack(id, meta),
	}
	if meta.Version >= 1 {
		for _, op := range meta.OwnedPartitions {
			if op != nil && len(op.Partitions) > 0 {
				m.Owned = append(m.Owned, assignor.TopicPartitions{Topic: op.Topic, Partitions: slices.Clone(op.Partitions)})
			}
		}
	}
	return m
}

// generation returns the generation of a member's owned partitions: from
// the subscription (v2+), else for a cooperative assignor from the user
// data (logged when it is of no known layout), else
// [assignor.NoGeneration].
func (s *strategy) legacyGeneration(meta sarama.ConsumerGroupMemberMetadata) int32 {
	switch {
	case meta.Version >= 2:
		return max(meta.GenerationID, assignor.NoGeneration)
	case s.cooperative && len(meta.UserData) > 0:
		// v0/v1: the generation is in the user data, the cooperative 4
		// bytes or, with cooperative.Config.InnerUserData, sticky's.
		gen, err := wire.UserDataGeneration(meta.UserData)
		if err != nil {
			return assignor.NoGeneration
		}
		return max(gen, assignor.NoGeneration)
	}
	return assignor.NoGeneration
}

// rack returns a member's rack: from the subscription (v3), else from
// Config.MemberRack, else none.
func (s *strategy) legacyRack(id string, meta sarama.ConsumerGroupMemberMetadata) string {
	if meta.Version >= 3 && meta.RackID != nil && *meta.RackID != "" {
		return *meta.RackID
	}
	if s.cfg.MemberRack != nil {
		return s.cfg.MemberRack(id)
	}
	return ""
}
