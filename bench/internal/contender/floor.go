package contender

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

func init() {
	Register(Contender{Key: "floor", Name: "floor (decode + encode only)", Family: "floor", Floor: true, Racks: true, Order: 90,
		New: func() Runner { return &floorRunner{} }})
}

// floorRunner is the work no leader can avoid: decoding every member's
// subscription and encoding every member's assignment, with no assignment
// logic. It uses our codec (package wire). Members send what a cooperative
// member sends (subscription v3 with owned partitions, generation and the
// cooperative user data), the largest of the common layouts. The plan it
// encodes is made in Prepare, untimed: each topic's partitions in contiguous
// runs over its subscribers, so the assignment bytes have a real plan's size.
type floorRunner struct {
	ids    []string
	raw    [][]byte
	plan   [][]assignor.TopicPartitions // per member, in ids order
	subs   []wire.Subscription
	out    [][]byte
	sorted []int // member indices by ID
}

func (r *floorRunner) Prepare(topics []assignor.Topic, members []MemberJoin, _ int32) error {
	r.ids = make([]string, len(members))
	r.raw = make([][]byte, len(members))
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
	r.plan = make([][]assignor.TopicPartitions, len(members))
	for _, t := range topics {
		var subs []int
		for _, i := range r.sorted {
			if _, ok := slices.BinarySearch(members[i].Topics, t.Name); ok {
				subs = append(subs, i)
			}
		}
		n := len(t.Partitions)
		for k, i := range subs {
			lo, hi := k*n/len(subs), (k+1)*n/len(subs)
			if lo < hi {
				r.plan[i] = append(r.plan[i], assignor.TopicPartitions{Topic: t.Name, Partitions: slices.Clone(t.Partitions[lo:hi])})
			}
		}
	}
	return nil
}

func (r *floorRunner) Lead() error {
	r.subs = make([]wire.Subscription, len(r.raw))
	for i, b := range r.raw {
		sub, err := wire.DecodeSubscription(b)
		if err != nil {
			return fmt.Errorf("member %q: %w", r.ids[i], err)
		}
		r.subs[i] = sub
	}
	r.out = make([][]byte, len(r.raw))
	for i, tps := range r.plan {
		r.out[i] = wire.Assignment{Version: 3, Partitions: tps}.AppendTo(nil)
	}
	return nil
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
