package e2e

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kgroup/assignor"
)

// TP names one partition.
type TP struct {
	Topic     string
	Partition int32
}

func (tp TP) String() string { return fmt.Sprintf("%s/%d", tp.Topic, tp.Partition) }

// Claim is one interval in which a member held a partition: from the moment
// its handler started (sarama ConsumeClaim, franz-go OnPartitionsAssigned) to
// the moment it stopped (the handler returned, OnPartitionsRevoked or Lost
// ran, or the member crashed). End is zero while the claim is open.
type Claim struct {
	Member     string // the member's name in the script
	MemberID   string // the coordinator's member ID
	TP         TP
	Generation int32 // the generation in which the member got the partition
	Start, End time.Time
}

// Sync is one leader's SyncGroup request as the broker saw it: the plan of a
// generation.
type Sync struct {
	At         time.Time
	Generation int32
	Leader     string // member ID
	Protocol   string
	Plan       map[string][]assignor.TopicPartitions // member ID → assigned partitions, canonical
	Undecoded  []string                              // member IDs whose assignment bytes did not decode
}

// Recorder collects what the members and the broker did; safe for
// concurrent use.
type Recorder struct {
	mu        sync.Mutex
	claims    []*Claim
	open      map[string]map[TP]*Claim // member → open claims
	consumed  map[TP]map[int64]int     // offset → times consumed
	processed map[string][]time.Time   // member → times it processed a record
	syncs     map[int32][]Sync         // generation → every leader SyncGroup for it
	lastSync  Sync
	memberIDs map[string]string // member ID → member name
	// received maps a generation to what each sarama member (by name) was
	// given in it, from OnAssignment.
	received map[int32]map[string][]assignor.TopicPartitions
}

func newRecorder() *Recorder {
	return &Recorder{
		open:      map[string]map[TP]*Claim{},
		consumed:  map[TP]map[int64]int{},
		processed: map[string][]time.Time{},
		syncs:     map[int32][]Sync{},
		memberIDs: map[string]string{},
		received:  map[int32]map[string][]assignor.TopicPartitions{},
	}
}

// receive records the canonical set of partitions member name was given in
// generation gen.
func (r *Recorder) receive(name string, gen int32, tps []assignor.TopicPartitions) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.received[gen] == nil {
		r.received[gen] = map[string][]assignor.TopicPartitions{}
	}
	r.received[gen][name] = tps
}

func (r *Recorder) seenMemberID(name, id string) {
	if id == "" {
		return
	}
	r.mu.Lock()
	r.memberIDs[id] = name
	r.mu.Unlock()
}

func (r *Recorder) claimStart(name, memberID string, tp TP, gen int32, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.open[name] == nil {
		r.open[name] = map[TP]*Claim{}
	}
	if c := r.open[name][tp]; c != nil { // a second start without an end: close the first
		c.End = at
	}
	c := &Claim{Member: name, MemberID: memberID, TP: tp, Generation: gen, Start: at}
	r.open[name][tp] = c
	r.claims = append(r.claims, c)
	if memberID != "" {
		r.memberIDs[memberID] = name
	}
}

func (r *Recorder) claimEnd(name string, tp TP, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c := r.open[name][tp]; c != nil {
		c.End = at
		delete(r.open[name], tp)
	}
}

// endAll closes every open claim of a member (a crash, or the member's exit).
func (r *Recorder) endAll(name string, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for tp, c := range r.open[name] {
		c.End = at
		delete(r.open[name], tp)
	}
}

func (r *Recorder) consume(name string, tp TP, offset int64, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.consumed[tp] == nil {
		r.consumed[tp] = map[int64]int{}
	}
	r.consumed[tp][offset]++
	r.processed[name] = append(r.processed[name], at)
}

func (r *Recorder) sync(s Sync) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.syncs[s.Generation] = append(r.syncs[s.Generation], s)
	r.lastSync = s
}

// applied resolves which leader's plan the coordinator used for each
// generation. kfake tells every member it is the leader when the old leader
// is gone, and uses one of their plans; the applied plan is the one that
// agrees with what the members received (sarama members' OnAssignment) and
// with every claim that began in that generation. It returns, per
// generation, the applied sync, the names of every leader that sent that same
// plan, and whether the choice was ambiguous (no candidate agreed, or
// candidates that disagree with each other all agreed with the evidence).
func (r *Recorder) applied() map[int32]appliedPlan {
	starts := map[int32][]*Claim{}
	for _, c := range r.claims {
		starts[c.Generation] = append(starts[c.Generation], c)
	}
	out := map[int32]appliedPlan{}
	for gen := range r.syncs {
		out[gen] = r.appliedGen(gen, starts[gen])
	}
	return out
}

