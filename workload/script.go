package workload

import (
	"fmt"
	"slices"

	"github.com/kgroup/assignor"
)

// Event is one change of group membership in a script: some members leave,
// then some join (owning nothing), and the group rebalances.
type Event struct {
	Leave []string // member IDs
	Join  []Member
}

// Script is a multi-round scenario: the group starts as Initial (assigned
// fresh and settled), then each event happens once the group has settled
// from the previous one.
type Script struct {
	Name    string
	Topics  []assignor.Topic
	Initial []Member
	Events  []Event
}

// The scripts.
const (
	// Roll is a rolling restart of every member in turn: each leaves (its
	// partitions are unowned), and then rejoins with a new member ID and
	// nothing owned, as a restarted dynamic member does. Two events per
	// member.
	Roll = "roll"
	// Scale starts with one member, doubles the membership event by event up
	// to the shape's count, then halves it back down to one.
	Scale = "scale"
)

// Scripts returns the scripts' names in the results tables' order. The slice
// is the caller's.
func Scripts() []string { return []string{Roll, Scale} }

// NewScript builds script name on shape s from seed; every member subscribes
// to every topic. The same arguments always give the same Script. It fails
// on an empty shape and an unknown name.
func NewScript(name string, s Shape, seed uint64) (Script, error) {
	if s.Topics <= 0 || s.Partitions <= 0 || s.Members <= 0 {
		return Script{}, fmt.Errorf("workload: empty shape %v", s)
	}
	g := newGen(seed, "script "+name+s.String())
	all := topicNames(s)
	sc := Script{Name: name, Topics: metadata(s, g.rng, false)}
	newMember := func() Member { return Member{ID: g.memberID(), Topics: all} }
	switch name {
	case Roll:
		for range s.Members {
			sc.Initial = append(sc.Initial, newMember())
		}
		for _, i := range g.rng.Perm(s.Members) {
			sc.Events = append(sc.Events, Event{Leave: []string{sc.Initial[i].ID}}, Event{Join: []Member{newMember()}})
		}
	case Scale:
		sc.Initial = []Member{newMember()}
		sc.Events = scaleEvents(g, s.Members, sc.Initial[0].ID, newMember)
	default:
		return Script{}, fmt.Errorf("workload: unknown script %q", name)
	}
	return sc, nil
}

// scaleEvents doubles the live members, from first alone, up to most, then
// halves them back down to one, the leavers drawn from g.
func scaleEvents(g *gen, most int, first string, newMember func() Member) []Event {
	var events []Event
	live := []string{first}
	for len(live) < most {
		var ev Event
		for range min(len(live), most-len(live)) {
			ev.Join = append(ev.Join, newMember())
		}
		for _, m := range ev.Join {
			live = append(live, m.ID)
		}
		events = append(events, ev)
	}
	for len(live) > 1 {
		g.rng.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
		n := len(live) / 2
		events = append(events, Event{Leave: slices.Clone(live[:n])})
		live = live[n:]
	}
	return events
}
