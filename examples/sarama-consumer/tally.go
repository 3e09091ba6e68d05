package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kgroup/assignor/adapters/saramaassignor"
)

// stalled is how long a partition must go without a record for the time to
// count as unconsumed. While a partition is consumed, its records (50 a
// second, fetched in batches) rarely come more than 0.15 s apart on kfake,
// so a gap of a quarter of a second means nobody was consuming it: it had
// no owner, or its owner was stopped, still warming up, or could not fetch.
const stalled = 250 * time.Millisecond

// tally is what the members hold and consume, for the lines printed once a
// second, the script's waits and the summary. Its methods are safe for
// concurrent use: sarama runs each claim's handler in its own goroutine.
type tally struct {
	began time.Time
	log   io.Writer

	mu         sync.Mutex
	order      []string // members in the order they joined
	members    map[string]*memberTally
	partitions map[int32]*partitionTally
	changed    time.Time // when a partition last changed hands or was first consumed by its holder
	plans      int       // plans the leader made
	seen       offsets   // records consumed
	duplicates int       // records consumed again
	overlaps   int       // times a member took a partition another member held
}

// memberTally is one member's share of the tally.
type memberTally struct {
	inGroup bool
	held    map[int32]bool
	records int
	second  int           // records in the current second
	joined  time.Time     // when it joined, or when measuring began
	last    time.Time     // its last record; zero before its first
	waited  time.Duration // from joined to its first record
	stall   time.Duration // longest time between two of its records
}

// partitionTally is one partition's share of the tally.
type partitionTally struct {
	holder     string        // the member whose handler runs for it, "" for none
	ready      bool          // its holder has consumed a record since taking it
	taken      int           // how often a member took it (and paid the warm-up)
	last       time.Time     // its last record, whoever consumed it; zero before its first
	longest    time.Duration // longest time between two of its records
	unconsumed time.Duration // total of those times that reached [stalled]
	stalledNow bool          // a gap of [stalled] ended in the current second
}

func newTally(log io.Writer) *tally {
	return &tally{
		began: time.Now(), log: log,
		members: map[string]*memberTally{}, partitions: map[int32]*partitionTally{}, seen: offsets{},
	}
}

// event prints what happens, with the time since the start.
func (t *tally) event(what string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.eventLocked(what)
}

func (t *tally) eventLocked(what string) {
	fmt.Fprintf(t.log, "%6.1fs  %s\n", time.Since(t.began).Seconds(), what)
}

func (t *tally) partition(p int32) *partitionTally {
	if t.partitions[p] == nil {
		t.partitions[p] = &partitionTally{}
	}
	return t.partitions[p]
}

func (t *tally) join(member string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.order = append(t.order, member)
	t.members[member] = &memberTally{inGroup: true, held: map[int32]bool{}, joined: time.Now()}
}

func (t *tally) leave(member string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.members[member].inGroup = false
}

// take records that member's handler for partition p started: the member
// holds it, and pays the warm-up before its first record.
func (t *tally) take(member string, p int32) {
	t.mu.Lock()
	defer t.mu.Unlock()
	pt := t.partition(p)
	if pt.holder != "" && pt.holder != member {
		// Never seen with this module's assignors while both members were
		// in the group; a member evicted without knowing it can still be
		// running its handlers (see docs/sarama.md).
		t.overlaps++
		t.eventLocked(fmt.Sprintf("note: %s takes partition %d while %s still holds it", member, p, pt.holder))
	}
	pt.holder, pt.ready = member, false
	pt.taken++
	t.members[member].held[p] = true
	t.changed = time.Now()
}

// release records that member's handler for partition p returned.
func (t *tally) release(member string, p int32) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if pt := t.partition(p); pt.holder == member {
		pt.holder = ""
	}
	delete(t.members[member].held, p)
	t.changed = time.Now()
}