// appliedGen resolves one generation (see applied); starts are the claims
// that began in it. The generation must have a sync.
func (r *Recorder) appliedGen(gen int32, starts []*Claim) appliedPlan {
	cands := r.syncs[gen]
	var agree []Sync
	for _, c := range cands {
		if r.agrees(c, r.received[gen], starts) {
			agree = append(agree, c)
		}
	}
	ap := appliedPlan{}
	if len(agree) == 0 {
		agree, ap.ambiguous = cands, true
	}
	ap.sync = agree[0]
	for _, c := range agree {
		if maps.EqualFunc(c.Plan, ap.sync.Plan, assignor.EqualTopicPartitions) {
			ap.leaders = append(ap.leaders, r.nameOf(c.Leader))
		} else {
			ap.ambiguous = true
		}
	}
	return ap
}

// latest resolves the newest generation (see applied), or returns false
// before the first plan. Call with r.mu held.
func (r *Recorder) latest() (appliedPlan, bool) {
	gen := r.lastSync.Generation
	if len(r.syncs[gen]) == 0 {
		return appliedPlan{}, false
	}
	var starts []*Claim
	for _, c := range r.claims {
		if c.Generation == gen {
			starts = append(starts, c)
		}
	}
	return r.appliedGen(gen, starts), true
}

// latestPlan returns, by member name, the applied plan of the newest
// generation, or false before the first plan.
func (r *Recorder) latestPlan() (map[string][]assignor.TopicPartitions, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ap, ok := r.latest()
	if !ok {
		return nil, false
	}
	out := map[string][]assignor.TopicPartitions{}
	for id, tps := range ap.sync.Plan {
		out[r.nameOf(id)] = tps
	}
	return out, true
}

type appliedPlan struct {
	sync      Sync
	leaders   []string
	ambiguous bool
}

func (r *Recorder) nameOf(memberID string) string {
	if n, ok := r.memberIDs[memberID]; ok {
		return n
	}
	return "?" + memberID
}

// agrees reports whether plan s is the one the coordinator applied, as far
// as the evidence shows: every member that reported what it received
// (received, by name) was given exactly that, and every claim that started
// in the generation (starts) is in the plan.
func (r *Recorder) agrees(s Sync, received map[string][]assignor.TopicPartitions, starts []*Claim) bool {
	byName := make(map[string][]assignor.TopicPartitions, len(s.Plan))
	for id, tps := range s.Plan {
		byName[r.nameOf(id)] = tps
	}
	for name, tps := range received {
		planned, ok := byName[name]
		if !ok || !assignor.EqualTopicPartitions(planned, tps) {
			return false
		}
	}
	for _, c := range starts {
		if !holds(byName[c.Member], c.TP) {
			return false
		}
	}
	return true
}

// holds reports whether the canonical set tps holds tp. O(log n).
func holds(tps []assignor.TopicPartitions, tp TP) bool {
	i, ok := slices.BinarySearchFunc(tps, tp.Topic, func(e assignor.TopicPartitions, topic string) int { return cmp.Compare(e.Topic, topic) })
	if !ok {
		return false
	}
	_, ok = slices.BinarySearch(tps[i].Partitions, tp.Partition)
	return ok
}

// tpsOf returns the partitions of tps one by one.
func tpsOf(tps []assignor.TopicPartitions) iter.Seq[TP] {
	return func(yield func(TP) bool) {
		for _, tp := range tps {
			for _, p := range tp.Partitions {
				if !yield(TP{tp.Topic, p}) {
					return
				}
			}
		}
	}
}

