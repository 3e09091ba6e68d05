package cli

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/kgroup/assignor"
)

// Event kinds of a watch timeline.
const (
	eventState   = "state"   // the group's state changed (or the first poll)
	eventMembers = "members" // members joined or left
	eventStable  = "stable"  // a Stable assignment not seen before
	eventJump    = "jump"    // generations that came and went between two polls
	eventBack    = "back"    // the generation went down (group recreated, or inference fooled)
	eventLag     = "lag"     // lag per member
	eventError   = "error"   // a poll failed
)

// observation is one poll of a group, decoded: what watch tracks.
type observation struct {
	At    time.Time
	State string
	// Names maps each member's ID to its short name; Instances its
	// static instance ID, if any.
	Names     map[string]string
	Instances map[string]string
	// Stable: the broker showed the members' assignments.
	Stable bool
	// Generation is -1 when unknown; Exact for a KIP-848 epoch (else
	// inferred from the members' claims).
	Generation int32
	Exact      bool
	Assignment map[string][]assignor.TopicPartitions
	Unassigned []assignor.TopicPartitions
	Lag        map[string]int64
	Load       map[string]float64
}

// observe decodes v into an observation.
func observe(v groupView) observation {
	o := observation{At: v.snap.At, State: v.snap.State, Names: v.names, Instances: map[string]string{},
		Stable: v.stable, Generation: v.gen, Exact: !v.inferred, Lag: map[string]int64{}, Load: map[string]float64{}}
	for _, m := range v.members {
		if m.InstanceID != "" {
			o.Instances[m.ID] = m.InstanceID
		}
	}
	if v.stable {
		o.Assignment = v.assignment()
		o.Unassigned = v.unassigned()
		for _, m := range v.members {
			lag, _ := v.lag(m.Assigned)
			o.Lag[m.ID] = lag
			o.Load[m.ID] = v.load(m.Assigned)
		}
	}
	return o
}

// event is one line of a watch timeline; the -json output of watch is one
// event per line.
type event struct {
	At      time.Time `json:"at"`
	Elapsed float64   `json:"elapsed_seconds"`
	Kind    string    `json:"kind"`
	State   string    `json:"state,omitempty"`
	// Generation of a stable event (-1 unknown), or the generation after a
	// jump or back event.
	Generation int32 `json:"generation"`
	Exact      bool  `json:"exact,omitempty"`
	// Members: every member of a state or stable event (short names);
	// Joined and Left for a members event.
	Members []string `json:"members,omitempty"`
	Joined  []string `json:"joined,omitempty"`
	Left    []string `json:"left,omitempty"`
	// Stable events: what moved since the previous Stable assignment seen,
	// and the partitions missing from every assignment.
	First    bool             `json:"first,omitempty"` // the first assignment seen: no moves to tell
	Moves    []move           `json:"moves,omitempty"`
	Moved    int              `json:"moved"`
	Placed   int              `json:"placed,omitempty"`
	Withheld []topicPartition `json:"withheld,omitempty"`
	// Jump events: the generations not seen.
	Unseen []int32 `json:"unseen,omitempty"`
	// Lag events: per member short name.
	Lag  map[string]int64   `json:"lag,omitempty"`
	Load map[string]float64 `json:"load,omitempty"`
	Text string             `json:"text,omitempty"`

	names map[string]string // member ID → short name, for rendering moves
}

// tracker turns successive observations into a timeline and accounts
// for every generation between the first and the last one seen: each is
// either observed (a Stable assignment seen at it) or counted in a jump.
type tracker struct {
	start      time.Time
	polls      int
	stable     int
	rebalance  int // polls that found the group not Stable
	errors     int
	state      string
	names      map[string]string // last poll's members
	last       *observation      // last Stable observation with a known generation
	lastAny    *observation      // last Stable observation
	first      int32
	observed   []int32
	unseen     []int32
	unknownGen int
	backs      int
	lastLag    map[string]int64 // by short name, from the last Stable poll
}

func newTracker(start time.Time) *tracker { return &tracker{start: start, first: -1} }

