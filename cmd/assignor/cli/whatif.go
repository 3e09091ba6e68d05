package cli

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/kgroup/assignor"
)

// maxRounds bounds the rebalances whatif simulates until a cooperative
// plan settles (no follow-up round); an assignor that still asks for one
// then is reported as not settling.
const maxRounds = 8

// weightScale turns a measured rate (records/s) into a weight: weights
// are integers (milli-records/s here), so that slow partitions still
// differ.
const weightScale = 1000

// whatIf is what `whatif` reports: the plan an assignor would make from
// the group's live state, round by round until it settles, against the
// live assignment. It is also the -json output of whatif.
type whatIf struct {
	Group string    `json:"group"`
	At    time.Time `json:"at"`
	// Assignor is the key asked for, Name its protocol name.
	Assignor string `json:"assignor"`
	Name     string `json:"protocol"`
	// Current is the protocol the group runs now.
	Current    string `json:"current_protocol"`
	Generation int32  `json:"generation"`
	// Rounds is how many rebalances the plan takes to settle: 1, or more
	// when a cooperative assignor withholds partitions for follow-up
	// rounds. Settled is false when it still asks for one after maxRounds.
	Rounds  int  `json:"rounds"`
	Settled bool `json:"settled"`
	// Moves are the partitions whose holder the settled plan changes;
	// Moved counts those that leave a holder, Placed those nobody held.
	Moves  []move `json:"moves"`
	Moved  int    `json:"moved"`
	Placed int    `json:"placed"`
	// Withheld counts the partitions the first round assigns to nobody
	// (a cooperative plan revokes them first, then hands them over);
	// Returned those of them that a later round hands back to the member
	// that held them (revoked and paused, yet not moved).
	Withheld int             `json:"withheld"`
	Returned int             `json:"withheld_returned"`
	Members  []whatIfMember  `json:"members"`
	Before   loadSummary     `json:"before"`
	After    loadSummary     `json:"after"`
	Plans    []assignor.Plan `json:"-"`
	// Weights says where the loads the assignor saw came from.
	Weights       string   `json:"weights"`
	WindowSeconds float64  `json:"window_seconds"`
	Notes         []string `json:"notes"`
}

// whatIfMember is one member before and after.
type whatIfMember struct {
	ID          string  `json:"member_id"`
	Name        string  `json:"name"`
	CountBefore int     `json:"count_before"`
	CountAfter  int     `json:"count_after"`
	LoadBefore  float64 `json:"load_before"`
	LoadAfter   float64 `json:"load_after"`
}

// loadSummary is the heaviest member and the spreads of one assignment.
type loadSummary struct {
	Heaviest    string  `json:"heaviest"`
	LoadMax     float64 `json:"load_max"`
	LoadMin     float64 `json:"load_min"`
	LoadMean    float64 `json:"load_mean"`
	CountSpread int     `json:"count_spread"`
	OverMean    float64 `json:"heaviest_over_mean"`
}

// errNotStable is returned by whatif for a group whose assignment the
// broker does not show.
var errNotStable = errors.New("the broker shows members' subscriptions only while the group is Stable")

