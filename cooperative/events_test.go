package cooperative

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kgroup/assignor"
	"pgregory.net/rapid"
)

// simMember is a member as the event tests model it: it claims what its
// last SyncGroup gave it, at that generation.
type simMember struct {
	id     string
	topics []string
	owned  []assignor.TopicPartitions
	gen    int32
	// prevOwned and prevGen are its claims one round earlier, sent instead
	// when it missed the last SyncGroup (lagging).
	prevOwned []assignor.TopicPartitions
	prevGen   int32
	lagging   bool
}

// simGroup is a group of members around one leader, rebalanced round by
// round; zombies are evicted members that still believe they own their
// partitions and may come back with those stale claims.
type simGroup struct {
	members []*simMember
	zombies []*simMember
	topics  []assignor.Topic
	// staleTopics, when set, is the leader's (outdated) metadata for the
	// next round only.
	staleTopics []assignor.Topic
	gen         int32
	next        int
	// uniform: every member subscribes to every topic, always.
	uniform bool
}

func (s *simGroup) group() assignor.Group {
	g := assignor.Group{Topics: s.topics}
	if s.staleTopics != nil {
		g.Topics = s.staleTopics
	}
	for _, m := range s.members {
		owned, gen := m.owned, m.gen
		if m.lagging {
			owned, gen = m.prevOwned, m.prevGen
		}
		g.Members = append(g.Members, assignor.Member{ID: m.id, Topics: m.topics, Owned: assignor.CloneTopicPartitions(owned), Generation: gen})
	}
	return g
}

// round runs one rebalance and applies its plan to every member.
func (s *simGroup) round(t *rapid.T, w assignor.Assignor) (assignor.Group, assignor.Plan) {
	g := s.group()
	plan, err := w.Assign(g)
	if err != nil {
		t.Fatalf("generation %d: %v", s.gen+1, err)
	}
	if err := assignor.CheckPlan(g, plan, assignor.Cooperative); err != nil {
		t.Fatalf("generation %d: unsafe plan:\n%v\ngroup: %v\nplan:\n%s", s.gen+1, err, g, plan)
	}
	s.gen++
	for _, m := range s.members {
		mp, _ := plan.Member(m.id)
		m.prevOwned, m.prevGen = m.owned, m.gen
		m.owned, m.gen, m.lagging = mp.Assigned, s.gen, false
	}
	s.staleTopics = nil
	return g, plan
}

