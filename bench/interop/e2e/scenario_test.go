package e2e

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/IBM/sarama"

	harness "github.com/kgroup/assignor/bench/internal/e2e"
)

// scenario runs one consumer group (Java, sarama and franz-go members, see start) on the shared
// broker, with records produced throughout, and checks it when it ends.
type scenario struct {
	t          *testing.T
	name       string
	b          *broker
	l          *ledger
	group      string
	topics     []string
	partitions int32

	// Every member's session timeout (3 s unless the scenario says), heartbeat interval
	// (300 ms) and rebalance timeout (10 s; Java's max.poll.interval.ms).
	session, heartbeat, rebalance time.Duration

	prod        *producer
	java        *javaHost
	goMembers   map[string]*goMember    // id -> running member
	franz       map[string]*franzMember // id -> running member
	javaMembers map[string]*javaMember  // id -> running member
	instances   map[string]string       // id -> group.instance.id for static members
	incarnation map[string]int
	crashed     []*goMember
}

// runs numbers the scenarios of this process.
var runs atomic.Int32

type scenarioConfig struct {
	session time.Duration // member session timeout; 3 s when zero
}

func newScenario(t *testing.T, cfg scenarioConfig) *scenario {
	t.Helper()
	b := needBroker(t)
	// Unique per run, so that go test -count=N starts every scenario on fresh topics and group.
	name := fmt.Sprintf("%s-%d", strings.NewReplacer("/", "-", " ", "-").Replace(t.Name()), runs.Add(1))
	s := &scenario{
		t: t, name: t.Name(), b: b, l: newLedger(),
		group:       "g-" + name,
		topics:      []string{name + "-a", name + "-b"},
		partitions:  6,
		session:     cmp.Or(cfg.session, 3*time.Second),
		heartbeat:   300 * time.Millisecond,
		rebalance:   10 * time.Second,
		goMembers:   make(map[string]*goMember),
		franz:       make(map[string]*franzMember),
		javaMembers: make(map[string]*javaMember),
		instances:   make(map[string]string),
		incarnation: make(map[string]int),
	}
	if err := b.createTopics(s.partitions, s.topics...); err != nil {
		t.Fatal(err)
	}
	prod, err := startProducer(s.l, b.addr, s.topics, s.partitions, 40*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	s.prod = prod
	t.Cleanup(s.cleanup)
	return s
}

// cleanup stops whatever is still running (after a failure; finish stops everything first).
func (s *scenario) cleanup() {
	s.prod.stop()
	for _, id := range slices.Sorted(maps.Keys(s.goMembers)) {
		_ = s.goMembers[id].stop()
	}
	for _, id := range slices.Sorted(maps.Keys(s.franz)) {
		s.franz[id].stop()
	}
	for _, m := range s.crashed {
		_ = m.stop()
	}
	s.crashed = nil
	if s.java != nil {
		if err := s.java.close(); err != nil {
			s.t.Log(err)
		}
	}
}

func (s *scenario) memberName(id string) string {
	s.incarnation[id]++
	if n := s.incarnation[id]; n > 1 {
		return fmt.Sprintf("%s#%d", id, n)
	}
	return id
}

// static makes the member id static (group.instance.id) from its next start on.
func (s *scenario) static(id string) { s.instances[id] = "inst-" + id }

// start starts member id, whose first letter says its kind: "g" a sarama member with the
// strategy under test (ours by default), "s" a sarama member with sarama's built-in
// cooperative-sticky, "e" one with sarama's eager sticky, "m" one with ours then sarama's eager
// sticky (the first deploy of a migration: sarama then runs the eager protocol), "b" one with a
// deliberately broken strategy (everythingToEveryone), "f" a franz-go member with
// kgo.CooperativeStickyBalancer, "k" a franz-go member with ours through adapters/kgoassignor (fast
// re-join on), "j" a Java consumer with CooperativeStickyAssignor.
func (s *scenario) start(id string) {
	s.t.Helper()
	name := s.memberName(id)
	cfg := goMemberConfig{
		name: name, instance: s.instances[id], group: s.group, topics: s.topics, bootstrap: s.b.addr,
		session: s.session, heartbeat: s.heartbeat, rebalance: s.rebalance,
	}
	switch id[0] {
	case 'g', 's', 'e', 'm', 'b':
		kind, strategies, err := saramaKind(id[0])
		if err != nil {
			s.t.Fatal(err)
		}
		cfg.kind, cfg.strategies, cfg.crash = kind, strategies, harness.NewCrashDialer(5*time.Second)
		m, err := startGoMember(s.l, cfg)
		if err != nil {
			s.t.Fatal(err)
		}
		s.goMembers[id] = m
	case 'f', 'k':
		if id[0] == 'k' {
			cfg.kind = kindOursKgo
		}
		m, err := startFranzMember(s.l, cfg)
		if err != nil {
			s.t.Fatal(err)
		}
		s.franz[id] = m
	case 'j':
		if s.java == nil {
			h, err := startJavaHost(context.Background(), s.l, s.t.TempDir())
			if err != nil {
				s.t.Fatal(err)
			}
			s.java = h
		}
		m := &javaMember{
			id: id, name: name, instance: s.instances[id], group: s.group, topics: s.topics, bootstrap: s.b.addr,
			session: s.session, heartbeat: s.heartbeat, maxPoll: s.rebalance,
		}
		if err := s.java.start(*m); err != nil {
			s.t.Fatal(err)
		}
		s.javaMembers[id] = m
	default:
		s.t.Fatalf("member id %q: want g… (ours), s… (sarama), e… (eager sticky), m… (ours+sticky), f… (franz-go), k… (ours on franz-go) or j… (Java)", id)
	}
}

// stop stops member id; a dynamic member leaves the group, a static one does not.
func (s *scenario) stop(id string) {
	s.t.Helper()
	switch {
	case s.goMembers[id] != nil:
		if err := s.goMembers[id].stop(); err != nil {
			s.l.problem("stopping %s: %v", id, err)
		}
		delete(s.goMembers, id)
	case s.franz[id] != nil:
		s.franz[id].stop()
		delete(s.franz, id)
	case s.javaMembers[id] != nil:
		if err := s.java.stop(id); err != nil {
			s.t.Fatal(err)
		}
		delete(s.javaMembers, id)
	default:
		s.t.Fatalf("member %s is not running", id)
	}
}

// live returns the ledger names of the running members.
func (s *scenario) live() []string {
	var names []string
	for _, m := range s.goMembers {
		names = append(names, m.name)
	}
	for _, m := range s.javaMembers {
		names = append(names, m.name)
	}
	for _, m := range s.franz {
		names = append(names, m.name)
	}
	slices.Sort(names)
	return names
}

// settle waits until the group is stable: every partition held by exactly one running member,
// the counts balanced (they differ by at most one), and no claim change for quiet.
func (s *scenario) settle() {
	s.t.Helper()
	const quiet = 700 * time.Millisecond
	deadline := time.Now().Add(45 * time.Second)
	for {
		live := s.live()
		owners, last := s.l.snapshot()
		why := s.unsettled(live, owners)
		if why == "" && time.Since(last) >= quiet {
			s.recordJavaLeaders()
			return
		}
		if time.Now().After(deadline) {
			s.l.mu.Lock()
			problems := strings.Join(s.l.problems, "\n")
			s.l.mu.Unlock()
			s.t.Fatalf("group did not settle in 45 s with members %v: %s\nproblems so far:\n%s", live, why, problems)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (s *scenario) unsettled(live []string, owners map[topicPartition][]string) string {
	count := make(map[string]int)
	for _, topic := range s.topics {
		for p := range s.partitions {
			tp := topicPartition{topic, p}
			o := owners[tp]
			if len(o) != 1 {
				return fmt.Sprintf("%s owned by %v", tp, o)
			}
			if !slices.Contains(live, o[0]) {
				return fmt.Sprintf("%s owned by %s, which is not running", tp, o[0])
			}
			count[o[0]]++
		}
	}
	lo, hi := int(s.partitions)*len(s.topics), 0
	for _, m := range live {
		lo, hi = min(lo, count[m]), max(hi, count[m])
	}
	if hi-lo > 1 {
		return fmt.Sprintf("unbalanced: %v", count)
	}
	return ""
}

// holdings returns how many partitions each running member holds.
func (s *scenario) holdings() map[string]int {
	owners, _ := s.l.snapshot()
	count := make(map[string]int)
	for _, o := range owners {
		for _, m := range o {
			count[m]++
		}
	}
	return count
}

// finish stops the producer, waits until every record was consumed and committed, stops every
// member, and checks the scenario: nothing lost, everything committed, no overlapping claims in
// a generation our assignor led (an overlap under a Java leader is reported, not failed), and
// no problem reported by a member.
func (s *scenario) finish() report {
	s.t.Helper()
	s.prod.stop()
	deadline := time.Now().Add(30 * time.Second)
	for s.l.missing() > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	// Let the last commits land: wait until the committed offsets reach the end.
	var committed map[topicPartition]int64
	for {
		var err error
		committed, err = s.b.committed(s.group, s.topics, s.partitions)
		if err == nil && s.allCommitted(committed) {
			break
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, id := range slices.Sorted(maps.Keys(s.goMembers)) {
		s.stop(id)
	}
	for _, id := range slices.Sorted(maps.Keys(s.franz)) {
		s.stop(id)
	}
	for _, id := range slices.Sorted(maps.Keys(s.javaMembers)) {
		s.stop(id)
	}
	for _, m := range s.crashed {
		_ = m.stop()
	}
	s.crashed = nil
	end := time.Now()
	s.recordJavaLeaders()
	if s.java != nil {
		if err := s.java.close(); err != nil {
			s.t.Error(err)
		}
		s.java = nil
	}
	if c, err := s.b.committed(s.group, s.topics, s.partitions); err == nil {
		committed = c
	} else {
		s.t.Errorf("reading committed offsets: %v", err)
	}
	r := s.l.analyse(s.name, end, committed)
	addReport(r)
	s.t.Log(r.String())
	if r.produced == 0 {
		s.t.Error("nothing was produced")
	}
	if r.lost > 0 {
		s.t.Errorf("%d of %d produced records were never consumed", r.lost, r.produced)
	}
	if r.uncommitted > 0 {
		s.t.Errorf("%d partitions not committed to their end", r.uncommitted)
	}
	for _, o := range r.overlaps {
		if o.ours {
			s.t.Errorf("overlapping claims in a rebalance our assignor led: %s", o)
		} else {
			s.t.Logf("overlapping claims under a leader not ours (reported, not failed): %s", o)
		}
	}
	for _, n := range r.notes {
		s.t.Logf("note: %s", n)
	}
	for _, p := range r.problems {
		s.t.Errorf("problem: %s", p)
	}
	return r
}

func (s *scenario) allCommitted(committed map[topicPartition]int64) bool {
	s.l.mu.Lock()
	defer s.l.mu.Unlock()
	for tp, offsets := range s.l.produced {
		if len(offsets) > 0 && committed[tp] <= slices.Max(offsets) {
			return false
		}
	}
	return true
}

// currentName returns the ledger name of member id's current incarnation.
func (s *scenario) currentName(id string) string {
	if m := s.goMembers[id]; m != nil {
		return m.name
	}
	if m := s.javaMembers[id]; m != nil {
		return m.name
	}
	if m := s.franz[id]; m != nil {
		return m.name
	}
	s.t.Fatalf("member %s is not running", id)
	return ""
}

// waitFor polls cond until it returns "" and fails the test with its last answer after d.
func (s *scenario) waitFor(d time.Duration, cond func() string) {
	s.t.Helper()
	deadline := time.Now().Add(d)
	for {
		why := cond()
		if why == "" {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("after %s: %s", d, why)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// saramaKind returns the ledger kind and the strategies of a sarama member whose id starts
// with letter (see start).
func saramaKind(letter byte) (string, []kindStrategy, error) {
	eager := kindStrategy{kindSaramaEager, sarama.NewBalanceStrategySticky()}
	switch letter {
	case 'b':
		return kindBroken, []kindStrategy{{kindBroken, everythingToEveryone{}}}, nil
	case 's':
		return kindSarama, []kindStrategy{{kindSarama, sarama.NewBalanceStrategyCooperativeSticky()}}, nil
	case 'e':
		return kindSaramaEager, []kindStrategy{eager}, nil
	}
	ours, err := newStrategy()
	if err != nil {
		return "", nil, err
	}
	if letter == 'm' {
		return strategyKind() + "+sticky", []kindStrategy{{strategyKind(), ours}, eager}, nil
	}
	return strategyKind(), []kindStrategy{{strategyKind(), ours}}, nil
}

// crash makes sarama member id crash: its connections are reset, new ones refused, and it
// processes nothing more; its claims end now. The group notices when its session times out.
// The member stays in the scenario's list (stopped at the end) but not among the live ones.
func (s *scenario) crash(id string) {
	s.t.Helper()
	m := s.goMembers[id]
	if m == nil {
		s.t.Fatalf("crash: %s is not a running sarama member", id)
	}
	m.crash()
	delete(s.goMembers, id)
	s.crashed = append(s.crashed, m)
}

// recordJavaLeaders tells the ledger which generations Java members led so far.
func (s *scenario) recordJavaLeaders() {
	if s.java == nil {
		return
	}
	if err := s.java.recordLeaders(); err != nil {
		s.t.Errorf("reading which generations Java led: %v", err)
	}
}