// consumed records one record of partition p consumed by member.
func (t *tally) consumed(member string, p int32, offset int64) {
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.seen.add(p, offset) {
		t.duplicates++
	}

	m := t.members[member]
	if m.last.IsZero() {
		m.waited = now.Sub(m.joined)
	} else {
		m.stall = max(m.stall, now.Sub(m.last))
	}
	m.last = now
	m.records++
	m.second++

	pt := t.partition(p)
	if !pt.last.IsZero() {
		gap := now.Sub(pt.last)
		pt.longest = max(pt.longest, gap)
		if gap >= stalled {
			pt.unconsumed += gap
			pt.stalledNow = true
		}
	}
	pt.last = now
	if !pt.ready {
		pt.ready = true
		t.changed = now
	}
}

// planned records one plan of the leader; it is the strategy's
// Config.OnRebalance, so only the leader's strategy calls it.
func (t *tally) planned(s saramaassignor.Stats) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.plans++
	what := fmt.Sprintf("leader's plan for a group of %d", s.Members)
	if s.FollowUp {
		what += fmt.Sprintf(": %d partitions to be revoked by their owners first, then a second round", s.Withheld)
	}
	t.eventLocked(what)
}

// measureFromNow forgets the figures gathered so far (plans, takes,
// unconsumed times, stalls), so that the summary covers only what
// follows: the group's first start costs the same whatever the protocol.
func (t *tally) measureFromNow() {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	t.plans = 0
	for _, pt := range t.partitions {
		pt.taken, pt.longest, pt.unconsumed = 0, 0, 0
	}
	for _, m := range t.members {
		m.joined, m.waited, m.stall = now, 0, 0
	}
}

// printEverySecond prints, once a second, how many records each member
// consumed in that second and the partitions it holds, then the partitions
// that went unconsumed for [stalled] or more in that second. It returns a
// function that stops it (safe to call twice).
//
//	10s  member-1  153 [0 2 6]      member-2  153 [1 3 7]      member-3    0 []           unconsumed: 4 5
//
// (cooperative, between the two rounds of member-3's join: member-1 and
// member-2 have revoked partitions 4 and 5, member-3 waits for them).
func (t *tally) printEverySecond() (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				t.printSecond()
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done); <-stopped }) }
}

func (t *tally) printSecond() {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	var b strings.Builder
	fmt.Fprintf(&b, "%6.0fs ", now.Sub(t.began).Seconds())
	for _, name := range t.order {
		if m := t.members[name]; m.inGroup || m.second > 0 {
			fmt.Fprintf(&b, " %s %4d %-12s", name, m.second, fmt.Sprint(slices.Sorted(maps.Keys(m.held))))
			m.second = 0
		}
	}
	var idle []string
	for _, p := range slices.Sorted(maps.Keys(t.partitions)) {
		pt := t.partitions[p]
		if pt.stalledNow || now.Sub(pt.last) >= stalled {
			idle = append(idle, fmt.Sprint(p))
		}
		pt.stalledNow = false
	}
	if len(idle) > 0 {
		fmt.Fprintf(&b, " unconsumed: %s", strings.Join(idle, " "))
	}
	fmt.Fprintln(t.log, strings.TrimRight(b.String(), " "))
}

// waitSettled waits until every partition is held and consumed by its
// holder (its warm-up over), by as many members as there are partitions to
// go round, and nothing has changed for half a second.
func (t *tally) waitSettled(ctx context.Context, members, partitions int) bool {
	return poll(ctx, func() bool {
		t.mu.Lock()
		defer t.mu.Unlock()
		holders := map[string]bool{}
		for _, pt := range t.partitions {
			if pt.holder != "" && pt.ready {
				holders[pt.holder] = true
			} else {
				return false
			}
		}
		return len(t.partitions) == partitions && len(holders) >= min(members, partitions) &&
			time.Since(t.changed) > 500*time.Millisecond
	})
}

// waitConsumed waits until every record of produced has been consumed.
func (t *tally) waitConsumed(ctx context.Context, produced offsets) bool {
	return poll(ctx, func() bool {
		t.mu.Lock()
		defer t.mu.Unlock()
		return t.missing(produced) == 0
	})
}

// missing counts the records of produced nobody consumed; t.mu is held.
func (t *tally) missing(produced offsets) int {
	n := 0
	for p, offs := range produced {
		for off := range offs {
			if !t.seen[p][off] {
				n++
			}
		}
	}
	return n
}

func poll(ctx context.Context, done func() bool) bool {
	for !done() {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(50 * time.Millisecond):
		}
	}
	return true
}
