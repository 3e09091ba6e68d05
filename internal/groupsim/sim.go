package groupsim

import (
	"cmp"
	"container/heap"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/member"
)

// Config holds the simulated timings. The zero value of each field selects
// its default; times are simulated, never waited for.
type Config struct {
	// HeartbeatInterval is how often a stable member heartbeats. Default 3 s
	// (Java's heartbeat.interval.ms).
	HeartbeatInterval time.Duration
	// SessionTimeout is how long the coordinator keeps a member it has not
	// heard from. Default 45 s (Java's session.timeout.ms).
	SessionTimeout time.Duration
	// RebalanceTimeout is how long a rebalance waits for known members to
	// rejoin. Default 5 min (Java's max.poll.interval.ms).
	RebalanceTimeout time.Duration
	// Latency is the one-way network latency of every request and response,
	// so a JoinGroup or SyncGroup round trip costs 2×Latency plus waiting.
	// Default 5 ms.
	Latency time.Duration
	// Jitter adds to each message's latency a deterministic pseudo-random
	// delay in [0, Jitter), derived from the message's sequence number, so
	// answers sent together arrive in varying order. Default 0.
	Jitter time.Duration
	// MetadataDelay is how long after a topic change members see it in their
	// metadata (Java refreshes metadata periodically, metadata.max.age.ms).
	// Default 5 s.
	MetadataDelay time.Duration
}

func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.HeartbeatInterval, 3*time.Second)
	def(&c.SessionTimeout, 45*time.Second)
	def(&c.RebalanceTimeout, 5*time.Minute)
	def(&c.Latency, 5*time.Millisecond)
	def(&c.MetadataDelay, 5*time.Second)
	return c
}

// Factory makes a fresh assignor instance. Every simulated member gets its
// own instances, so member-side hooks may keep per-member state.
type Factory func() assignor.Assignor

// MemberConfig configures one simulated member.
type MemberConfig struct {
	// Topics is the subscription.
	Topics []string
	// Assignors are the names of the member's assignors, most preferred
	// first (Java's partition.assignment.strategy). The member follows the
	// cooperative protocol only if every one supports it (Java's rule).
	Assignors []string
	// Static makes the member static (KIP-345), with its name as instance ID.
	Static bool
	// DisableFastRejoin makes the member take no part in fast re-join, as
	// Java's, sarama's and kgo's own members, and this module's adapters
	// with their DisableFastRejoin, do: as leader it does not mark the
	// assignments of a plan that withholds partitions, and as a member it
	// ignores the mark, learning of the follow-up rebalance from its next
	// heartbeat. Default false: it marks and honours (see package member,
	// # Fast re-join).
	DisableFastRejoin bool
}

// Sim is a deterministic, in-memory consumer group: one coordinator, the
// members (each running a member.Machine) and the cluster's topics, over
// simulated time. A Sim is not safe for concurrent use.
type Sim struct {
	cfg       Config
	factories map[string]Factory

	now   time.Duration
	queue eventQueue
	seq   uint64

	topics   map[string]int32    // the cluster's metadata
	procs    map[string]*process // current incarnation by member name
	live     []*process          // every process still running, oldest first
	coord    *coordinator
	pending  int // restarts scheduled but not yet started
	inFlight int // JoinGroup, SyncGroup and LeaveGroup messages in flight

	planView    map[string]int32       // the leader's metadata in the last plan
	withheld    map[partition][]string // the last plan's withheld partitions and their claimants
	withheldGen int32                  // the generation of that plan
	missed      []partition            // see checkComplete
	stranded    []partition            // see checkComplete

	acct     accounting
	failures []string
	trace    *strings.Builder
}

// New returns an empty simulation with cfg's timings (defaults filled in)
// and the named assignor factories.
func New(cfg Config, factories map[string]Factory) *Sim {
	s := &Sim{
		cfg:       cfg.withDefaults(),
		factories: maps.Clone(factories),
		topics:    map[string]int32{},
		procs:     map[string]*process{},
	}
	s.coord = newCoordinator(s)
	s.acct.reset(0)
	return s
}

// Now returns the simulated time since the start.
func (s *Sim) Now() time.Duration { return s.now }