// held reports, for each member name, the partitions it holds now.
func (r *Recorder) held() map[string][]TP {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string][]TP{}
	for name, open := range r.open {
		for tp := range open {
			out[name] = append(out[name], tp)
		}
	}
	return out
}

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
	// no assignor can close).
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
	// Plans describes every applied plan in the window, one line each.
	Plans []string
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
	fmt.Fprintf(&b, "%s/%s: window %v, %d rebalances (leaders %v; multi-leader %d, ambiguous %d), moved %d, withheld %d, unowned %.1f partition-s, pause median %v max %v, produced %d consumed %d duplicates %d lost %d, overlaps %d",
		r.Script, r.Kind, r.Window.Round(time.Millisecond), r.Rebalances, r.LeadersByKind, r.MultiLeader, r.Ambiguous, r.Moved, r.Withheld, r.UnownedSeconds,
		r.MedianPause().Round(time.Millisecond), r.MaxPause().Round(time.Millisecond), r.Produced, r.Consumed, r.Duplicates, r.Lost, len(r.Overlaps))
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
// identity across restarts, so its partitions do not count as moved); subscribed lists every partition the group consumes; produced maps
// partitions to their end offsets; committed to their committed offsets.
func (r *Recorder) report(from, to time.Time, kindOf, instanceOf map[string]string, subscribed []TP, produced, committed map[TP]int64) Report {
	r.mu.Lock()
	defer r.mu.Unlock()
	rep := Report{Window: to.Sub(from), LongestPause: map[string]time.Duration{}, LeadersByKind: map[string]int{}}
	applied := r.applied()
	kindsOf := func(names []string) []string {
		var ks []string
		for _, n := range names {
			if k := kindOf[n]; !slices.Contains(ks, k) {
				ks = append(ks, k)
			}
		}
		slices.Sort(ks)
		return ks
	}

	// Plans: rebalances, moves, withheld.
	identity := func(memberID string) string {
		if inst := instanceOf[r.nameOf(memberID)]; inst != "" {
			return "instance " + inst
		}
		return memberID
	}
	lastOwner := map[TP]string{}
	for _, gen := range slices.Sorted(maps.Keys(applied)) {
		ap := applied[gen]
		s := ap.sync
		inWindow := !s.At.Before(from) && !s.At.After(to)
		assigned := map[TP]bool{}
		for id, tps := range s.Plan {
			for tp := range tpsOf(tps) {
				assigned[tp] = true
				if prev, ok := lastOwner[tp]; ok && prev != identity(id) && inWindow {
					rep.Moved++
				}
				lastOwner[tp] = identity(id)
			}
		}
		if !inWindow {
			continue
		}
		rep.Rebalances++
		rep.LeadersByKind[strings.Join(kindsOf(ap.leaders), "|")+"/"+s.Protocol]++
		if len(r.syncs[gen]) > 1 {
			rep.MultiLeader++
		}
		if ap.ambiguous {
			rep.Ambiguous++
		}
		rep.UndecodedAssignments += len(s.Undecoded)
		var counts []string
		withheld := 0
		for _, tp := range subscribed {
			if !assigned[tp] {
				withheld++
			}
		}
		for _, id := range slices.Sorted(maps.Keys(s.Plan)) {
			counts = append(counts, fmt.Sprintf("%s:%d", r.nameOf(id), assignor.CountPartitions(s.Plan[id])))
		}
		rep.Plans = append(rep.Plans, fmt.Sprintf("gen %d %s by %v (%d candidates): %s withheld %d",
			gen, s.Protocol, ap.leaders, len(r.syncs[gen]), strings.Join(counts, " "), withheld))
		for _, tp := range subscribed {
			if !assigned[tp] {
				rep.Withheld++
			}
		}
	}

	// Claims: unowned time and overlaps.
	byTP := map[TP][]*Claim{}
	for _, c := range r.claims {
		byTP[c.TP] = append(byTP[c.TP], c)
	}
	endOf := func(c *Claim) time.Time {
		if c.End.IsZero() {
			return to
		}
		return c.End
	}
	for _, tp := range subscribed {
		cs := byTP[tp]
		slices.SortFunc(cs, func(a, b *Claim) int { return a.Start.Compare(b.Start) })
		covered, cursor := time.Duration(0), from
		for _, c := range cs {
			s, e := maxTime(c.Start, cursor), minTime(endOf(c), to)
			if e.After(s) {
				covered += e.Sub(s)
				cursor = e
			}
		}
		rep.UnownedSeconds += (to.Sub(from) - covered).Seconds()
		for i, a := range cs {
			for _, b := range cs[i+1:] {
				if b.Member == a.Member || !b.Start.Before(endOf(a)) {
					continue
				}
				o := Overlap{TP: tp, First: *a, Second: *b}
				if ap, ok := applied[b.Generation]; ok {
					o.Leaders = ap.leaders
					o.LeaderKinds = kindsOf(ap.leaders)
					o.Protocol = ap.sync.Protocol
					_, inPlan := ap.sync.Plan[a.MemberID]
					o.Evicted = a.MemberID != "" && !inPlan
				}
				rep.Overlaps = append(rep.Overlaps, o)
			}
		}
	}

	// Pauses: per member, the longest gap between records it processed,
	// clipped to the window.
	for name, times := range r.processed {
		ts := slices.Clone(times)
		slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
		var longest time.Duration
		for i := 1; i < len(ts); i++ {
			s, e := maxTime(ts[i-1], from), minTime(ts[i], to)
			if e.After(s) {
				longest = max(longest, e.Sub(s))
			}
		}
		rep.LongestPause[name] = longest
	}

	ids := map[string]int{}
	for _, name := range r.memberIDs {
		ids[name]++
	}
	for _, name := range slices.Sorted(maps.Keys(ids)) {
		if ids[name] > 1 {
			rep.Rejoined = append(rep.Rejoined, name)
		}
	}

	// Records.
	for _, tp := range subscribed {
		end := produced[tp]
		rep.Produced += int(end)
		seen := r.consumed[tp]
		for off, n := range seen {
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
	slices.SortFunc(rep.Overlaps, func(a, b Overlap) int {
		return cmp.Or(cmp.Compare(a.TP.Topic, b.TP.Topic), cmp.Compare(a.TP.Partition, b.TP.Partition), a.Second.Start.Compare(b.Second.Start))
	})
	return rep
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
