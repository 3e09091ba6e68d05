package e2e

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

type topicPartition struct {
	topic     string
	partition int32
}

func (tp topicPartition) String() string { return fmt.Sprintf("%s/%d", tp.topic, tp.partition) }

// Member kinds, as reported.
const (
	kindJava   = "java"     // Apache Kafka's Java consumer, CooperativeStickyAssignor
	kindOurs   = "ours"     // sarama with our cooperative-sticky through adapters/saramaassignor
	kindSarama = "sarama"   // sarama with its built-in cooperative-sticky
	kindFranz  = "franz-go" // franz-go kgo with kgo.CooperativeStickyBalancer
	// kindOursKgo is franz-go with our cooperative-sticky through adapters/kgoassignor (fast
	// re-join on).
	kindOursKgo = "ours-kgo"

	kindSaramaEager = "sarama-sticky" // sarama with its eager sticky
	kindBroken      = "broken"        // sarama with everythingToEveryone, to see the checks fail
)

// claim is one member's ownership of one partition: from the moment its consumer may process
// the partition (Java: onPartitionsAssigned is called; sarama: ConsumerClaim starts) to the
// moment it has stopped and committed (Java: onPartitionsRevoked or onPartitionsLost returned;
// sarama: ConsumeClaim returned). A zero to means it is still open.
type claim struct {
	member     string
	kind       string
	tp         topicPartition
	generation int32
	from, to   time.Time
}

// ledger records what every member of one scenario claimed and consumed, what the producer
// wrote, and which generations our assignor led. It is safe for concurrent use.
type ledger struct {
	mu       sync.Mutex
	start    time.Time
	claims   []claim
	open     map[string]map[topicPartition]int // member -> partition -> index in claims
	kinds    map[string]string
	produced map[topicPartition][]int64
	consumed map[topicPartition]map[int64]int // offset -> deliveries
	// lastConsumed and longestPause follow each member's record processing: the longest time
	// between two records it processed, from its first record to its last.
	lastConsumed map[string]time.Time
	longestPause map[string]time.Duration
	generations  map[int32]time.Time // first time a member reported the generation
	leaders      map[int32]leader    // generation -> leader, where a Go member saw itself lead
	problems     []string
	notes        []string // expected events worth reporting
}

func newLedger() *ledger {
	return &ledger{
		start:        time.Now(),
		open:         make(map[string]map[topicPartition]int),
		kinds:        make(map[string]string),
		produced:     make(map[topicPartition][]int64),
		consumed:     make(map[topicPartition]map[int64]int),
		lastConsumed: make(map[string]time.Time),
		longestPause: make(map[string]time.Duration),
		generations:  make(map[int32]time.Time),
		leaders:      make(map[int32]leader),
	}
}

func (l *ledger) member(id, kind string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.kinds[id] = kind
}

func (l *ledger) seenGeneration(gen int32, at time.Time) {
	if gen < 0 {
		return
	}
	if first, ok := l.generations[gen]; !ok || at.Before(first) {
		l.generations[gen] = at
	}
}

func (l *ledger) claimStart(member string, tp topicPartition, gen int32, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seenGeneration(gen, at)
	if l.open[member] == nil {
		l.open[member] = make(map[topicPartition]int)
	}
	if i, ok := l.open[member][tp]; ok {
		l.problems = append(l.problems, fmt.Sprintf("%s claimed %s twice (generations %d and %d)", member, tp, l.claims[i].generation, gen))
		return
	}
	l.open[member][tp] = len(l.claims)
	l.claims = append(l.claims, claim{member: member, kind: l.kinds[member], tp: tp, generation: gen, from: at})
}

func (l *ledger) claimEnd(member string, tp topicPartition, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	i, ok := l.open[member][tp]
	if !ok {
		l.problems = append(l.problems, fmt.Sprintf("%s released %s, which it did not hold", member, tp))
		return
	}
	l.claims[i].to = at
	delete(l.open[member], tp)
}

