package workload

import (
	"fmt"
	"slices"

	"github.com/kgroup/assignor"
)

// Event is one change of group membership in a script: some members leave,
// then some join (with nothing owned), and the group rebalances.
type Event struct {
	Leave []string
	Join  []MemberSpec
}

// Script is a multi-round scenario: the group starts as Initial (assigned
// fresh and settled), then each event happens once the group has settled
// from the previous one.
type Script struct {
	Name    string
	Topics  []assignor.Topic
	Initial []MemberSpec
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

// Scripts lists the scripts in table order.
var Scripts = []string{Roll, Scale}

// NewScript builds script name on shape s from seed; every member subscribes
// to every topic.
func NewScript(name string, s Shape, seed uint64) (Script, error) {
	if s.Topics <= 0 || s.Partitions <= 0 || s.Members <= 0 {
		return Script{}, fmt.Errorf("workload: empty shape %v", s)
	}
	g := newGen(seed, "script "+name+s.String())
	all := TopicNames(s)
	sc := Script{Name: name, Topics: metadata(s, g.rng, false)}
	newMember := func() MemberSpec { return MemberSpec{ID: g.memberID(), Topics: all} }
	switch name {
	case Roll:
		for range s.Members {
			sc.Initial = append(sc.Initial, newMember())
		}
		order := g.rng.Perm(s.Members)
		for _, i := range order {
			sc.Events = append(sc.Events, Event{Leave: []string{sc.Initial[i].ID}}, Event{Join: []MemberSpec{newMember()}})
		}
	case Scale:
		sc.Initial = []MemberSpec{newMember()}
		live := []string{sc.Initial[0].ID}
		for len(live) < s.Members {
			var ev Event
			for range min(len(live), s.Members-len(live)) {
				m := newMember()
				ev.Join = append(ev.Join, m)
			}
			for _, m := range ev.Join {
				live = append(live, m.ID)
			}
			sc.Events = append(sc.Events, ev)
		}
		for len(live) > 1 {
			var ev Event
			g.rng.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
			n := len(live) / 2
			ev.Leave = slices.Clone(live[:n])
			live = live[n:]
			sc.Events = append(sc.Events, ev)
		}
	default:
		return Script{}, fmt.Errorf("workload: unknown script %q", name)
	}
	return sc, nil
}
