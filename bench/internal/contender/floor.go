package contender

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/touchfloor"
	"github.com/kgroup/assignor/wire"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func init() {
	Register(Contender{Key: "floor", Name: "floor (decode + encode only)", Family: "floor", Floor: true, Racks: true, Timed: "our codec decodes every subscription; an assignment decided beforehand (one member per partition) is grouped by member and topic and encoded; no assignment logic",
		Order: 90,
		New:   func() Runner { return &floorRunner{} }})
	Register(Contender{Key: "floor-kmsg", Name: "floor with kmsg ReadFrom", Family: "floor", Floor: true, Racks: true, Timed: "the floor's work with kmsg: ConsumerMemberMetadata.ReadFrom (copies its strings, as wire does) and ConsumerMemberAssignment.AppendTo",
		Order: 91,
		New:   func() Runner { return &floorRunner{codec: codecKmsg} }})
	Register(Contender{Key: "floor-kmsg-unsafe", Name: "floor with kmsg UnsafeReadFrom (aliases input)", Family: "floor", Floor: true, Racks: true, Timed: "as floor-kmsg with UnsafeReadFrom: the decoded strings alias the input bytes, which the caller must then keep unchanged (wire never aliases)",
		Order: 92,
		New:   func() Runner { return &floorRunner{codec: codecKmsgUnsafe} }})
}

// codec is the codec a floor runs.
type codec int

const (
	codecWire       codec = iota // package wire: copies what it decodes
	codecKmsg                    // kmsg ReadFrom (copies) and AppendTo
	codecKmsgUnsafe              // kmsg UnsafeReadFrom (strings point into the input) and AppendTo
)

// floorRunner is the work no leader can avoid: decoding every member's
// subscription and encoding every member's assignment, with no assignment
// logic. It uses our codec (package wire), or kmsg's: ReadFrom, which
// copies as wire does, or UnsafeReadFrom, whose strings alias the input
// bytes (valid only while the caller keeps them unchanged; wire promises
// never to alias). Members send what a cooperative
// member sends (subscription v3 with owned partitions, generation and the
// cooperative user data), the largest of the common layouts.
//
// The assignment is decided in Prepare, untimed, as a leader's decision is
// naturally held: one member per partition (each topic's partitions in
// contiguous runs over its subscribers, so the assignment bytes have a real
// plan's size). Lead decodes, then encodes that decision: it groups the
// partitions by member and topic into the lists the codec writes (two
// shared arrays, as our assignors build their plans) and writes each
// member's bytes. The runner keeps no more than any other contender's
// between Leads (the raw metadata and the decision), so a Lead meets the
// garbage collector in the same state as theirs.
type floorRunner struct {
	codec  codec
	ids    []string
	raw    [][]byte
	topics []assignor.Topic
	owner  []int32 // per partition, topics in order: member index into ids
	subs   []wire.Subscription
	out    [][]byte
	sorted []int // member indices by ID
}

func (r *floorRunner) Prepare(topics []assignor.Topic, members []MemberJoin, _ int32) error {
	r.ids = make([]string, len(members))
	r.raw = make([][]byte, len(members))
	r.topics = topics
	for i, m := range members {
		sub := wire.Subscription{Version: 3, Topics: m.Topics, Owned: m.Owned, Generation: m.Generation, Rack: m.Rack,
			UserData: wire.CooperativeUserData(m.Generation)}
		r.ids[i] = m.ID
		r.raw[i] = sub.AppendTo(nil)
	}
	r.sorted = make([]int, len(members))
	for i := range r.sorted {
		r.sorted[i] = i
	}
	slices.SortFunc(r.sorted, func(a, b int) int { return cmp.Compare(r.ids[a], r.ids[b]) })
	for _, t := range topics {
		var subs []int32
		for _, i := range r.sorted {
			if _, ok := slices.BinarySearch(members[i].Topics, t.Name); ok {
				subs = append(subs, int32(i))
			}
		}
		n := len(t.Partitions)
		for j := range n {
			m := int32(-1)
			if len(subs) > 0 {
				m = subs[j*len(subs)/n]
			}
			r.owner = append(r.owner, m)
		}
	}
	return nil
}

func (r *floorRunner) Lead() error {
	if r.codec != codecWire {
		return r.leadKmsg()
	}
	r.subs = make([]wire.Subscription, len(r.raw))
	for i, b := range r.raw {
		sub, err := wire.DecodeSubscription(b)
		if err != nil {
			return fmt.Errorf("contender: member %q: %w", r.ids[i], err)
		}
		r.subs[i] = sub
	}
	plan := r.group()
	r.out = make([][]byte, len(r.raw))
	for i, tps := range plan {
		r.out[i] = wire.Assignment{Version: 3, Partitions: tps}.AppendTo(nil)
	}
	return nil
}

// leadKmsg is Lead with kmsg's codec.
func (r *floorRunner) leadKmsg() error {
	metas := make([]kmsg.ConsumerMemberMetadata, len(r.raw))
	for i, b := range r.raw {
		read := metas[i].ReadFrom
		if r.codec == codecKmsgUnsafe {
			read = metas[i].UnsafeReadFrom
		}
		if err := read(b); err != nil {
			return fmt.Errorf("contender: member %q: kmsg: %w", r.ids[i], err)
		}
	}
	plan := r.group()
	r.out = make([][]byte, len(r.raw))
	for i, tps := range plan {
		a := kmsg.ConsumerMemberAssignment{Version: 3, Topics: make([]kmsg.ConsumerMemberAssignmentTopic, len(tps))}
		for j, tp := range tps {
			a.Topics[j] = kmsg.ConsumerMemberAssignmentTopic{Topic: tp.Topic, Partitions: tp.Partitions}
		}
		r.out[i] = a.AppendTo(nil)
	}
	return nil
}

// group turns r.owner into each member's topic-grouped partitions, the
// fastest known way (touchfloor.Lists).
func (r *floorRunner) group() [][]assignor.TopicPartitions {
	return touchfloor.Lists(r.topics, nil, r.owner, nil, len(r.raw))
}

func (r *floorRunner) Result() ([]Assignment, error) {
	out := make([]Assignment, 0, len(r.out))
	for _, i := range r.sorted {
		a, err := decodeAssignment(r.ids[i], r.out[i])
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}