func (t *tracker) ev(o observation, kind string) event {
	return event{At: o.At, Elapsed: o.At.Sub(t.start).Seconds(), Kind: kind, Generation: -1, names: o.Names}
}

// observe folds o into the timeline and returns the events it makes, in
// order. Pure.
func (t *tracker) observe(o observation) []event {
	var out []event
	t.polls++
	if o.State != t.state || t.polls == 1 {
		e := t.ev(o, eventState)
		e.State, e.Members = o.State, sortedNames(o.Names)
		out = append(out, e)
		t.state = o.State
	}
	if t.names != nil {
		var joined, left []string
		for id, n := range o.Names {
			if _, ok := t.names[id]; !ok {
				joined = append(joined, n)
			}
		}
		for id, n := range t.names {
			if _, ok := o.Names[id]; !ok {
				left = append(left, n)
			}
		}
		if len(joined)+len(left) > 0 {
			slices.Sort(joined)
			slices.Sort(left)
			e := t.ev(o, eventMembers)
			e.Joined, e.Left, e.Members = joined, left, sortedNames(o.Names)
			out = append(out, e)
		}
	}
	t.names = o.Names
	if !o.Stable {
		t.rebalance++
		return out
	}
	t.stable++
	out = append(out, t.stableEvents(o)...)
	if len(o.Lag) > 0 {
		e := t.ev(o, eventLag)
		e.Generation, e.Exact = o.Generation, o.Exact
		e.Lag, e.Load = map[string]int64{}, map[string]float64{}
		for id, l := range o.Lag {
			e.Lag[o.Names[id]] = l
			e.Load[o.Names[id]] = o.Load[id]
		}
		t.lastLag = e.Lag
		out = append(out, e)
	}
	return out
}

// stableEvents handles a Stable observation: a jump event for the
// generations not seen since the last one, then a stable event when the
// assignment is new.
func (t *tracker) stableEvents(o observation) []event {
	var out []event
	stable := func() event {
		e := t.ev(o, eventStable)
		e.Generation, e.Exact, e.State, e.Members = o.Generation, o.Exact, o.State, sortedNames(o.Names)
		var before map[string][]assignor.TopicPartitions
		var rename map[string]string
		if t.lastAny != nil {
			before, rename = t.lastAny.Assignment, renames(t.lastAny, &o)
			// Moves name members that have left too.
			e.names = maps.Clone(t.lastAny.Names)
			maps.Copy(e.names, o.Names)
		}
		e.First = t.lastAny == nil
		if before != nil {
			e.Moves = diff(before, o.Assignment, rename)
			e.Moved, e.Placed, _ = countMoves(e.Moves)
		}
		e.Withheld = jsonTPs(o.Unassigned)
		return e
	}
	defer func() { oc := o; t.lastAny = &oc }()
	if o.Generation < 0 {
		t.unknownGen++
		if t.lastAny == nil || !sameAssignment(t.lastAny.Assignment, o.Assignment) {
			out = append(out, stable())
		}
		return out
	}
	oc := o
	switch {
	case t.last == nil:
		t.first = o.Generation
		t.observed = append(t.observed, o.Generation)
		out = append(out, stable())
	case o.Generation == t.last.Generation:
		if !sameAssignment(t.lastAny.Assignment, o.Assignment) {
			e := stable()
			e.Text = "same generation: a static member's new incarnation took over its assignment (KIP-345), or the generation is inferred too low"
			out = append(out, e)
		}
	case o.Generation > t.last.Generation:
		if gap := o.Generation - t.last.Generation - 1; gap > 0 {
			j := t.ev(o, eventJump)
			j.Generation = o.Generation
			for g := t.last.Generation + 1; g < o.Generation; g++ {
				j.Unseen = append(j.Unseen, g)
			}
			j.Text = fmt.Sprintf("%d rebalance round(s) between two polls, not seen: generation(s) %s", gap, formatGens(j.Unseen))
			t.unseen = append(t.unseen, j.Unseen...)
			out = append(out, j)
		}
		t.observed = append(t.observed, o.Generation)
		out = append(out, stable())
	default:
		b := t.ev(o, eventBack)
		b.Generation = o.Generation
		b.Text = fmt.Sprintf("generation went down from %d to %d: the group was recreated, or no member of the last generation is left to show it; accounting restarts", t.last.Generation, o.Generation)
		t.backs++
		t.first = o.Generation
		t.observed = append(t.observed[:0], o.Generation)
		t.unseen = t.unseen[:0]
		out = append(out, b, stable())
	}
	t.last = &oc
	return out
}

