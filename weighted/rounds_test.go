package weighted_test

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/weighted"
	"pgregory.net/rapid"
)

// roundsChecks is the least number of sequences TestTwoRounds checks per
// assignor (issue 24: at least 1,000 in CI), whatever -rapid.checks says
// when it says less.
const roundsChecks = 1000

// TestTwoRounds runs random multi-round sequences through the cooperative
// wrapper (issue 24, deliver 3): a group starts from random ownership, then
// events follow — members join, leave, change subscriptions; weights drift
// only between events, never between an event's rounds — and each event
// runs rounds, each round's plan applied as the next round's ownership at
// the next generation, until a plan withholds nothing. For every event:
//
//   - every plan passes [assignor.CheckPlan] for the cooperative protocol;
//   - it settles in at most two rounds;
//   - the follow-up round only places what the first one withheld: no member
//     loses a partition it holds, and every partition it gains was withheld;
//   - no partition revoked in the first round goes back, in the follow-up,
//     to the member that revoked it — for cooperative-weighted, in all but
//     rare events (at most 1 in 1,000; measured: 10 of 127,412 events over
//     30,000 sequences), when the simulation of the follow-up round in
//     weighted's solver finds no plan whose follow-up avoids it (see
//     solver.run).
//
// The same properties are checked for cooperative-sticky and round-robin,
// and for weighted with and without hysteresis, with racks in play in some
// sequences; at least 1,000 sequences each.
func TestTwoRounds(t *testing.T) {
	for _, c := range []struct {
		name    string
		new     func(*rapid.T) assignor.Assignor
		returns bool // a rare return is allowed
	}{
		{"cooperative-weighted", func(t *rapid.T) assignor.Assignor {
			cfg := weighted.Config{NoHysteresis: rapid.IntRange(0, 3).Draw(t, "no hysteresis") == 0}
			a, err := weighted.NewWithConfig(cfg)
			if err != nil {
				t.Fatal(err)
			}
			return cooperative.Wrap(a)
		}, true},
		{"cooperative-sticky", func(*rapid.T) assignor.Assignor { return cooperative.Wrap(sticky.New()) }, false},
		{"cooperative-round-robin", func(*rapid.T) assignor.Assignor { return cooperative.Wrap(roundrobin.New()) }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer atLeastChecks(t, roundsChecks)()
			var n counts
			rapid.Check(t, func(t *rapid.T) {
				checkRounds(t, c.new(t), &n)
			})
			t.Logf("%d events, %d with a partition back to the member that revoked it", n.events, n.returns)
			if n.returns > 0 && !c.returns || n.returns*1000 > n.events {
				t.Errorf("%d of %d events give a partition back to the member that revoked it", n.returns, n.events)
			}
		})
	}
}

// fatalHelper is what sequence.event needs of *testing.T and *rapid.T.
type fatalHelper interface {
	Helper()
	Fatalf(format string, args ...any)
}

// TestTwoRoundsIssueExample is issue 24's example (finding 3): identical
// subscriptions to t0 and t1, m04 joins a group on generation 15 with
// nothing. Through cooperative-weighted, round 2 moved partitions members
// had kept (t0/6, t1/3), so a third round followed, and t0/2 went back to
// m01, which revoked it in round 1.
func TestTwoRoundsIssueExample(t *testing.T) {
	u := assignor.UnknownWeight
	tp := func(topic string, ps ...int32) assignor.TopicPartitions {
		return assignor.TopicPartitions{Topic: topic, Partitions: ps}
	}
	both := []string{"t0", "t1"}
	s := &sequence{gen: 15, g: assignor.Group{
		Topics: []assignor.Topic{
			{Name: "t0", Partitions: assignor.Partitions(7), Weights: []int64{87, 10, 80, 93, 60, u, 67}},
			{Name: "t1", Partitions: assignor.Partitions(6), Weights: []int64{u, 13, 18, 71, u, 74}},
		},
		Members: []assignor.Member{
			{ID: "m00", Topics: both, Generation: 15, Owned: []assignor.TopicPartitions{tp("t0", 0, 6), tp("t1", 0, 4)}},
			{ID: "m01", Topics: both, Generation: 15, Owned: []assignor.TopicPartitions{tp("t0", 2, 5), tp("t1", 1, 2, 3)}},
			{ID: "m03", Topics: both, Generation: 15, Owned: []assignor.TopicPartitions{tp("t0", 1, 3, 4), tp("t1", 5)}},
			{ID: "m04", Topics: both, Generation: assignor.NoGeneration},
		},
	}}
	var n counts
	s.event(t, cooperative.Wrap(weighted.New()), "m04 joins", &n)
	if n.returns > 0 {
		t.Fatal("a partition went back to the member that revoked it")
	}
}

