package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// rolling starts members in order, then restarts each in the same order, settling after every
// step. With "g1" first, our sarama member leads until it is restarted itself; with "j1" first,
// Java leads until then.
func rolling(t *testing.T, members ...string) report {
	s := newScenario(t, scenarioConfig{})
	for _, id := range members {
		s.start(id)
		s.settle()
	}
	for _, id := range members {
		s.stop(id)
		s.start(id)
		s.settle()
	}
	return s.finish()
}

// TestMixedRollingOursLeads: our sarama member joins first and leads while both Java members
// are restarted in turn, then every sarama member is restarted (leadership moves).
func TestMixedRollingOursLeads(t *testing.T) {
	r := rolling(t, "g1", "j1", "g2", "j2")
	if r.ledBy[strategyKind()] == 0 {
		t.Errorf("our assignor led no rebalance")
	}
}

// TestMixedRollingJavaLeads: a Java member joins first and leads while both sarama members
// are restarted in turn, then every Java member is restarted.
func TestMixedRollingJavaLeads(t *testing.T) {
	r := rolling(t, "j1", "g1", "j2", "g2")
	if r.ledBy[kindJava] == 0 {
		t.Errorf("Java led no rebalance")
	}
}

// scale starts members one by one, then stops them in reverse order down to the first.
func scale(t *testing.T, members ...string) report {
	s := newScenario(t, scenarioConfig{})
	for _, id := range members {
		s.start(id)
		s.settle()
	}
	for i := len(members) - 1; i > 0; i-- {
		s.stop(members[i])
		s.settle()
	}
	return s.finish()
}

// TestMixedScaleOutIn: 1 → 6 members (three of each kind, ours first, so ours leads) and
// back to 1.
func TestMixedScaleOutIn(t *testing.T) {
	r := scale(t, "g1", "j1", "g2", "j2", "g3", "j3")
	if r.ledBy[strategyKind()] == 0 {
		t.Errorf("our assignor led no rebalance")
	}
}

// staticRestarts starts static members (group.instance.id) with a session timeout long
// enough to restart each within it, then restarts each in turn: real Kafka hands the new
// incarnation the old one's assignment without a rebalance, which the test asserts (the
// generation stays the same and no other member's claims change).
func staticRestarts(t *testing.T, members ...string) report {
	s := newScenario(t, scenarioConfig{session: 10 * time.Second})
	for _, id := range members {
		s.static(id)
		s.start(id)
		s.settle()
	}
	gen := s.l.maxGeneration()
	rebalancesBefore := s.l.generationCount()
	for _, id := range members {
		before := s.holdings()
		old := s.currentName(id)
		start := time.Now()
		s.stop(id)
		s.start(id)
		name := s.currentName(id)
		s.waitFor(20*time.Second, func() string {
			if h := s.holdings()[name]; h != before[old] {
				return fmt.Sprintf("%s holds %d partitions, %s held %d", name, h, old, before[old])
			}
			return ""
		})
		t.Logf("static %s restarted and holding its %d partitions again after %.2fs", id, before[old], time.Since(start).Seconds())
		if g := s.l.maxGeneration(); g != gen {
			t.Errorf("restarting static member %s caused a rebalance: generation %d -> %d", id, gen, g)
			gen = g
		}
		for m, n := range before {
			if m != old && s.holdings()[m] != n {
				t.Errorf("restarting static member %s changed %s's partitions: %d -> %d", id, m, n, s.holdings()[m])
			}
		}
	}
	// A late rebalance would show within a few heartbeats.
	time.Sleep(time.Second)
	if n := s.l.generationCount() - rebalancesBefore; n != 0 {
		t.Errorf("static restarts caused %d rebalances", n)
	}
	return s.finish()
}

// TestMixedStaticRestart: two Java and two sarama static members restarted in turn.
func TestMixedStaticRestart(t *testing.T) {
	staticRestarts(t, "g1", "j1", "g2", "j2")
}

// The kfake suite's sarama-only scenarios, on the real broker.

// TestSaramaRollingRestart: 4 sarama members over 2 topics, each restarted in turn.
func TestSaramaRollingRestart(t *testing.T) { rolling(t, "g1", "g2", "g3", "g4") }

// TestSaramaScaleOutIn: 1 → 6 sarama members and back to 1.
func TestSaramaScaleOutIn(t *testing.T) { scale(t, "g1", "g2", "g3", "g4", "g5", "g6") }

// TestSaramaStaticRestart: 4 static sarama members restarted in turn.
func TestSaramaStaticRestart(t *testing.T) { staticRestarts(t, "g1", "g2", "g3", "g4") }

// TestFourKinds: one group of every kind (franz-go, Java, ours, sarama's built-in), and each
// kind leads it in turn: the first member to join leads, and a leader stays leader while it
// stays in the group, so for each kind the other three members are stopped (the group shrinks
// to that kind's member, which leads) and started again (it leads their joins). Every kind's
// leader thus assigns the three other kinds. Overlaps under a leader not ours are reported, not
// failed.
func TestFourKinds(t *testing.T) {
	eachKindLeads(t, []string{"f1", "j1", "g1", "s1"}, []string{kindFranz, kindJava, strategyKind(), kindSarama})
}

