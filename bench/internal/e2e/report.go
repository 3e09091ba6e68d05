package e2e

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/kgroup/assignor"
)

// Overlap is two members holding one partition at once.
type Overlap struct {
	TP            TP
	First, Second Claim
	// Leaders are the names of the members whose plan for the generation in
	// which Second got the partition was the one applied (kfake may ask
	// several; identical plans all count), LeaderKinds their kinds, and
	// Protocol the group's protocol (the strategy that ran).
	Leaders, LeaderKinds []string
	Protocol             string
	// Evicted: First's member was not in that generation's plan, so the
	// coordinator had already removed it (a window Kafka has by design, which
	// no assignor can close). Where no plan of that generation is known (a
	// classic group on an external broker, whose SyncGroups the harness does
	// not see), First's member was fenced: it had another member ID than
	// First's at some point of the run.
	Evicted bool
}

func (o Overlap) String() string {
	return fmt.Sprintf("%s: %s (gen %d, %s–%s) and %s (gen %d planned by %v %v running %q, from %s) overlap for %v%s",
		o.TP, o.First.Member, o.First.Generation, o.First.Start.Format("15:04:05.000"), o.First.End.Format("15:04:05.000"),
		o.Second.Member, o.Second.Generation, o.LeaderKinds, o.Leaders, o.Protocol, o.Second.Start.Format("15:04:05.000"),
		o.First.End.Sub(o.Second.Start).Round(time.Millisecond), map[bool]string{true: " (first member already evicted)"}[o.Evicted])
}

// Report is what one script run measured.
type Report struct {
	Script, Kind string
	// Window is the measured part of the script, from the first stable
	// group to the start of the final shutdown.
	Window time.Duration
	// Rebalances is the number of generations a leader planned in the window.
	Rebalances int
	// Moved counts partitions assigned to a member other than the one that
	// last had them in an earlier plan (members are told apart by member
	// ID, static members by instance ID); Withheld sums, over plans, subscribed
	// partitions left unassigned.
	Moved, Withheld int
	// UnownedSeconds is partition-seconds in the window with no member
	// holding the partition.
	UnownedSeconds float64
	// PausedRecords counts records that waited on a partition while a member
	// held it but had not yet processed any record of it (from each claim
	// that began in the window to the member's first record of the
	// partition: the take-over, the offset fetch, a cancelled fetch): the
	// records produced before that first record and not processed before the
	// claim began.
	PausedRecords int
	// LongestPause maps each member to the longest time it processed nothing
	// between its first record and its departure (within the window).
	LongestPause map[string]time.Duration
	// Produced, Consumed (distinct) and Duplicates count records; Lost is
	// produced minus consumed; Uncommitted lists partitions whose final
	// committed offset is below their end offset.
	Produced, Consumed, Duplicates, Lost int
	Uncommitted                          []string
	// Overlaps lists every overlapping pair of claims.
	Overlaps []Overlap
	// LeadersByKind counts the window's plans by the leader's kind and the
	// protocol that ran ("ours/cooperative-sticky"); several kinds that sent
	// the same applied plan are joined with "|".
	LeadersByKind map[string]int
	// MultiLeader counts generations with several leader SyncGroups (kfake
	// names every member leader when the old leader is gone); Ambiguous
	// those where the applied plan could not be told apart.
	MultiLeader, Ambiguous int
	// UndecodedAssignments counts plan entries the harness could not decode.
	UndecodedAssignments int
	// Rejoined lists members that got a new member ID while running (they
	// lost their membership: session expiry, a fenced generation).
	Rejoined []string
	// ConsumerGroup: the coordinator described the group as a KIP-848
	// consumer-protocol group (its plans are then the broker's target
	// assignments, planned by "(broker)").
	ConsumerGroup bool
	// Plans describes every applied plan in the window, one line each.
	Plans []string
	// Settles lists, for each event of the window (a member joining,
	// leaving, restarting or crashing), the time from the event to the
	// moment the group reached the assignment it then kept: every partition
	// held by the member the newest plan names, every live member in it.
	Settles []time.Duration
}