// counts are what TestTwoRounds counts over its sequences.
type counts struct{ events, returns int }

// atLeastChecks raises -rapid.checks to n for the test at hand unless it is
// set higher, and returns what restores it.
func atLeastChecks(t *testing.T, n int) func() {
	f := flag.Lookup("rapid.checks")
	if f == nil {
		t.Fatal("no -rapid.checks flag")
	}
	was := f.Value.String()
	if cur, err := strconv.Atoi(was); err == nil && cur >= n {
		return func() {}
	}
	if err := f.Value.Set(strconv.Itoa(n)); err != nil {
		t.Fatal(err)
	}
	return func() { _ = f.Value.Set(was) }
}

// roundsTopics are the topics of a sequence's metadata.
var roundsTopics = []string{"t0", "t1", "t2"}

// sequence is the state of one random multi-round sequence.
type sequence struct {
	g      assignor.Group
	gen    int32
	next   int // the next member ID's number
	racks  bool
	events []string // what happened, for the failure message
}

// checkRounds draws a group and a sequence of events and checks every
// event's rounds; see TestTwoRounds.
func checkRounds(t *rapid.T, a assignor.Assignor, n *counts) {
	s := &sequence{racks: rapid.Bool().Draw(t, "racks"), gen: 1}
	for _, name := range roundsTopics {
		n := rapid.IntRange(1, 8).Draw(t, "partitions")
		tp := assignor.Topic{Name: name, Partitions: assignor.Partitions(int32(n))}
		if s.racks {
			for range n {
				tp.ReplicaRacks = append(tp.ReplicaRacks, rapid.SliceOfDistinct(rapid.SampledFrom([]string{"r0", "r1", "r2"}), rapid.ID[string]).Draw(t, "replicas"))
			}
		}
		s.g.Topics = append(s.g.Topics, tp)
	}
	s.drift(t)
	for range rapid.IntRange(1, 6).Draw(t, "members") {
		s.join(t)
	}
	// Random ownership to start from, as if another assignor had led.
	for i := range s.g.Members {
		s.g.Members[i].Generation = s.gen
	}
	for _, tp := range s.g.Topics {
		for _, p := range tp.Partitions {
			i := rapid.IntRange(-1, len(s.g.Members)-1).Draw(t, "owner")
			if i < 0 {
				continue
			}
			m := &s.g.Members[i]
			if n := len(m.Owned); n == 0 || m.Owned[n-1].Topic != tp.Name {
				m.Owned = append(m.Owned, assignor.TopicPartitions{Topic: tp.Name})
			}
			m.Owned[len(m.Owned)-1].Partitions = append(m.Owned[len(m.Owned)-1].Partitions, p)
		}
	}
	s.event(t, a, "start", n)
	for range rapid.IntRange(1, 6).Draw(t, "events") {
		if rapid.Bool().Draw(t, "drift") {
			s.drift(t)
		}
		switch kind := rapid.IntRange(0, 3).Draw(t, "event"); {
		case kind == 0 || len(s.g.Members) < 2:
			s.join(t)
			s.events = append(s.events, "join "+s.g.Members[len(s.g.Members)-1].ID)
		case kind == 1:
			i := rapid.IntRange(0, len(s.g.Members)-1).Draw(t, "leaver")
			s.events = append(s.events, "leave "+s.g.Members[i].ID)
			s.g.Members = slices.Delete(s.g.Members, i, i+1)
		case kind == 2:
			i := rapid.IntRange(0, len(s.g.Members)-1).Draw(t, "changer")
			s.g.Members[i].Topics = drawTopics(t)
			s.events = append(s.events, fmt.Sprintf("%s subscribes to %v", s.g.Members[i].ID, s.g.Members[i].Topics))
		default:
			s.events = append(s.events, "weights only")
		}
		s.event(t, a, s.events[len(s.events)-1], n)
	}
}

// drawTopics draws a subscription: one to three of the topics.
func drawTopics(t *rapid.T) []string {
	return rapid.SliceOfNDistinct(rapid.SampledFrom(roundsTopics), 1, 3, rapid.ID[string]).Draw(t, "topics")
}

// join adds a member with nothing owned and no generation.
func (s *sequence) join(t *rapid.T) {
	m := assignor.Member{ID: fmt.Sprintf("m%02d", s.next), Topics: drawTopics(t), Generation: assignor.NoGeneration}
	s.next++
	if s.racks {
		m.Rack = rapid.SampledFrom([]string{"", "r0", "r1", "r2"}).Draw(t, "rack")
	}
	s.g.Members = append(s.g.Members, m)
	slices.SortFunc(s.g.Members, func(a, b assignor.Member) int { return strings.Compare(a.ID, b.ID) })
}

