package saramaassignor

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/roundrobin"
)

// fixed is a test assignor: it records the group it was given and returns
// a fixed plan (or error). Capabilities are added by the wrappers below.
type fixed struct {
	name      string
	plan      assignor.Plan
	err       error
	protocols []assignor.Protocol

	mu  sync.Mutex
	got []assignor.Group
}

func (f *fixed) Name() string { return f.name }

func (f *fixed) Assign(g assignor.Group) (assignor.Plan, error) {
	f.mu.Lock()
	f.got = append(f.got, g.Clone())
	f.mu.Unlock()
	if f.plan.Members == nil && f.err == nil {
		// No plan set: an entry for every member, nothing assigned.
		var p assignor.Plan
		for _, m := range g.Members {
			p.Members = append(p.Members, assignor.MemberPlan{Member: m.ID})
		}
		return p, nil
	}
	return f.plan, f.err
}

// seenGroup returns the group an assignor declaring protocols is given
// when a strategy configured with cfg plans members and topics.
func seenGroup(t testing.TB, protocols []assignor.Protocol, cfg Config, members map[string]sarama.ConsumerGroupMemberMetadata, topics map[string][]int32) assignor.Group {
	t.Helper()
	f := &fixed{name: "x", protocols: protocols}
	if _, err := build(f, cfg).Plan(members, topics); err != nil {
		t.Fatal(err)
	}
	return f.last()
}

func (f *fixed) Protocols() []assignor.Protocol { return f.protocols }

func (f *fixed) last() assignor.Group {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.got[len(f.got)-1]
}

// observer adds the AssignmentObserver hook.
type observer struct {
	*fixed
	mu   sync.Mutex
	seen []string
}

func (o *observer) OnAssignment(assigned []assignor.TopicPartitions, userData []byte, generation int32) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.seen = append(o.seen, fmt.Sprintf("g%d %s ud=%q", generation, assignor.FormatTopicPartitions(assigned), userData))
}

// subscriber adds the SubscriptionUserDataAssignor hook: its user data
// renders the member state it was given.
type subscriber struct {
	*fixed
	err error
}

func (s *subscriber) SubscriptionUserData(st assignor.MemberState) ([]byte, error) {
	if s.err != nil {
		return nil, s.err
	}
	return fmt.Appendf(nil, "topics=%v owned=%s gen=%d", st.Topics, assignor.FormatTopicPartitions(st.Owned), st.Generation), nil
}

// both has both member-side hooks.
type both struct {
	*subscriber
	*observer
}

func (b *both) Name() string                                   { return b.subscriber.Name() }
func (b *both) Assign(g assignor.Group) (assignor.Plan, error) { return b.subscriber.Assign(g) }
func (b *both) Protocols() []assignor.Protocol                 { return b.subscriber.Protocols() }
func (b *both) OnAssignment(a []assignor.TopicPartitions, u []byte, g int32) {
	b.observer.OnAssignment(a, u, g)
}

func mustNew(t *testing.T, a assignor.Assignor, cfg Config) Strategy {
	t.Helper()
	s, err := New(a, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNewRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    assignor.Assignor
		want error
	}{
		{"nil assignor", nil, ErrNilAssignor},
		{"empty name: sarama would advertise an empty protocol name", &fixed{}, ErrNoName},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(tc.a, Config{})
			if !errors.Is(err, tc.want) || s != nil {
				t.Fatalf("New = %v, %v; want nil, %v", s, err, tc.want)
			}
		})
	}
}

