package rebalance

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/wire"
)

// sub is a member's subscription v3 as a client decoded it.
func sub(id string, topics []string, owned []assignor.TopicPartitions, gen int32) Subscription {
	return Subscription{MemberID: id, Version: 3, Topics: topics, Owned: seq(owned), Generation: gen}
}

// seq yields owned, a topic at a time.
func seq(owned []assignor.TopicPartitions) func(func(string, []int32) bool) {
	if owned == nil {
		return nil
	}
	return func(yield func(string, []int32) bool) {
		for _, tp := range owned {
			if !yield(tp.Topic, tp.Partitions) {
				return
			}
		}
	}
}

func tps(topic string, ids ...int32) []assignor.TopicPartitions {
	return []assignor.TopicPartitions{{Topic: topic, Partitions: ids}}
}

// run runs one round of subs on topic t with n partitions.
func run(t *testing.T, l *Leader, gen int32, n int32, subs ...Subscription) *Result {
	t.Helper()
	r := l.NewRound()
	for _, s := range subs {
		r.AddSubscription(s)
	}
	r.AddTopic(assignor.Topic{Name: "t", Partitions: assignor.Partitions(n)})
	res, err := r.Assign(gen)
	if err != nil {
		t.Fatalf("Assign: %v", err)
	}
	return res
}