// event applies one drawn event before the next round and reports whether
// it is a change the group must settle from.
func (s *simGroup) event(t *rapid.T) {
	switch kind := rapid.IntRange(0, 9).Draw(t, "event"); kind {
	case 0: // a member joins
		s.members = append(s.members, &simMember{id: fmt.Sprintf("m%02d", s.next), topics: s.drawTopics(t), gen: assignor.NoGeneration})
		s.next++
	case 1: // a member leaves cleanly
		if len(s.members) > 1 {
			i := rapid.IntRange(0, len(s.members)-1).Draw(t, "leaver")
			s.members = slices.Delete(s.members, i, i+1)
		}
	case 2: // a member is evicted (session expiry) but keeps its claims
		if len(s.members) > 1 {
			i := rapid.IntRange(0, len(s.members)-1).Draw(t, "evicted")
			s.zombies = append(s.zombies, s.members[i])
			s.members = slices.Delete(s.members, i, i+1)
		}
	case 3: // an evicted member comes back with its stale claims
		if len(s.zombies) > 0 {
			i := rapid.IntRange(0, len(s.zombies)-1).Draw(t, "returning")
			s.members = append(s.members, s.zombies[i])
			s.zombies = slices.Delete(s.zombies, i, i+1)
		}
	case 4: // a member missed the last SyncGroup: it claims its older set
		if len(s.members) > 0 && s.gen > 1 {
			s.members[rapid.IntRange(0, len(s.members)-1).Draw(t, "lagging")].lagging = true
		}
	case 5: // a member loses its claims (UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION)
		if len(s.members) > 0 {
			m := s.members[rapid.IntRange(0, len(s.members)-1).Draw(t, "reset")]
			m.owned, m.gen = nil, assignor.NoGeneration
		}
	case 6: // a subscription changes; the member revokes topics it dropped
		if len(s.members) > 0 {
			m := s.members[rapid.IntRange(0, len(s.members)-1).Draw(t, "resubscriber")]
			m.topics = s.drawTopics(t)
			var kept []assignor.TopicPartitions
			for _, tp := range m.owned {
				if slices.Contains(m.topics, tp.Topic) {
					kept = append(kept, tp)
				}
			}
			m.owned = kept
		}
	case 7: // a topic is created or deleted
		name := rapid.SampledFrom(topicNames[:4]).Draw(t, "topic")
		i := slices.IndexFunc(s.topics, func(tp assignor.Topic) bool { return tp.Name == name })
		if i >= 0 {
			s.topics = slices.Delete(slices.Clone(s.topics), i, i+1)
		} else {
			s.topics = append(slices.Clone(s.topics), topic(name, int32(rapid.IntRange(1, 6).Draw(t, "partitions"))))
		}
	case 8: // partitions are added to a topic
		if len(s.topics) > 0 {
			i := rapid.IntRange(0, len(s.topics)-1).Draw(t, "expanded")
			s.topics = slices.Clone(s.topics)
			s.topics[i] = topic(s.topics[i].Name, int32(len(s.topics[i].Partitions)+rapid.IntRange(1, 3).Draw(t, "added")))
		}
	case 9: // the leader's metadata is one change behind for one round
		old := slices.Clone(s.topics)
		if len(old) > 0 {
			i := rapid.IntRange(0, len(old)-1).Draw(t, "hidden")
			if rapid.Bool().Draw(t, "hide whole topic") {
				old = slices.Delete(old, i, i+1)
			} else {
				old[i] = topic(old[i].Name, int32(len(old[i].Partitions)/2))
			}
		}
		s.staleTopics = old
	}
}

func (s *simGroup) drawTopics(t *rapid.T) []string {
	if s.uniform {
		return allTopics
	}
	return rapid.SliceOfNDistinct(rapid.SampledFrom(topicNames), 1, 3, rapid.ID[string]).Draw(t, "topics")
}

// TestPropertyEvents drives random event sequences (joins, leaves,
// evictions and stale returns, missed SyncGroups, lost claims, subscription
// changes, topics created, deleted and expanded, a leader with stale
// metadata) through the wrapper around every inner assignor. Every round's
// plan must be safe; with a stable inner assignor the group must settle
// within two rebalances of the last event: the round after it withholds
// nothing, and hands every partition of the metadata to the member the
// inner assignor chose. (A "quiet" inner assignor must only withhold
// nothing in the follow-up round.)
func TestPropertyEvents(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		inner := inners[rapid.IntRange(0, len(inners)-1).Draw(t, "inner")]
		cfg := Config{RevokeUnknown: rapid.Bool().Draw(t, "revoke unknown")}
		w := WrapWithConfig(inner.a, cfg)
		s := &simGroup{topics: []assignor.Topic{topic("t0", 4), topic("t1", 3)}, uniform: inner.uniform}
		for range rapid.IntRange(1, 4).Draw(t, "initial members") {
			s.members = append(s.members, &simMember{id: fmt.Sprintf("m%02d", s.next), topics: s.drawTopics(t), gen: assignor.NoGeneration})
			s.next++
		}
		s.round(t, w)
		staleLast := false
		for range rapid.IntRange(0, 12).Draw(t, "events") {
			for range rapid.IntRange(1, 2).Draw(t, "events this round") {
				s.event(t)
			}
			staleLast = s.staleTopics != nil
			s.round(t, w)
		}
		if staleLast {
			// The leader's metadata catching up is an event too: this is
			// its rebalance.
			s.round(t, w)
		}
		// The last event's rebalance ran; the next round is the follow-up.
		g, plan := s.round(t, w)
		if !inner.stable && !inner.quiet {
			return
		}
		if plan.FollowUp {
			t.Fatalf("%s: the follow-up round withholds again:\n%s", inner.name, plan)
		}
		if !inner.stable {
			return
		}
		innerPlan, err := inner.a.Assign(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range g.Members {
			got, _ := plan.Member(m.ID)
			want, _ := innerPlan.Member(m.ID)
			if a, b := insideMetadata(g, got.Assigned), keys(want.Assigned); !mapsEqual(a, b) {
				t.Fatalf("%s: settled plan of %s is %v, the inner assignor chose %v", inner.name, m.ID, got.Assigned, want.Assigned)
			}
		}
		// And it stays settled.
		if _, again := s.round(t, w); again.String() != plan.String() {
			t.Fatalf("%s: a settled group moved:\n%s\nthen\n%s", inner.name, plan, again)
		}
	})
}