// fail records a poll that failed.
func (t *tracker) fail(at time.Time, err error) event {
	t.errors++
	return event{At: at, Elapsed: at.Sub(t.start).Seconds(), Kind: eventError, Generation: -1, Text: err.Error()}
}

// watchSummary is the accounting at the end of a watch.
type watchSummary struct {
	Polls     int `json:"polls"`
	Stable    int `json:"stable_polls"`
	Rebalance int `json:"rebalancing_polls"`
	Errors    int `json:"failed_polls"`
	// First and Last are the first and last generation seen (-1: none);
	// every generation between them is in Observed or Unseen.
	First    int32   `json:"first_generation"`
	Last     int32   `json:"last_generation"`
	Observed []int32 `json:"observed"`
	Unseen   []int32 `json:"unseen"`
	// Accounted: len(Observed)+len(Unseen) == Last-First+1.
	Accounted    bool `json:"accounted"`
	UnknownPolls int  `json:"unknown_generation_polls"`
	// FinalLag is each member's lag at the last Stable poll.
	FinalLag map[string]int64 `json:"final_lag"`
	Backs    int              `json:"generation_went_down"`
	Cannot   []string         `json:"cannot_see"`
}

// summary returns the accounting so far.
func (t *tracker) summary() watchSummary {
	s := watchSummary{Polls: t.polls, Stable: t.stable, Rebalance: t.rebalance, Errors: t.errors, First: t.first, Last: -1,
		Observed: slices.Clone(t.observed), Unseen: slices.Clone(t.unseen), UnknownPolls: t.unknownGen, Backs: t.backs, Cannot: cannotSee(), FinalLag: t.lastLag}
	if s.Observed == nil {
		s.Observed = []int32{}
	}
	if s.Unseen == nil {
		s.Unseen = []int32{}
	}
	if t.last != nil {
		s.Last = t.last.Generation
	}
	s.Accounted = s.Last >= 0 && int32(len(s.Observed)+len(s.Unseen)) == s.Last-s.First+1
	return s
}

// cannotSee is what no poll from outside the group shows.
func cannotSee() []string {
	return []string{
		"the leader: DescribeGroups does not name the member that computed a classic group's assignment",
		"anything while the group is rebalancing: the broker returns subscriptions and assignments only while it is Stable",
		"the members' own revoke and assign timing: when each stopped and started its partitions",
		"a rebalance round that starts and ends between two polls (a fast re-join round is often shorter than the poll interval): it is counted as a jump, never observed",
	}
}

// renames maps the member IDs of before to those of after for static
// members (same instance ID, new member ID).
func renames(before, after *observation) map[string]string {
	byInstance := map[string]string{}
	for id, inst := range after.Instances {
		byInstance[inst] = id
	}
	out := map[string]string{}
	for id, inst := range before.Instances {
		if nid, ok := byInstance[inst]; ok && nid != id {
			out[id] = nid
		}
	}
	return out
}

func sameAssignment(a, b map[string][]assignor.TopicPartitions) bool {
	return maps.EqualFunc(a, b, func(x, y []assignor.TopicPartitions) bool { return assignor.EqualTopicPartitions(x, y) })
}

func sortedNames(names map[string]string) []string {
	out := slices.Collect(maps.Values(names))
	slices.Sort(out)
	return out
}

// formatGens renders generations compactly: "5", "5-7", "5, 9".
func formatGens(gs []int32) string {
	var out string
	for i := 0; i < len(gs); {
		j := i
		for j+1 < len(gs) && gs[j+1] == gs[j]+1 {
			j++
		}
		if out != "" {
			out += ", "
		}
		if j == i {
			out += fmt.Sprint(gs[i])
		} else {
			out += fmt.Sprintf("%d-%d", gs[i], gs[j])
		}
		i = j + 1
	}
	return out
}