// memberGone ends every claim member still holds.
func (l *ledger) memberGone(member string, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, i := range l.open[member] {
		l.claims[i].to = at
	}
	delete(l.open, member)
}

// leader is the member that led a generation and the kind of the strategy it led with (a
// member configured with several strategies leads with the one the group chose).
type leader struct{ member, kind string }

func (l *ledger) ledBy(gen int32, member, kind string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.leaders[gen] = leader{member, kind}
}

func (l *ledger) consume(member string, tp topicPartition, gen int32, offsets []int64, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seenGeneration(gen, at)
	if _, ok := l.open[member][tp]; !ok {
		l.problems = append(l.problems, fmt.Sprintf("%s consumed %s offsets %v without a claim", member, tp, offsets))
	}
	m := l.consumed[tp]
	if m == nil {
		m = make(map[int64]int)
		l.consumed[tp] = m
	}
	for _, o := range offsets {
		m[o]++
	}
	if last, ok := l.lastConsumed[member]; ok {
		l.longestPause[member] = max(l.longestPause[member], at.Sub(last))
	}
	l.lastConsumed[member] = at
}

func (l *ledger) produce(tp topicPartition, offset int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.produced[tp] = append(l.produced[tp], offset)
}

func (l *ledger) problem(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.problems = append(l.problems, fmt.Sprintf(format, args...))
}

func (l *ledger) note(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.notes = append(l.notes, fmt.Sprintf(format, args...))
}

// snapshot is a consistent copy of what settles a group: the open claims per partition and
// the time of the latest claim change.
func (l *ledger) snapshot() (owners map[topicPartition][]string, lastChange time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	owners = make(map[topicPartition][]string)
	for member, tps := range l.open {
		for tp := range tps {
			owners[tp] = append(owners[tp], member)
		}
	}
	for _, c := range l.claims {
		lastChange = maxTime(lastChange, maxTime(c.from, c.to))
	}
	return owners, lastChange
}

func (l *ledger) generationCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.generations)
}

func (l *ledger) maxGeneration() int32 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Max(append(slices.Collect(maps.Keys(l.generations)), -1))
}

// missing returns how many produced records have not been consumed yet.
func (l *ledger) missing() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for tp, offsets := range l.produced {
		for _, o := range offsets {
			if l.consumed[tp][o] == 0 {
				n++
			}
		}
	}
	return n
}