// TestFiveKinds is TestFourKinds with ours on franz-go (fast re-join on) as a fifth kind,
// leading first.
func TestFiveKinds(t *testing.T) {
	eachKindLeads(t, []string{"k1", "f1", "j1", "g1", "s1"}, []string{kindOursKgo, kindFranz, kindJava, strategyKind(), kindSarama})
}

// eachKindLeads starts members (one of each kind, in order) and makes each lead in turn (see
// TestFourKinds); it fails if one of kinds led no rebalance.
func eachKindLeads(t *testing.T, members, kinds []string) {
	s := newScenario(t, scenarioConfig{})
	for _, id := range members {
		s.start(id)
		s.settle()
	}
	for _, leader := range members[1:] {
		for _, id := range members {
			if id != leader {
				s.stop(id)
			}
		}
		s.settle()
		for _, id := range members {
			if id != leader {
				s.start(id)
			}
		}
		s.settle()
	}
	r := s.finish()
	for _, kind := range kinds {
		if r.ledBy[kind] == 0 {
			t.Errorf("%s led no rebalance: %v", kind, r.ledBy)
		}
	}
}

// TestMixedRollingOursKgoLeads: ours on franz-go joins first and leads while Java, ours on
// sarama, kgo's own and a second ours-on-franz-go member join, then every member is restarted
// in turn (leadership moves when k1 restarts).
func TestMixedRollingOursKgoLeads(t *testing.T) {
	r := rolling(t, "k1", "j1", "g1", "f1", "k2")
	if r.ledBy[kindOursKgo] == 0 {
		t.Errorf("ours on franz-go led no rebalance: %v", r.ledBy)
	}
}

// TestMixedScaleOutInOursKgo: 1 → 6 members (ours on franz-go first, so it leads; Java, ours on
// sarama, kgo's own) and back to 1.
func TestMixedScaleOutInOursKgo(t *testing.T) {
	r := scale(t, "k1", "j1", "g1", "f1", "k2", "j2")
	if r.ledBy[kindOursKgo] == 0 {
		t.Errorf("ours on franz-go led no rebalance: %v", r.ledBy)
	}
}

// TestSaramaCrash: one of three sarama members crashes (connections reset, no LeaveGroup); the
// broker evicts it when its session times out and the others take its partitions; a new
// member joins. Records the crashed member processed but had not committed are consumed again:
// reported as duplicates.
func TestSaramaCrash(t *testing.T) {
	s := newScenario(t, scenarioConfig{})
	for _, id := range []string{"g1", "g2", "g3"} {
		s.start(id)
		s.settle()
	}
	s.crash("g2")
	s.settle()
	s.start("g4")
	s.settle()
	s.finish()
}

// TestSaramaMigrateFromEager: a running group of sarama members with eager sticky moves to
// our cooperative-sticky with two rolling deploys: first every member is replaced by one
// configured with ours then sticky (sarama runs the eager protocol while any configured
// strategy is eager-only; the group picks cooperative-sticky once every member offers it),
// then by one with ours alone (the cooperative protocol).
func TestSaramaMigrateFromEager(t *testing.T) {
	s := newScenario(t, scenarioConfig{})
	for _, id := range []string{"e1", "e2", "e3", "e4"} {
		s.start(id)
		s.settle()
	}
	for _, deploy := range [][2]string{{"e", "m"}, {"m", "g"}} {
		for i := 1; i <= 4; i++ {
			s.stop(fmt.Sprintf("%s%d", deploy[0], i))
			s.start(fmt.Sprintf("%s%d", deploy[1], i))
			s.settle()
		}
	}
	r := s.finish()
	if r.ledBy[strategyKind()] == 0 {
		t.Errorf("our assignor led no rebalance after the migration")
	}
}

// TestBrokenAssignorIsCaught runs the checks against a deliberately broken strategy that gives
// every partition to every member: on the real broker they must see the overlapping claims
// (attributed to the broken leader) and the duplicates.
func TestBrokenAssignorIsCaught(t *testing.T) {
	s := newScenario(t, scenarioConfig{})
	s.start("b1")
	s.start("b2")
	all := int(s.partitions) * len(s.topics)
	s.waitFor(30*time.Second, func() string {
		h := s.holdings()
		if h["b1"] != all || h["b2"] != all {
			return fmt.Sprintf("holdings %v, want %d each", h, all)
		}
		return ""
	})
	time.Sleep(time.Second) // both consume the same records
	r := s.finish()         // overlaps under a leader not ours are logged, not failed
	if len(r.overlaps) == 0 || r.duplicates == 0 {
		t.Fatalf("the checks missed a broken assignor: %d overlaps, %d duplicates", len(r.overlaps), r.duplicates)
	}
	for _, o := range r.overlaps {
		if !strings.HasPrefix(o.leader, kindBroken) {
			t.Errorf("overlap attributed to %q, want the broken leader: %s", o.leader, o)
		}
	}
}