// buildGroup builds the assignor.Group a leader would see at the next
// rebalance of v: each member's subscription and rack, its current
// assignment as owned at the current generation (as cooperative members
// claim; an eager assignor reads what it needs), its user data; each
// subscribed topic's partitions, replica racks and, when measured,
// weights from the rates. user, if not nil, gives the subscription user
// data the target assignor would have members send. Pure.
func buildGroup(v groupView, user func(assignor.MemberState) []byte) assignor.Group {
	var g assignor.Group
	// Members hold their assignment in the current generation (0 when it
	// is unknown: every claim then ranks the same).
	gen := max(v.gen, 0)
	for _, m := range v.members {
		am := assignor.Member{ID: m.ID, InstanceID: m.InstanceID, Rack: m.Rack, Topics: slices.Clone(m.Topics),
			Owned: assignor.CloneTopicPartitions(m.Assigned), Generation: gen}
		if am.Owned == nil {
			am.Generation = assignor.NoGeneration
		}
		am.UserData = slices.Clone(m.rawUserData)
		if user != nil {
			am.UserData = user(assignor.MemberState{Topics: am.Topics, Owned: am.Owned, Generation: am.Generation})
		}
		g.Members = append(g.Members, am)
	}
	for _, name := range v.subscribe {
		t, ok := v.snap.topic(name)
		if !ok {
			continue
		}
		at := assignor.Topic{Name: name, Partitions: slices.Clone(t.Partitions)}
		if t.Racks != nil {
			at.ReplicaRacks = make([][]string, len(t.Racks))
			for i, r := range t.Racks {
				at.ReplicaRacks[i] = slices.Clone(r)
			}
		}
		if v.snap.Rates != nil {
			at.Weights = make([]int64, len(t.Partitions))
			for i, p := range t.Partitions {
				at.Weights[i] = int64(math.Round(v.rate(tp{name, p}) * weightScale))
			}
		}
		g.Topics = append(g.Topics, at)
	}
	return g
}

// userDataOf returns the hook that gives a member's subscription user data
// as a would send it, or nil when a sends none of its own.
func userDataOf(a assignor.Assignor) func(assignor.MemberState) []byte {
	h, ok := a.(assignor.SubscriptionUserDataAssignor)
	if !ok {
		return nil
	}
	return func(s assignor.MemberState) []byte {
		b, err := h.SubscriptionUserData(s)
		if err != nil {
			return nil
		}
		return b
	}
}

// simulate runs a on g round by round: after each plan every member owns
// what it was assigned, one generation later, until a plan asks for no
// follow-up round or maxRounds is reached. Each plan is checked
// (assignor.CheckPlan under the protocol a prefers); an invalid plan is
// an error naming the round. Pure.
func simulate(a assignor.Assignor, g assignor.Group) ([]assignor.Plan, error) {
	proto := assignor.Protocols(a)[0]
	user := userDataOf(a)
	var plans []assignor.Plan
	for round := 1; ; round++ {
		plan, err := a.Assign(g.Clone())
		if err != nil {
			return plans, fmt.Errorf("round %d: %w", round, err)
		}
		if err := assignor.CheckPlan(g, plan, proto); err != nil {
			return plans, fmt.Errorf("round %d: the plan is invalid: %w", round, err)
		}
		plans = append(plans, plan)
		if !plan.FollowUp || round == maxRounds {
			return plans, nil
		}
		next := g.Clone()
		for i := range next.Members {
			m := &next.Members[i]
			mp, _ := plan.Member(m.ID)
			m.Owned = assignor.CloneTopicPartitions(mp.Assigned)
			m.Generation = max(m.Generation+1, 0)
			if user != nil {
				m.UserData = user(assignor.MemberState{Topics: m.Topics, Owned: m.Owned, Generation: m.Generation})
			}
		}
		g = next
	}
}