// Failures returns the invariant violations seen so far: two members of the
// current generation owning one partition, a settled group leaving a
// subscribed partition without owner, a plan an assignor could not make or
// that breaks [assignor.CheckPlan]. The result is a copy.
func (s *Sim) Failures() []string { return slices.Clone(s.failures) }

func (s *Sim) fail(format string, args ...any) {
	msg := fmt.Sprintf("%s: ", fmtTime(s.now)) + fmt.Sprintf(format, args...)
	if len(s.failures) < 100 {
		s.failures = append(s.failures, msg)
	}
	s.tracef("FAILURE %s", msg)
}

func (s *Sim) tracef(format string, args ...any) {
	if s.trace != nil {
		fmt.Fprintf(s.trace, "%s %s\n", fmtTime(s.now), fmt.Sprintf(format, args...))
	}
}

// at schedules fn at time t (not before now). Events at the same time run
// in the order they were scheduled.
func (s *Sim) at(t time.Duration, fn func()) {
	s.seq++
	heap.Push(&s.queue, &event{at: max(t, s.now), seq: s.seq, fn: fn})
}

// step runs the next event, accounting for the time that passes first. It
// reports false if no event is due by until.
func (s *Sim) step(until time.Duration) bool {
	if len(s.queue) == 0 || s.queue[0].at > until {
		return false
	}
	ev := heap.Pop(&s.queue).(*event)
	s.acct.advance(s, ev.at)
	s.now = ev.at
	ev.fn()
	s.observe()
	return true
}

// RunFor advances the simulation by d.
func (s *Sim) RunFor(d time.Duration) {
	until := s.now + d
	for s.step(until) {
	}
	s.acct.advance(s, until)
	s.now = until
}

// ErrNotSettled is returned by [Sim.Settle] when the group does not settle
// in time.
var ErrNotSettled = errors.New("groupsim: group did not settle")

// Settle runs until the group is settled, at most limit, and reports how
// long it took. Settled means: the coordinator is stable, every running
// member is a stable member of its current generation with fresh metadata,
// no join, sync, leave or restart is pending, and nobody is disconnected.
// A settled group must own every subscribed partition exactly once; if not,
// Settle records a failure.
func (s *Sim) Settle(limit time.Duration) (time.Duration, error) {
	start := s.now
	until := s.now + limit
	for !s.settled() {
		if !s.step(until) {
			s.acct.advance(s, until)
			s.now = until
			return s.now - start, fmt.Errorf("%w within %v: %s", ErrNotSettled, limit, s.unsettledReason())
		}
	}
	s.missed, s.stranded = s.checkComplete()
	return s.now - start, nil
}

func (s *Sim) settled() bool { return s.unsettledReason() == "" }

// unsettledReason says why the group is not settled, "" if it is.
func (s *Sim) unsettledReason() string {
	c := s.coord
	switch {
	case s.pending > 0:
		return "restarts pending"
	case s.inFlight > 0:
		return "requests in flight"
	case len(s.live) == 0:
		return ""
	case c.state != stable:
		return "coordinator " + c.state.String()
	}
	for _, id := range c.memberIDs() {
		if p := c.members[id].proc; !p.alive {
			return "member " + id + " is gone but not yet expired"
		}
	}
	for _, p := range s.live {
		m := p.machine
		switch {
		case p.disconnectedUntil > s.now:
			return p.name + " disconnected"
		case !p.current():
			return p.name + " not a member of the current generation"
		case m.FindingCoordinator():
			return p.name + " looking for the coordinator"
		case m.Phase() != member.Stable || m.Generation() != c.generation:
			return p.name + " " + m.Phase().String() + " in generation " + fmt.Sprint(m.Generation())
		case !p.fresh():
			return p.name + " has stale metadata"
		}
	}
	return ""
}