// MedianSettle is the median of the window's settle times, and MaxSettle
// the largest; both are 0 for a window without events.
func (r Report) MedianSettle() time.Duration { return median(slices.Clone(r.Settles)) }

// MaxSettle is the largest settle time of the window.
func (r Report) MaxSettle() time.Duration {
	var m time.Duration
	for _, d := range r.Settles {
		m = max(m, d)
	}
	return m
}

// MedianPause is the median over members of their longest pause, and
// MaxPause the largest.
func (r Report) MedianPause() time.Duration {
	return median(slices.Collect(maps.Values(r.LongestPause)))
}

// MaxPause is the largest longest pause of any member.
func (r Report) MaxPause() time.Duration {
	var m time.Duration
	for _, d := range r.LongestPause {
		m = max(m, d)
	}
	return m
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// PlannedBy counts the window's plans for which led holds for one of the
// leaders whose plan was applied.
func (r Report) PlannedBy(led func(kind, protocol string) bool) int {
	n := 0
	for key, count := range r.LeadersByKind {
		kinds, protocol, _ := strings.Cut(key, "/")
		for _, k := range strings.Split(kinds, "|") {
			if led(k, protocol) {
				n += count
				break
			}
		}
	}
	return n
}

// OverlapsLedBy returns the overlaps, eviction windows excepted, of
// generations whose leader kind and protocol satisfy led.
func (r Report) OverlapsLedBy(led func(kind, protocol string) bool) []Overlap {
	var out []Overlap
	for _, o := range r.Overlaps {
		if o.Evicted {
			continue
		}
		if slices.ContainsFunc(o.LeaderKinds, func(k string) bool { return led(k, o.Protocol) }) {
			out = append(out, o)
		}
	}
	return out
}

func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%s: window %v, %d rebalances (leaders %v; multi-leader %d, ambiguous %d), moved %d, withheld %d, unowned %.1f partition-s, paused records %d, pause median %v max %v, settle median %v max %v over %d events, produced %d consumed %d duplicates %d lost %d, overlaps %d",
		r.Script, r.Kind, r.Window.Round(time.Millisecond), r.Rebalances, r.LeadersByKind, r.MultiLeader, r.Ambiguous, r.Moved, r.Withheld, r.UnownedSeconds, r.PausedRecords,
		r.MedianPause().Round(time.Millisecond), r.MaxPause().Round(time.Millisecond),
		r.MedianSettle().Round(time.Millisecond), r.MaxSettle().Round(time.Millisecond), len(r.Settles), r.Produced, r.Consumed, r.Duplicates, r.Lost, len(r.Overlaps))
	if len(r.Uncommitted) > 0 {
		fmt.Fprintf(&b, ", uncommitted %v", r.Uncommitted)
	}
	if len(r.Rejoined) > 0 {
		fmt.Fprintf(&b, ", rejoined with a new member ID: %v", r.Rejoined)
	}
	for _, p := range r.Plans {
		b.WriteString("\n  plan: " + p)
	}
	for _, o := range r.Overlaps {
		b.WriteString("\n  overlap: " + o.String())
	}
	return b.String()
}

// report computes the metrics over [from, to]; kindOf maps member names to
// kinds and instanceOf to static instance IDs (a static member keeps its
// identity across restarts, so its partitions do not count as moved);
// subscribed lists every partition the group consumes; produced maps
// partitions to their end offsets; committed to their committed offsets.
func (r *recorder) report(from, to time.Time, kindOf, instanceOf map[string]string, subscribed []TP, produced, committed map[TP]int64) Report {
	r.mu.Lock()
	defer r.mu.Unlock()
	rs := reportScope{r: r, from: from, to: to, kindOf: kindOf, instanceOf: instanceOf, subscribed: subscribed, applied: r.applied()}
	rep := Report{Window: to.Sub(from), LongestPause: map[string]time.Duration{}, LeadersByKind: map[string]int{}}
	rs.plans(&rep)
	rs.claims(&rep)
	rs.pauses(&rep)
	rs.paused(&rep)
	rs.rejoined(&rep)
	rs.records(&rep, produced, committed)
	return rep
}