// leaderKind returns the kind of generation gen's leader, if a member was seen to lead it (Go
// members see themselves lead, Java's coordinator logs it), else "unseen" (a franz-go member's
// generation when it left before its next join, or a sarama leader whose SyncGroup failed).
// Call with l.mu held.
func (l *ledger) leaderKind(gen int32) string {
	if ld, ok := l.leaders[gen]; ok {
		return ld.kind
	}
	return "unseen"
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// overlap is two members holding one partition at the same time.
type overlap struct {
	first, second claim
	leader        string // the leader's kind, and name where known
	ours          bool
}

func (o overlap) String() string {
	return fmt.Sprintf("%s held by %s (gen %d, %s..%s) and %s (gen %d, from %s); generation %d led by %s",
		o.first.tp, o.first.member, o.first.generation, o.first.from.Format("15:04:05.000"), o.first.to.Format("15:04:05.000"),
		o.second.member, o.second.generation, o.second.from.Format("15:04:05.000"), o.second.generation, o.leader)
}

// report is what one scenario measured.
type report struct {
	scenario        string
	produced        int
	lost            int            // produced, never consumed
	uncommitted     int            // partitions whose committed offset is below the end
	duplicates      int            // deliveries beyond the first
	rebalances      int            // generations seen after the first
	ledBy           map[string]int // generations led, by leader kind
	moves           int            // claims that began after another member's claim on the partition
	unownedSeconds  float64
	pauses          map[string]time.Duration
	overlaps        []overlap
	problems        []string
	notes           []string
	duration        time.Duration
	firstGeneration int32
}

// medianPause returns the median and the maximum of the members' longest pauses.
func (r report) medianPause() (median, longest time.Duration) {
	ps := slices.Sorted(maps.Values(r.pauses))
	if len(ps) == 0 {
		return 0, 0
	}
	return ps[len(ps)/2], ps[len(ps)-1]
}

func (r report) String() string {
	med, longest := r.medianPause()
	var led []string
	for _, k := range slices.Sorted(maps.Keys(r.ledBy)) {
		led = append(led, fmt.Sprintf("%s %d", k, r.ledBy[k]))
	}
	return fmt.Sprintf("%s: %.1fs produced=%d lost=%d uncommitted=%d duplicates=%d rebalances=%d (led by %s) moves=%d unowned=%.2f partition-s pause median=%.2fs max=%.2fs overlaps=%d",
		r.scenario, r.duration.Seconds(), r.produced, r.lost, r.uncommitted, r.duplicates, r.rebalances, strings.Join(led, ", "),
		r.moves, r.unownedSeconds, med.Seconds(), longest.Seconds(), len(r.overlaps))
}

// analyse closes the ledger at end and computes the report. committed holds the group's
// committed offsets read from the broker after every member stopped.
func (l *ledger) analyse(name string, end time.Time, committed map[topicPartition]int64) report {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := report{scenario: name, duration: end.Sub(l.start), pauses: maps.Clone(l.longestPause), problems: slices.Clone(l.problems), notes: slices.Clone(l.notes)}

	for tp, offsets := range l.produced {
		r.produced += len(offsets)
		next := int64(0)
		for _, o := range offsets {
			if l.consumed[tp][o] == 0 {
				r.lost++
			}
			next = max(next, o+1)
		}
		if committed[tp] < next {
			r.uncommitted++
			r.problems = append(r.problems, fmt.Sprintf("%s committed offset %d, produced up to %d", tp, committed[tp], next))
		}
	}
	for _, offsets := range l.consumed {
		for _, n := range offsets {
			r.duplicates += n - 1
		}
	}

	gens := slices.Sorted(maps.Keys(l.generations))
	if len(gens) > 0 {
		r.firstGeneration = gens[0]
		r.rebalances = len(gens) - 1
	}
	r.ledBy = make(map[string]int)
	for _, g := range gens {
		r.ledBy[l.leaderKind(g)]++
	}

	byTP := make(map[topicPartition][]claim)
	for _, c := range l.claims {
		if c.to.IsZero() {
			c.to = end
		}
		byTP[c.tp] = append(byTP[c.tp], c)
	}
	for _, tp := range slices.SortedFunc(maps.Keys(byTP), func(a, b topicPartition) int {
		return cmp.Or(strings.Compare(a.topic, b.topic), cmp.Compare(a.partition, b.partition))
	}) {
		cs := byTP[tp]
		slices.SortFunc(cs, func(a, b claim) int { return a.from.Compare(b.from) })
		covered := cs[0].to
		for i, c := range cs {
			if i > 0 {
				if c.member != cs[i-1].member {
					r.moves++
				}
				if c.from.After(covered) {
					r.unownedSeconds += c.from.Sub(covered).Seconds()
				}
				covered = maxTime(covered, c.to)
			}
			for _, prev := range cs[:i] {
				if prev.member != c.member && prev.to.After(c.from) {
					o := overlap{first: prev, second: c, leader: l.leaderKind(c.generation)}
					if ld, ok := l.leaders[c.generation]; ok {
						o.leader += " (" + ld.member + ")"
					}
					o.ours = isOurs(l.leaderKind(c.generation))
					r.overlaps = append(r.overlaps, o)
				}
			}
		}
		if end.After(covered) {
			r.unownedSeconds += end.Sub(covered).Seconds()
		}
	}
	return r
}

// isOurs reports whether a leader kind is our assignor, on sarama or on franz-go.
func isOurs(kind string) bool { return kind == kindOurs || kind == kindOursKgo }