// insideMetadata returns the partitions of tps that g's metadata knows.
func insideMetadata(g assignor.Group, tps []assignor.TopicPartitions) map[key]bool {
	out := map[key]bool{}
	for k := range keys(tps) {
		for _, tp := range g.Topics {
			if tp.Name == k.topic && slices.Contains(tp.Partitions, k.id) {
				out[k] = true
			}
		}
	}
	return out
}

// TestStableInners checks the definition on the inner assignors the
// settling property relies on: given ownership equal to its previous plan
// minus any subset of partitions, a stable assignor returns that plan.
func TestStableInners(t *testing.T) {
	for _, inner := range inners {
		if !inner.stable {
			continue
		}
		t.Run(inner.name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				g := genGroup(t, inner.uniform)
				for i := range g.Members {
					g.Members[i].Owned = nil
				}
				first, err := inner.a.Assign(g)
				if err != nil {
					t.Fatal(err)
				}
				for i := range g.Members {
					mp, _ := first.Member(g.Members[i].ID)
					var owned []assignor.TopicPartitions
					for _, tp := range mp.Assigned {
						keep := []int32{}
						for _, id := range tp.Partitions {
							if rapid.Bool().Draw(t, "keep") {
								keep = append(keep, id)
							}
						}
						owned = append(owned, assignor.TopicPartitions{Topic: tp.Topic, Partitions: keep})
					}
					g.Members[i].Owned, g.Members[i].Generation = owned, 7
				}
				if again, err := inner.a.Assign(g); err != nil || again.String() != first.String() {
					t.Fatalf("plan moved:\n%s\nthen\n%s(err %v)", first, again, err)
				}
			})
		})
	}
}

// TestUnstableInnersAreUnstable pins that the test's unstable inner
// assignors really are: ownership equal to their own plan minus all of it
// changes their answer. (They are still valid, so the safety
// properties hold for them.)
func TestUnstableInnersAreUnstable(t *testing.T) {
	g := assignor.Group{
		Members: []assignor.Member{member("m0", 1, "t0", "t0[1]"), member("m1", 1, "t0", "")},
		Topics:  []assignor.Topic{topic("t0", 2)},
	}
	for _, inner := range inners {
		if inner.stable {
			continue
		}
		t.Run(inner.name, func(t *testing.T) {
			first, err := inner.a.Assign(g)
			if err != nil {
				t.Fatal(err)
			}
			// Its own plan minus every partition: nobody claims anything.
			h := g.Clone()
			for i := range h.Members {
				h.Members[i].Owned, h.Members[i].Generation = nil, 2
			}
			if again, _ := inner.a.Assign(h); again.String() == first.String() {
				t.Errorf("%s returned its previous plan\n%s", inner.name, first)
			}
		})
	}
}
