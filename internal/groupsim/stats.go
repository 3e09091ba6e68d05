package groupsim

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Stats are the costs of a stretch of simulation, for comparing eager and
// cooperative rebalancing on the same script.
type Stats struct {
	// Elapsed is the simulated time covered.
	Elapsed time.Duration
	// Rebalances counts completed join phases (generations).
	Rebalances int
	// Plans counts the leader's assignments; FollowUps those that withheld a
	// subscribed partition (or asked for a follow-up rebalance).
	Plans, FollowUps int
	// Moved counts partitions that started on a member other than the one
	// that last delivered them (by member name, across restarts).
	Moved int
	// Withheld sums, over plans, the partitions in the leader's metadata
	// that some member subscribes to but the plan gives to nobody.
	Withheld int
	// Revoked and Lost count partitions passed to the revoked and lost
	// callbacks.
	Revoked, Lost int
	// Evictions counts members the coordinator removed (session or
	// rebalance timeout); Fenced counts processes stopped by
	// FENCED_INSTANCE_ID; Rejected counts processes stopped by another
	// JoinGroup error (such as INCONSISTENT_GROUP_PROTOCOL).
	Evictions, Fenced, Rejected int
	// Unowned is partition-time without an owner: the sum over subscribed
	// partitions of the time no running member delivered them.
	Unowned time.Duration
	// EvictedOverlap is partition-time owned by two processes at once, one of
	// them evicted or fenced but not yet aware of it: the window the classic
	// protocol allows (not a failure).
	EvictedOverlap time.Duration
	// LongestPause is, per member name, the longest time a process that had
	// delivered something delivered nothing (the stop-the-world cost),
	// including a pause still under way.
	LongestPause map[string]time.Duration
}

// MaxPause returns the longest pause of any member, and the member.
func (st Stats) MaxPause() (string, time.Duration) {
	name, longest := "", time.Duration(0)
	for _, n := range slices.Sorted(maps.Keys(st.LongestPause)) {
		if d := st.LongestPause[n]; d > longest {
			name, longest = n, d
		}
	}
	return name, longest
}

// String renders the stats deterministically, for golden files.
func (st Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "elapsed %s: %d rebalances, %d plans (%d with withheld partitions)\n", fmtTime(st.Elapsed), st.Rebalances, st.Plans, st.FollowUps)
	fmt.Fprintf(&b, "partitions: %d moved, %d withheld, %d revoked, %d lost\n", st.Moved, st.Withheld, st.Revoked, st.Lost)
	fmt.Fprintf(&b, "members: %d evicted, %d fenced, %d rejected\n", st.Evictions, st.Fenced, st.Rejected)
	fmt.Fprintf(&b, "partition-time without owner: %s\n", fmtTime(st.Unowned))
	fmt.Fprintf(&b, "partition-time owned by an evicted member too: %s\n", fmtTime(st.EvictedOverlap))
	name, longest := st.MaxPause()
	if name == "" {
		b.WriteString("longest member pause: none\n")
		return b.String()
	}
	fmt.Fprintf(&b, "longest member pause: %s (%s)\n", fmtTime(longest), name)
	b.WriteString("pauses:")
	for _, n := range slices.Sorted(maps.Keys(st.LongestPause)) {
		if d := st.LongestPause[n]; d > 0 {
			fmt.Fprintf(&b, " %s %s", n, fmtTime(d))
		}
	}
	b.WriteString("\n")
	return b.String()
}

// accounting accumulates [Stats] as the simulation runs.
type accounting struct {
	since, last time.Duration
	unowned     int // subscribed partitions without owner, now
	overlap     int // partitions with two owners, now

	unownedTime, overlapTime time.Duration

	rebalances, plans, followUps, withheld, moved int
	revoked, lost, commits, evictions, fenced     int
	rejected                                      int
	pauses                                        map[string]time.Duration

	lastOwner map[partition]string // survives resets: who last delivered each partition
}

func (a *accounting) reset(now time.Duration) {
	lastOwner := a.lastOwner
	if lastOwner == nil {
		lastOwner = map[partition]string{}
	}
	unowned, overlap := a.unowned, a.overlap
	*a = accounting{since: now, last: now, unowned: unowned, overlap: overlap, pauses: map[string]time.Duration{}, lastOwner: lastOwner}
}

// advance accounts for the time up to t at the current counts.
func (a *accounting) advance(s *Sim, t time.Duration) {
	if t <= a.last {
		return
	}
	dt := t - a.last
	a.unownedTime += dt * time.Duration(a.unowned)
	a.overlapTime += dt * time.Duration(a.overlap)
	a.last = t
}

// observe recounts the partitions without owner after an event.
func (a *accounting) observe(s *Sim, overlap int) {
	delivered := map[partition]bool{}
	for _, p := range s.live {
		for k := range p.delivering {
			delivered[k] = true
		}
	}
	a.unowned = 0
	for _, k := range s.subscribedPartitions() {
		if !delivered[k] {
			a.unowned++
		}
	}
	a.overlap = overlap
}

func (a *accounting) started(s *Sim, p *process, k partition) {
	if prev, ok := a.lastOwner[k]; ok && prev != p.name {
		a.moved++
	}
	a.lastOwner[k] = p.name
}

func (a *accounting) pause(name string, d time.Duration) {
	if d > a.pauses[name] {
		a.pauses[name] = d
	}
}

// Stats returns the costs since the start or the last [Sim.ResetStats].
func (s *Sim) Stats() Stats {
	a := &s.acct
	a.advance(s, s.now)
	st := Stats{
		Elapsed: s.now - a.since, Rebalances: a.rebalances, Plans: a.plans, FollowUps: a.followUps,
		Moved: a.moved, Withheld: a.withheld, Revoked: a.revoked, Lost: a.lost,
		Evictions: a.evictions, Fenced: a.fenced, Rejected: a.rejected, Unowned: a.unownedTime, EvictedOverlap: a.overlapTime,
		LongestPause: maps.Clone(a.pauses),
	}
	for _, p := range s.live {
		if p.idle {
			if d := s.now - max(p.idleSince, a.since); d > st.LongestPause[p.name] {
				st.LongestPause[p.name] = d
			}
		}
	}
	return st
}

// ResetStats starts a new stretch of accounting now. Pauses under way are
// counted from now on.
func (s *Sim) ResetStats() {
	s.acct.advance(s, s.now)
	s.acct.reset(s.now)
	for _, p := range s.live {
		if p.idle {
			p.idleSince = s.now
		}
	}
}