// TestCapabilities pins which sarama interfaces each kind of assignor gets:
// an assignor without a member-side hook must never replace sarama's
// Consumer.Group.Member.UserData; every strategy observes assignments, so
// that its leader side learns its plan was delivered.
func TestCapabilities(t *testing.T) {
	base := func() *fixed { return &fixed{name: "x"} }
	for _, tc := range []struct {
		name             string
		a                assignor.Assignor
		wantUserData     bool
		wantOnAssignment bool
	}{
		{"no hooks: OnAssignment only, for the leader side", base(), false, true},
		{"round-robin: OnAssignment only, for the leader side", roundrobin.New(), false, true},
		{"observer only: OnAssignment only", &observer{fixed: base()}, false, true},
		{"subscription user data: both, to remember the assignment", &subscriber{fixed: base()}, true, true},
		{"both hooks: both", &both{subscriber: &subscriber{fixed: base()}, observer: &observer{fixed: base()}}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s sarama.BalanceStrategy = mustNew(t, tc.a, Config{})
			_, gotUD := s.(sarama.SubscriptionUserDataBalanceStrategy)
			_, gotOA := s.(sarama.OnAssignmentBalanceStrategy)
			_, gotRP := s.(sarama.RebalanceProtocolBalanceStrategy)
			if gotUD != tc.wantUserData || gotOA != tc.wantOnAssignment || !gotRP {
				t.Fatalf("%T: SubscriptionUserData %v OnAssignment %v RebalanceProtocol %v; want %v %v true",
					s, gotUD, gotOA, gotRP, tc.wantUserData, tc.wantOnAssignment)
			}
			if s.Name() != tc.a.Name() {
				t.Fatalf("Name = %q, want %q", s.Name(), tc.a.Name())
			}
		})
	}
}

func TestSupportedProtocols(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []assignor.Protocol
		want []sarama.RebalanceProtocol
	}{
		{"none declared: eager", nil, []sarama.RebalanceProtocol{sarama.RebalanceProtocolEager}},
		{"cooperative first, then eager (for upgrades)", []assignor.Protocol{assignor.Cooperative, assignor.Eager},
			[]sarama.RebalanceProtocol{sarama.RebalanceProtocolCooperative, sarama.RebalanceProtocolEager}},
		{"cooperative only", []assignor.Protocol{assignor.Cooperative}, []sarama.RebalanceProtocol{sarama.RebalanceProtocolCooperative}},
		{"unknown protocols are dropped; eager if nothing is left", []assignor.Protocol{7}, []sarama.RebalanceProtocol{sarama.RebalanceProtocolEager}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustNew(t, &fixed{name: "x", protocols: tc.in}, Config{})
			got := s.SupportedProtocols()
			if !slices.Equal(got, tc.want) {
				t.Fatalf("SupportedProtocols = %v, want %v", got, tc.want)
			}
			got[0] = 99 // the result is a copy
			if s.SupportedProtocols()[0] == 99 {
				t.Fatal("SupportedProtocols returned its own slice")
			}
		})
	}
}

func TestMemberHooks(t *testing.T) {
	sub := &subscriber{fixed: &fixed{name: "x"}}
	obs := &observer{fixed: sub.fixed}
	s := mustNew(t, &both{subscriber: sub, observer: obs}, Config{})
	ud := s.(sarama.SubscriptionUserDataBalanceStrategy)
	oa := s.(sarama.OnAssignmentBalanceStrategy)

	check := func(step, want string) {
		t.Helper()
		got, err := ud.SubscriptionUserData([]string{"a", "b"})
		if err != nil || string(got) != want {
			t.Fatalf("%s: SubscriptionUserData = %q, %v; want %q", step, got, err, want)
		}
	}
	check("before any assignment: no history", "topics=[a b] owned= gen=-1")

	oa.OnAssignment(&sarama.ConsumerGroupMemberAssignment{Topics: map[string][]int32{"b": {3, 1}, "a": {0}, "c": nil}, UserData: []byte("u")}, 4)
	check("after generation 4: sorted owned and its generation", "topics=[a b] owned=a[0] b[1 3] gen=4")

	oa.OnAssignment(&sarama.ConsumerGroupMemberAssignment{Topics: map[string][]int32{}}, 5)
	check("after an empty assignment", "topics=[a b] owned= gen=5")

	oa.OnAssignment(nil, 6) // ignored, never a panic
	check("nil assignment ignored", "topics=[a b] owned= gen=5")

	if want := []string{`g4 a[0] b[1 3] ud="u"`, `g5  ud=""`}; !slices.Equal(obs.seen, want) {
		t.Fatalf("observer saw %q, want %q", obs.seen, want)
	}

	sub.err = errors.New("boom")
	if _, err := ud.SubscriptionUserData(nil); err == nil || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), `x`) {
		t.Fatalf("SubscriptionUserData error = %v; want it to wrap the assignor's and name it", err)
	}
}