// reportScope is what every step of a report reads: the recorder (its lock
// held), the window, who the members are, the subscribed partitions and the
// plan applied in each generation.
type reportScope struct {
	r                  *recorder
	from, to           time.Time
	kindOf, instanceOf map[string]string
	subscribed         []TP
	applied            map[int32]appliedPlan
}

// kindsOf returns the distinct kinds of the named members, sorted.
func (rs reportScope) kindsOf(names []string) []string {
	var ks []string
	for _, n := range names {
		k := rs.kindOf[n]
		if n == brokerLeader {
			k = n
		}
		if !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

// identity names who holds a partition across member IDs: a static member's
// instance, or else the member ID.
func (rs reportScope) identity(memberID string) string {
	if inst := rs.instanceOf[rs.r.nameOf(memberID)]; inst != "" {
		return "instance " + inst
	}
	return memberID
}

// plans counts the window's rebalances, moves and withheld partitions, who
// led them, and describes each applied plan.
func (rs reportScope) plans(rep *Report) {
	lastOwner := map[TP]string{}
	for _, gen := range slices.Sorted(maps.Keys(rs.applied)) {
		ap := rs.applied[gen]
		s := ap.sync
		inWindow := !s.At.Before(rs.from) && !s.At.After(rs.to)
		assigned := map[TP]bool{}
		for id, tps := range s.Plan {
			for tp := range tpsOf(tps) {
				assigned[tp] = true
				if prev, ok := lastOwner[tp]; ok && prev != rs.identity(id) && inWindow {
					rep.Moved++
				}
				lastOwner[tp] = rs.identity(id)
			}
		}
		if !inWindow {
			continue
		}
		rep.Rebalances++
		rep.LeadersByKind[strings.Join(rs.kindsOf(ap.leaders), "|")+"/"+s.Protocol]++
		if len(rs.r.syncs[gen]) > 1 {
			rep.MultiLeader++
		}
		if ap.ambiguous {
			rep.Ambiguous++
		}
		rep.UndecodedAssignments += len(s.Undecoded)
		withheld := 0
		for _, tp := range rs.subscribed {
			if !assigned[tp] {
				withheld++
			}
		}
		rep.Withheld += withheld
		var counts []string
		for _, id := range slices.Sorted(maps.Keys(s.Plan)) {
			counts = append(counts, fmt.Sprintf("%s:%d", rs.r.nameOf(id), assignor.CountPartitions(s.Plan[id])))
		}
		rep.Plans = append(rep.Plans, fmt.Sprintf("gen %d %s by %v (%d candidates): %s withheld %d",
			gen, s.Protocol, ap.leaders, len(rs.r.syncs[gen]), strings.Join(counts, " "), withheld))
	}
}

// claims sums the partition-seconds no member held and lists every pair of
// claims that overlap, sorted by partition and start.
func (rs reportScope) claims(rep *Report) {
	byTP := map[TP][]*Claim{}
	for _, c := range rs.r.claims {
		byTP[c.TP] = append(byTP[c.TP], c)
	}
	for _, tp := range rs.subscribed {
		cs := byTP[tp]
		slices.SortFunc(cs, func(a, b *Claim) int { return a.Start.Compare(b.Start) })
		rep.UnownedSeconds += (rs.to.Sub(rs.from) - rs.covered(cs)).Seconds()
		rep.Overlaps = append(rep.Overlaps, rs.overlaps(tp, cs)...)
	}
	slices.SortFunc(rep.Overlaps, func(a, b Overlap) int {
		return cmp.Or(cmp.Compare(a.TP.Topic, b.TP.Topic), cmp.Compare(a.TP.Partition, b.TP.Partition), a.Second.Start.Compare(b.Second.Start))
	})
}

// end is when claim c ends, or the window's end while it is open.
func (rs reportScope) end(c *Claim) time.Time {
	if c.End.IsZero() {
		return rs.to
	}
	return c.End
}

// covered is how much of the window the claims cs, sorted by start, cover.
func (rs reportScope) covered(cs []*Claim) time.Duration {
	covered, cursor := time.Duration(0), rs.from
	for _, c := range cs {
		s, e := maxTime(c.Start, cursor), minTime(rs.end(c), rs.to)
		if e.After(s) {
			covered += e.Sub(s)
			cursor = e
		}
	}
	return covered
}

// overlaps returns every pair of claims of tp, sorted by start, held by two
// members at once, each with who planned the generation of the second.
func (rs reportScope) overlaps(tp TP, cs []*Claim) []Overlap {
	var out []Overlap
	for i, a := range cs {
		for _, b := range cs[i+1:] {
			if b.Member == a.Member || !b.Start.Before(rs.end(a)) {
				continue
			}
			o := Overlap{TP: tp, First: *a, Second: *b}
			if ap, ok := rs.applied[b.Generation]; ok {
				o.Leaders = ap.leaders
				o.LeaderKinds = rs.kindsOf(ap.leaders)
				o.Protocol = ap.sync.Protocol
				_, inPlan := ap.sync.Plan[a.MemberID]
				o.Evicted = a.MemberID != "" && !inPlan
			} else {
				o.Evicted = rs.fenced(a.Member, a.MemberID)
			}
			out = append(out, o)
		}
	}
	return out
}

// fenced reports whether member name had a member ID other than id.
func (rs reportScope) fenced(name, id string) bool {
	for other, n := range rs.r.memberIDs {
		if n == name && other != id {
			return true
		}
	}
	return false
}

// pauses finds, per member, the longest gap between records it processed,
// clipped to the window.
func (rs reportScope) pauses(rep *Report) {
	for name, times := range rs.r.processed {
		ts := slices.Clone(times)
		slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
		var longest time.Duration
		for i := 1; i < len(ts); i++ {
			s, e := maxTime(ts[i-1], rs.from), minTime(ts[i], rs.to)
			if e.After(s) {
				longest = max(longest, e.Sub(s))
			}
		}
		rep.LongestPause[name] = longest
	}
}

// paused counts the window's paused records (see Report.PausedRecords).
func (rs reportScope) paused(rep *Report) {
	for _, c := range rs.r.claims {
		if c.Start.Before(rs.from) || c.Start.After(rs.to) {
			continue
		}
		first := minTime(rs.end(c), rs.to)
		times := rs.r.byMemberTP[c.Member][c.TP] // in processing order
		if i, _ := slices.BinarySearchFunc(times, c.Start, time.Time.Compare); i < len(times) && times[i].Before(first) {
			first = times[i]
		}
		for off, at := range rs.r.producedAt[c.TP] {
			if !at.Before(first) {
				continue
			}
			if f, ok := rs.r.firstAt[c.TP][off]; ok && f.Before(c.Start) {
				continue
			}
			rep.PausedRecords++
		}
	}
}

// rejoined lists the members seen with more than one member ID.
func (rs reportScope) rejoined(rep *Report) {
	ids := map[string]int{}
	for _, name := range rs.r.memberIDs {
		ids[name]++
	}
	for _, name := range slices.Sorted(maps.Keys(ids)) {
		if ids[name] > 1 {
			rep.Rejoined = append(rep.Rejoined, name)
		}
	}
}

// records counts records produced, consumed, duplicated and lost, and the
// partitions committed short of their end.
func (rs reportScope) records(rep *Report, produced, committed map[TP]int64) {
	for _, tp := range rs.subscribed {
		end := produced[tp]
		rep.Produced += int(end)
		for off, n := range rs.r.consumed[tp] {
			if off < end {
				rep.Consumed++
			}
			rep.Duplicates += n - 1
		}
		if committed[tp] < end {
			rep.Uncommitted = append(rep.Uncommitted, fmt.Sprintf("%s committed %d of %d", tp, committed[tp], end))
		}
	}
	rep.Lost = rep.Produced - rep.Consumed
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