// checkComplete records a failure for every subscribed partition that the
// settled group does not own exactly once.
//
// One exception is Kafka's, not a failure: a static leader that restarts
// into a stable group skips the assignment (KIP-814) and, like Java's
// consumer, takes the metadata it sees as the one the group was assigned
// with, so a topic change made while it was down goes unnoticed until the
// next rebalance. Such partitions (of a topic whose metadata differs from
// the last plan's, while the leader skipped) are returned, not failed.
//
// The other is the wire's: a partition the current generation's plan
// withheld is handed over only when its claimant revokes it and rejoins
// (the released wire has no NEEDS_REJOIN), or a member honours the
// leader's fast re-join mark. If every claimant was a static member
// replaced by a new instance before it synced, and the members take no
// part in fast re-join, nobody rejoins and the partition is stranded until
// the next rebalance. Such partitions are returned too.
func (s *Sim) checkComplete() (missed, stranded []partition) {
	owners := s.owners()
	skipped := false
	if p := s.procs[s.Leader()]; p != nil {
		skipped = p.lastJoin.skip
	}
	for _, k := range s.subscribedPartitions() {
		n := len(owners[k])
		if n == 1 {
			continue
		}
		if n == 0 && skipped && s.planView[k.topic] != s.topics[k.topic] {
			missed = append(missed, k)
			continue
		}
		if n == 0 && s.strandedByReplacement(k) {
			stranded = append(stranded, k)
			continue
		}
		s.fail("settled group: %s has %d owners", k, n)
	}
	return missed, stranded
}

// strandedByReplacement reports whether the current generation's plan
// withheld k from claimants that are all gone from the group.
func (s *Sim) strandedByReplacement(k partition) bool {
	claimants, ok := s.withheld[k]
	if !ok || s.withheldGen != s.coord.generation || len(claimants) == 0 {
		return false
	}
	for _, id := range claimants {
		if _, in := s.coord.members[id]; in {
			return false
		}
	}
	return true
}

// subscribedPartitions returns the cluster's partitions of topics some
// running member subscribes to, sorted.
func (s *Sim) subscribedPartitions() []partition {
	subscribed := map[string]bool{}
	for _, p := range s.live {
		for _, t := range p.machine.Topics() {
			subscribed[t] = true
		}
	}
	var out []partition
	for _, t := range slices.Sorted(maps.Keys(subscribed)) {
		for i := range s.topics[t] {
			out = append(out, partition{t, i})
		}
	}
	return out
}

// owners maps each partition to the running processes that own it.
func (s *Sim) owners() map[partition][]*process {
	out := map[partition][]*process{}
	for _, p := range s.live {
		for _, tp := range p.machine.Owned() {
			for _, i := range tp.Partitions {
				k := partition{tp.Topic, i}
				out[k] = append(out[k], p)
			}
		}
	}
	return out
}

// observe runs after every event: it checks that no two members of the
// current generation own one partition, and updates the accounting.
func (s *Sim) observe() {
	overlap := 0
	owners := s.owners()
	for _, k := range slices.SortedFunc(maps.Keys(owners), comparePartition) {
		ps := owners[k]
		if len(ps) < 2 {
			continue
		}
		current := 0
		for _, p := range ps {
			if p.current() {
				current++
			}
		}
		if current >= 2 {
			names := make([]string, len(ps))
			for i, p := range ps {
				names[i] = p.id()
			}
			slices.Sort(names)
			s.fail("%s owned by %d members of generation %d: %s", k, current, s.coord.generation, strings.Join(names, " "))
		}
		if _, ok := s.topics[k.topic]; ok && k.id < s.topics[k.topic] {
			overlap++
		}
	}
	s.acct.observe(s, overlap)
}

// partition names one partition.
type partition struct {
	topic string
	id    int32
}

func (k partition) String() string { return fmt.Sprintf("%s/%d", k.topic, k.id) }

func comparePartition(a, b partition) int {
	return cmp.Or(cmp.Compare(a.topic, b.topic), cmp.Compare(a.id, b.id))
}

// latency is the one-way delay of the next message.
func (s *Sim) latency() time.Duration {
	if s.cfg.Jitter <= 0 {
		return s.cfg.Latency
	}
	// splitmix64 of the event sequence number: deterministic, well spread.
	z := s.seq + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return s.cfg.Latency + time.Duration(z%uint64(s.cfg.Jitter))
}

// fmtTime renders a simulated time as seconds with millisecond precision.
func fmtTime(d time.Duration) string { return fmt.Sprintf("%.3fs", d.Seconds()) }

type event struct {
	at  time.Duration
	seq uint64
	fn  func()
}

type eventQueue []*event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	return q[i].at < q[j].at || (q[i].at == q[j].at && q[i].seq < q[j].seq)
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(*event)) }
func (q *eventQueue) Pop() any {
	old := *q
	ev := old[len(old)-1]
	*q = old[:len(old)-1]
	return ev
}