// TestSharedStrategyDetected: one Strategy serving two members sees their
// assignments interleave; it must then stop sending history.
func TestSharedStrategyDetected(t *testing.T) {
	for _, tc := range []struct {
		name   string
		gens   []int32
		topics []map[string][]int32
		shared bool
	}{
		{"one member, increasing generations", []int32{1, 2, 5}, []map[string][]int32{{"a": {0}}, {"a": {1}}, {"a": {0, 1}}}, false},
		{"same generation, same assignment (a repeated sync): harmless", []int32{3, 3}, []map[string][]int32{{"a": {0}}, {"a": {0}}}, false},
		{"same generation, different assignments: two members", []int32{3, 3}, []map[string][]int32{{"a": {0}}, {"a": {1}}}, true},
		{"generation going backwards: two groups", []int32{7, 2}, []map[string][]int32{{"a": {0}}, {"a": {0}}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l logs
			s := mustNew(t, &subscriber{fixed: &fixed{name: "x"}}, Config{Logger: l.logger()})
			for i, g := range tc.gens {
				s.(sarama.OnAssignmentBalanceStrategy).OnAssignment(&sarama.ConsumerGroupMemberAssignment{Topics: tc.topics[i]}, g)
			}
			got, _ := s.(sarama.SubscriptionUserDataBalanceStrategy).SubscriptionUserData([]string{"a"})
			noHistory := string(got) == "topics=[a] owned= gen=-1"
			if noHistory != tc.shared || (len(l.all()) == 1) != tc.shared {
				t.Fatalf("user data %q, logs %q; want shared=%v", got, l.all(), tc.shared)
			}
		})
	}
}

// TestConcurrentUse runs every method at once; run with -race.
func TestConcurrentUse(t *testing.T) {
	sub := &subscriber{fixed: &fixed{name: "x", plan: assignor.Plan{Members: []assignor.MemberPlan{{Member: "m0", UserData: []byte{1}}}}}}
	s := mustNew(t, sub, Config{Logger: discard})
	members := map[string]sarama.ConsumerGroupMemberMetadata{"m0": {Topics: []string{"a"}}}
	topics := map[string][]int32{"a": {0, 1}}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for j := range 50 {
				switch (i + j) % 4 {
				case 0:
					if _, err := s.Plan(members, topics); err != nil {
						t.Error(err)
					}
				case 1:
					_, _ = s.AssignmentData("m0", nil, 1)
				case 2:
					s.(sarama.OnAssignmentBalanceStrategy).OnAssignment(&sarama.ConsumerGroupMemberAssignment{Topics: map[string][]int32{"a": {int32(j)}}}, int32(j))
				case 3:
					_, _ = s.(sarama.SubscriptionUserDataBalanceStrategy).SubscriptionUserData([]string{"a"})
				}
			}
		})
	}
	wg.Wait()
}

// TestAssignor: a Strategy hands back the assignor it runs, whichever hooks
// wrap it.
func TestAssignor(t *testing.T) {
	for _, a := range []assignor.Assignor{&fixed{name: "plain"}, &observer{fixed: &fixed{name: "observer"}}, roundrobin.New()} {
		if got := mustNew(t, a, Config{}).Assignor(); got != a {
			t.Errorf("New(%s).Assignor() = %v", a.Name(), got)
		}
	}
	if got := CooperativeSticky().Assignor().Name(); got != "cooperative-sticky" {
		t.Errorf("CooperativeSticky runs %q", got)
	}
}