// render shows a result's assignments, "a: t[0 1]* " with * for a mark.
func render(res *Result) string {
	var b strings.Builder
	for _, a := range res.Assignments {
		fmt.Fprintf(&b, "%s: %s", a.Member, assignor.FormatTopicPartitions(a.Partitions))
		if a.Rejoin {
			b.WriteString(" *")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// hookless declares the cooperative protocol but builds no subscription
// user data: a sarama member would copy its assignment user data into its
// next subscription, so its assignments are never marked.
type hookless struct{ assignor.Assignor }

func (hookless) Protocols() []assignor.Protocol { return []assignor.Protocol{assignor.Cooperative} }

// eagerFollowUp is an eager assignor whose plans claim a follow-up (no
// eager assignor should; the mark must not follow it).
type eagerFollowUp struct{ assignor.Assignor }

func (e eagerFollowUp) Assign(g assignor.Group) (assignor.Plan, error) {
	p, err := e.Assignor.Assign(g)
	p.FollowUp = true
	return p, err
}

// TestFastRejoinMarks pins when a leader marks the assignments of a round
// (design step 2.6): every assignment of a cooperative plan that withholds
// something, from an assignor that builds its members' subscription user
// data, with fast re-join on; the follow-up round's are not marked.
func TestFastRejoinMarks(t *testing.T) {
	joining := []Subscription{sub("m0", []string{"t"}, tps("t", 0, 1, 2, 3), 7), sub("m1", []string{"t"}, nil, -1)}
	tests := []struct {
		name   string
		a      assignor.Assignor
		cfg    Config
		marked bool
	}{
		{"a cooperative plan that withholds: every assignment marked", cooperative.Wrap(roundrobin.New()), Config{}, true},
		{"fast re-join off: not marked", cooperative.Wrap(roundrobin.New()), Config{DisableFastRejoin: true}, false},
		{"never in an eager plan", eagerFollowUp{roundrobin.New()}, Config{}, false},
		{"never for a cooperative assignor without a subscription hook", hookless{cooperative.Wrap(roundrobin.New())}, Config{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, NewLeader(tt.a, tt.cfg), 8, 4, joining...)
			for _, a := range res.Assignments {
				if a.Rejoin != tt.marked {
					t.Fatalf("assignments\n%swant marked=%v", render(res), tt.marked)
				}
			}
		})
	}
	t.Run("the follow-up round settles, unmarked", func(t *testing.T) {
		l := NewLeader(cooperative.Wrap(roundrobin.New()), Config{})
		res := run(t, l, 9, 4, sub("m0", []string{"t"}, tps("t", 0, 2), 8), sub("m1", []string{"t"}, nil, 8))
		if res.Stats.FollowUp || strings.Contains(render(res), "*") {
			t.Fatalf("follow-up round:\n%s", render(res))
		}
	})
}

// TestRoundSetsAside pins the members a round cannot assign: an empty
// member ID (no assignment at all), a duplicate ID (every copy, one empty
// assignment), metadata it cannot read (an empty assignment); each is a
// warning, and under the cooperative protocol what they claim is withheld.
func TestRoundSetsAside(t *testing.T) {
	var logs bytes.Buffer
	l := NewLeader(cooperative.Wrap(sticky.New()), Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	r := l.NewRound()
	r.AddSubscription(sub("", []string{"t"}, tps("t", 0), 4))
	r.AddSubscription(sub("d", []string{"t"}, tps("t", 1), 4))
	r.AddSubscription(sub("d", []string{"t"}, nil, -1))
	r.AddMetadata("garbage", "", []byte{0, 3, 0x7f})
	r.AddSubscription(sub("a", []string{"t"}, tps("t", 2, 3), 4))
	if got := r.Topics(); len(got) != 1 || got[0] != "t" {
		t.Fatalf("Topics = %q", got)
	}
	r.AddTopic(assignor.Topic{Name: "t", Partitions: assignor.Partitions(4)})
	res, err := r.Assign(5)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := render(res), "a: t[2 3]\nd: \ngarbage: \n"; got != want { // unmarked: garbage's claims are unknown, so nobody rushes into the next round before it took this plan
		t.Fatalf("assignments\n%swant\n%s", got, want)
	}
	s := res.Stats
	if s.Members != 5 || s.Excluded != 4 || s.ClaimsUnknown != 1 || s.Withheld != 2 || !s.FollowUp || s.MinAssigned != 2 || s.MaxAssigned != 2 {
		t.Fatalf("stats %+v", s)
	}
	for _, want := range []string{"a member has an empty member ID", "member ID listed several times; assigned nothing\" assignor=cooperative-sticky member=d times=2", "metadata unreadable; assigned nothing\" assignor=cooperative-sticky member=garbage", "withheld partitions that members the round could not fully read may still hold"} {
		if strings.Count(logs.String(), want) != 1 {
			t.Errorf("want one warning %q in\n%s", want, logs.String())
		}
	}
}

// TestStats: a member joins a settled cooperative-sticky group of two: the
// plan withholds what it moves; the follow-up round hands it over.
func TestStats(t *testing.T) {
	l := NewLeader(cooperative.Wrap(sticky.New()), Config{})
	res := run(t, l, 5, 6, sub("a", []string{"t"}, tps("t", 0, 1, 2), 4), sub("b", []string{"t"}, tps("t", 3, 4, 5), 4), sub("c", []string{"t"}, nil, -1))
	s := res.Stats
	if s.Generation != 5 || s.Members != 3 || s.Partitions != 6 || s.Moved != 2 || s.Withheld != 2 || !s.FollowUp || s.MinAssigned != 0 || s.MaxAssigned != 2 || s.Duration <= 0 {
		t.Fatalf("join round stats %+v\n%s", s, render(res))
	}
	var owned [3][]assignor.TopicPartitions
	for i, a := range res.Assignments {
		owned[i] = a.Partitions
	}
	res = run(t, l, 6, 6, sub("a", []string{"t"}, owned[0], 5), sub("b", []string{"t"}, owned[1], 5), sub("c", []string{"t"}, owned[2], 5))
	if s := res.Stats; s.Moved != 0 || s.Withheld != 0 || s.FollowUp || s.MinAssigned != 2 || s.MaxAssigned != 2 {
		t.Fatalf("follow-up stats %+v\n%s", s, render(res))
	}
}

// TestImpossibleClaims: a claim at or above the generation being balanced
// into is dropped (a well-formed hostile member cannot outrank the true
// owner), counted and logged; with the generation unknown, nothing is.
func TestImpossibleClaims(t *testing.T) {
	l := NewLeader(cooperative.Wrap(sticky.New()), Config{Logger: slog.New(slog.DiscardHandler)})
	subs := []Subscription{sub("honest", []string{"t"}, tps("t", 0, 1), 4), sub("liar", []string{"t"}, tps("t", 0, 1), 1<<30)}
	res := run(t, l, 5, 2, subs...)
	if got := render(res); got != "honest: t[0] *\nliar:  *\n" || res.Stats.IgnoredClaims != 2 {
		t.Fatalf("assignments\n%s%+v", got, res.Stats)
	}
	if res = run(t, l, 0, 2, subs...); res.Stats.IgnoredClaims != 0 || !strings.Contains(render(res), "liar: t[") {
		t.Fatalf("generation unknown: %s%+v", render(res), res.Stats)
	}
}

// TestInvalidPlanRefused: a plan that breaks the rules every plan keeps is
// an error naming the rule, never sent.
func TestInvalidPlanRefused(t *testing.T) {
	twice := planned(func(g assignor.Group) assignor.Plan {
		var p assignor.Plan
		for _, m := range g.Members {
			p.Members = append(p.Members, assignor.MemberPlan{Member: m.ID, Assigned: tps("t", 0)})
		}
		return p
	})
	l := NewLeader(twice, Config{})
	r := l.NewRound()
	r.AddSubscription(sub("a", []string{"t"}, nil, -1))
	r.AddSubscription(sub("b", []string{"t"}, nil, -1))
	r.AddTopic(assignor.Topic{Name: "t", Partitions: assignor.Partitions(1)})
	if res, err := r.Assign(1); res != nil || !errors.Is(err, assignor.ErrAssignedTwice) {
		t.Fatalf("Assign = %v, %v; want ErrAssignedTwice", res, err)
	}
}

// planned is an assignor whose plan is a function of the group.
type planned func(assignor.Group) assignor.Plan

func (planned) Name() string                                     { return "planned" }
func (f planned) Assign(g assignor.Group) (assignor.Plan, error) { return f(g), nil }

// TestAssignmentBytes: what AppendTo writes every client reads back (a v3
// ConsumerProtocolAssignment, the mark inside the user data), and
// ParseAssignment reads it, canonical, mark apart.
func TestAssignmentBytes(t *testing.T) {
	a := Assignment{Member: "m", Partitions: []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{0, 2}}, {Topic: "u", Partitions: []int32{1}}}, UserData: []byte("own"), Rejoin: true}
	b := a.AppendTo(nil)
	if len(b) != a.Size() {
		t.Fatalf("%d bytes, Size %d", len(b), a.Size())
	}
	w, err := wire.DecodeAssignment(b)
	if err != nil || w.Version != 3 || !assignor.EqualTopicPartitions(w.Partitions, a.Partitions) {
		t.Fatalf("wire reads %+v, %v", w, err)
	}
	got, err := ParseAssignment(b)
	if err != nil || !got.Rejoin || string(got.UserData) != "own" || !assignor.EqualTopicPartitions(got.Partitions, a.Partitions) {
		t.Fatalf("ParseAssignment = %+v, %v", got, err)
	}
	if got, err := ParseAssignment(nil); err != nil || got.Partitions != nil {
		t.Fatalf("empty bytes: %+v, %v; want an empty assignment", got, err)
	}
	if _, err := ParseAssignment([]byte{0, 3, 0}); err == nil || errors.Is(err, ErrEnvelope) {
		t.Fatalf("truncated assignment: %v, want a decode error", err)
	}
}

// TestOmitAssignmentUserData: every assignment carries null user data (no
// assignor user data, no fast re-join mark), even in a round that
// withholds, so that a classic group can move online to the consumer
// protocol; the plan is the same.
func TestOmitAssignmentUserData(t *testing.T) {
	subs := []Subscription{sub("a", []string{"t"}, tps("t", 0, 1, 2, 3), 4), sub("b", []string{"t"}, nil, -1)}
	base := run(t, NewLeader(cooperative.Wrap(sticky.New()), Config{}), 5, 4, subs...)
	res := run(t, NewLeader(cooperative.Wrap(sticky.New()), Config{OmitAssignmentUserData: true}), 5, 4, subs...)
	if !res.Stats.FollowUp {
		t.Fatal("the round should withhold")
	}
	for i, a := range res.Assignments {
		if a.UserData != nil || a.Rejoin || a.AppendUserData(nil) != nil {
			t.Fatalf("%s: user data %q, marked %v", a.Member, a.UserData, a.Rejoin)
		}
		if !assignor.EqualTopicPartitions(a.Partitions, base.Assignments[i].Partitions) {
			t.Fatalf("%s: %v, without the option %v", a.Member, a.Partitions, base.Assignments[i].Partitions)
		}
		if b := a.AppendTo(nil); !bytes.HasSuffix(b, []byte{0xFF, 0xFF, 0xFF, 0xFF}) {
			t.Fatalf("%s: encoded % x, want null user data at the end", a.Member, b)
		}
	}
	if !base.Assignments[0].Rejoin {
		t.Fatal("without the option the withholding round is marked")
	}
}