// planWhatIf runs the entry's assignor on v's live state and compares the
// settled plan with the live assignment. Pure.
func planWhatIf(v groupView, e Entry) (whatIf, error) {
	a := e.New()
	w := whatIf{Group: v.snap.Group, At: v.snap.At, Assignor: e.Key, Name: a.Name(), Current: v.protocol, Generation: v.gen,
		WindowSeconds: v.snap.Window.Seconds()}
	if len(v.members) == 0 {
		return w, fmt.Errorf("group %s has no members to assign to (state %s)", v.snap.Group, v.snap.State)
	}
	if !v.stable {
		return w, fmt.Errorf("group %s is %s: %w; try again when it is", v.snap.Group, v.snap.State, errNotStable)
	}
	var user func(assignor.MemberState) []byte
	if a.Name() != v.protocol {
		user = userDataOf(a)
	}
	g := buildGroup(v, user)
	plans, err := simulate(a, g)
	if err != nil {
		return w, fmt.Errorf("assignor %s on group %s: %w", e.Key, v.snap.Group, err)
	}
	w.Plans = plans
	w.Rounds = len(plans)
	last := plans[len(plans)-1]
	w.Settled = !last.FollowUp
	before := v.assignment()
	after := map[string][]assignor.TopicPartitions{}
	for _, mp := range last.Members {
		after[mp.Member] = mp.Assigned
	}
	w.Moves = diff(before, after, nil)
	if w.Moves == nil {
		w.Moves = []move{}
	}
	w.Moved, w.Placed, _ = countMoves(w.Moves)
	if len(plans) > 1 {
		var first []assignor.TopicPartitions
		for _, mp := range plans[0].Members {
			first = assignor.MergeTopicPartitions(first, mp.Assigned)
		}
		withheld := assignor.SubtractTopicPartitions(v.subscribedPartitions(), first)
		w.Withheld = assignor.CountPartitions(withheld)
		was, now := holders(before), holders(after)
		for _, t := range withheld {
			for _, p := range t.Partitions {
				if k := (tp{t.Topic, p}); was[k] != "" && was[k] == now[k] {
					w.Returned++
				}
			}
		}
	}
	for _, m := range v.members {
		mp, _ := last.Member(m.ID)
		w.Members = append(w.Members, whatIfMember{ID: m.ID, Name: v.names[m.ID],
			CountBefore: assignor.CountPartitions(m.Assigned), CountAfter: mp.NumAssigned(),
			LoadBefore: v.load(m.Assigned), LoadAfter: v.load(mp.Assigned)})
	}
	w.Before = summarize(w.Members, func(m whatIfMember) (int, float64) { return m.CountBefore, m.LoadBefore })
	w.After = summarize(w.Members, func(m whatIfMember) (int, float64) { return m.CountAfter, m.LoadAfter })
	switch {
	case v.snap.Rates != nil:
		w.Weights = fmt.Sprintf("measured: records/s over %.1fs from two end-offset samples", v.snap.Window.Seconds())
	default:
		w.Weights = "none measured (-window 0): a load-aware assignor reads members' weighted reports, else weighs every partition alike"
	}
	if !w.Settled {
		w.Notes = append(w.Notes, fmt.Sprintf("the plan still asks for a follow-up round after %d rounds", maxRounds))
	}
	if v.snap.Type == typeConsumer {
		w.Notes = append(w.Notes, fmt.Sprintf("KIP-848 group: the broker assigns (assignor %q); this is what %s would plan from the same state", v.protocol, e.Key))
	}
	if v.inferred && v.gen < 0 {
		w.Notes = append(w.Notes, "generation unknown: members' claims are given no generation")
	}
	for _, m := range v.members {
		if len(m.Problems) > 0 {
			w.Notes = append(w.Notes, fmt.Sprintf("member %s is marked: %s", v.names[m.ID], m.Problems[0]))
		}
	}
	if w.Notes == nil {
		w.Notes = []string{}
	}
	return w, nil
}

// summarize computes one side's heaviest member and spreads.
func summarize(ms []whatIfMember, side func(whatIfMember) (int, float64)) loadSummary {
	var s loadSummary
	if len(ms) == 0 {
		return s
	}
	lo, hi := math.MaxInt, 0
	s.LoadMin = math.Inf(1)
	var sum float64
	for _, m := range ms {
		c, l := side(m)
		lo, hi = min(lo, c), max(hi, c)
		sum += l
		s.LoadMin = min(s.LoadMin, l)
		if l > s.LoadMax || s.Heaviest == "" {
			s.LoadMax, s.Heaviest = l, m.Name
		}
	}
	s.CountSpread = hi - lo
	s.LoadMean = sum / float64(len(ms))
	if s.LoadMean > 0 {
		s.OverMean = s.LoadMax / s.LoadMean
	}
	return s
}