// drift draws new weights: idle, light, heavy or unknown partitions.
func (s *sequence) drift(t *rapid.T) {
	for i := range s.g.Topics {
		tp := &s.g.Topics[i]
		tp.Weights = make([]int64, len(tp.Partitions))
		for j := range tp.Weights {
			w := int64(rapid.IntRange(0, 100).Draw(t, "weight"))
			switch rapid.IntRange(0, 9).Draw(t, "kind") {
			case 0:
				w = 0
			case 1:
				w = assignor.UnknownWeight
			case 2:
				w *= 20
			}
			tp.Weights[j] = w
		}
	}
}

// event runs rounds until a plan withholds nothing, checking each; see
// TestTwoRounds.
func (s *sequence) event(t fatalHelper, a assignor.Assignor, what string, n *counts) {
	start := describe(s.g)
	fail := func(round int, format string, args ...any) {
		t.Helper()
		t.Fatalf("event %q, round %d: %s\nevents: %q\ngroup at the event's start:\n%s", what, round, fmt.Sprintf(format, args...), s.events, start)
	}
	n.events++
	returned := false
	var withheld map[string]bool    // round 1's withheld partitions
	var revokedBy map[string]string // round 1: partition -> the member that revoked it
	for round := 1; ; round++ {
		g := s.g
		plan, err := a.Assign(g)
		if err != nil {
			fail(round, "%v", err)
		}
		if err := assignor.CheckPlan(g, plan, assignor.Cooperative); err != nil {
			fail(round, "%v\n%s", err, plan)
		}
		holder := map[string]string{}
		for _, mp := range plan.Members {
			for _, tp := range mp.Assigned {
				for _, p := range tp.Partitions {
					holder[tp.Topic+"/"+strconv.Itoa(int(p))] = mp.Member
				}
			}
		}
		owned := func(m assignor.Member) []string {
			var out []string
			for _, tp := range m.Owned {
				for _, p := range tp.Partitions {
					out = append(out, tp.Topic+"/"+strconv.Itoa(int(p)))
				}
			}
			return out
		}
		switch round {
		case 1:
			withheld, revokedBy = map[string]bool{}, map[string]string{}
			subscribed := map[string]bool{}
			for _, m := range g.Members {
				for _, topic := range m.Topics {
					subscribed[topic] = true
				}
				for _, p := range owned(m) {
					if holder[p] != m.ID {
						revokedBy[p] = m.ID
					}
				}
			}
			for _, tp := range g.Topics {
				for _, p := range tp.Partitions {
					if k := tp.Name + "/" + strconv.Itoa(int(p)); subscribed[tp.Name] && holder[k] == "" {
						withheld[k] = true
					}
				}
			}
		case 2:
			for _, m := range g.Members {
				for _, p := range owned(m) {
					if holder[p] != m.ID {
						fail(round, "the follow-up round revokes %s from %s\n%s", p, m.ID, plan)
					}
				}
			}
			for _, mp := range plan.Members {
				m, _ := memberOf(g, mp.Member)
				for _, tp := range mp.Assigned {
					for _, p := range tp.Partitions {
						k := tp.Topic + "/" + strconv.Itoa(int(p))
						if slices.Contains(owned(m), k) {
							continue
						}
						if !withheld[k] {
							fail(round, "the follow-up round gives %s %s, which the first round did not withhold\n%s", mp.Member, k, plan)
						}
						if revokedBy[k] == mp.Member && !returned {
							returned = true
							n.returns++
						}
					}
				}
			}
		default:
			fail(round, "the event takes more than two rounds\n%s", plan)
		}
		s.gen++
		for i := range s.g.Members {
			mp, _ := plan.Member(s.g.Members[i].ID)
			s.g.Members[i].Owned = assignor.CloneTopicPartitions(mp.Assigned)
			s.g.Members[i].Generation = s.gen
		}
		if !plan.FollowUp {
			return
		}
	}
}

// memberOf returns the member of g with the given ID.
func memberOf(g assignor.Group, id string) (assignor.Member, bool) {
	for _, m := range g.Members {
		if m.ID == id {
			return m, true
		}
	}
	return assignor.Member{}, false
}

// describe prints g for a failure message.
func describe(g assignor.Group) string {
	var b strings.Builder
	for _, tp := range g.Topics {
		fmt.Fprintf(&b, "%s weights %v racks %v\n", tp.Name, tp.Weights, tp.ReplicaRacks)
	}
	for _, m := range g.Members {
		fmt.Fprintf(&b, "%s gen %d rack %q topics %v owns %v\n", m.ID, m.Generation, m.Rack, m.Topics, assignor.FormatTopicPartitions(m.Owned))
	}
	return b.String()
}
