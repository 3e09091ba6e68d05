package cooperative

import (
	"cmp"
	"errors"
	"slices"

	"github.com/kgroup/assignor"
)

// check returns every way plan breaks the rules of [assignor.CheckPlan] for
// [assignor.Cooperative], joined, or nil. It must agree with
// assignor.CheckPlan(g, plan, assignor.Cooperative), violation for
// violation and in the same order, where ix = assignor.NewIndex(g) (a test
// holds it to that); it reuses ix instead of indexing the group again.
// O(P + entries of the plan).
func check(ix *assignor.Index, plan assignor.Plan) error {
	var errs []error
	fail := func(member, topic string, partition, gen int32, err error) {
		errs = append(errs, &assignor.PartitionError{Member: member, Topic: topic, Partition: partition, Generation: gen, Err: err})
	}
	assignedTo := make([]int32, ix.NumPartitions())
	for p := range assignedTo {
		assignedTo[p] = -1
	}
	seen := make([]bool, len(ix.Members))
	for i, mp := range plan.Members {
		if i > 0 && plan.Members[i-1].Member >= mp.Member {
			errs = append(errs, &assignor.MemberError{Member: mp.Member, Err: assignor.ErrUnsorted})
		}
		m, ok := ix.Member(mp.Member)
		if !ok {
			errs = append(errs, &assignor.MemberError{Member: mp.Member, Err: assignor.ErrUnknownMember})
			continue
		}
		if seen[m] {
			errs = append(errs, &assignor.MemberError{Member: mp.Member, Err: assignor.ErrDuplicateMember})
			continue
		}
		seen[m] = true
		gen := ix.Generation[m]
		topics := newTopicCursor(ix)
		subs := subscriptionCursor{subs: ix.Subscriptions[m]}
		for j, tp := range mp.Assigned {
			if j > 0 && mp.Assigned[j-1].Topic >= tp.Topic {
				fail(mp.Member, tp.Topic, -1, assignor.NoGeneration, assignor.ErrUnsorted)
			}
			if !strictlyIncreasing(tp.Partitions) {
				fail(mp.Member, tp.Topic, -1, assignor.NoGeneration, assignor.ErrUnsorted)
			}
			t, known := topics.find(tp.Topic)
			subscribed := known && subs.has(t)
			for _, id := range tp.Partitions {
				var p int32
				inside := known && id >= 0
				if inside {
					p, inside = flat(ix, t, id)
				}
				if !inside {
					if !givenBack(ix, m, tp.Topic, id) {
						fail(mp.Member, tp.Topic, id, gen, assignor.ErrOutsideMetadata)
					}
					continue
				}
				if !subscribed {
					fail(mp.Member, tp.Topic, id, gen, assignor.ErrNotSubscribed)
				}
				if holder := assignedTo[p]; holder >= 0 && holder != m {
					fail(mp.Member, tp.Topic, id, gen, assignor.ErrAssignedTwice)
				}
				assignedTo[p] = m
				if owner := ix.Owner[p]; owner != assignor.Unclaimed && owner != m {
					fail(mp.Member, tp.Topic, id, gen, assignor.ErrNotOwner)
				}
			}
		}
	}
	for m, ok := range seen {
		if !ok {
			errs = append(errs, &assignor.MemberError{Member: ix.Members[m].ID, Err: assignor.ErrMissingMember})
		}
	}
	for t, subs := range ix.Subscribers {
		if len(subs) == 0 {
			continue
		}
		for p := ix.TopicStart[t]; p < ix.TopicStart[t+1]; p++ {
			if assignedTo[p] < 0 && ix.Owner[p] == assignor.Unclaimed {
				fail("", ix.Topics[t].Name, ix.Topics[t].Partitions[p-ix.TopicStart[t]], assignor.NoGeneration, assignor.ErrUnassigned)
			}
		}
	}
	return errors.Join(errs...)
}

func strictlyIncreasing(ps []int32) bool {
	for i := 1; i < len(ps); i++ {
		if ps[i-1] >= ps[i] {
			return false
		}
	}
	return true
}

// givenBack reports whether a cooperative plan may give member m the
// partition (topic, id) outside the metadata: m is the valid owner of its
// claim on it and still subscribes to the topic.
func givenBack(ix *assignor.Index, m int32, topic string, id int32) bool {
	i, found := slices.BinarySearchFunc(ix.Outside, assignor.OutsideClaim{Member: m, Topic: topic, Partition: id}, func(a, b assignor.OutsideClaim) int {
		return cmp.Or(cmp.Compare(a.Member, b.Member), cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
	})
	return found && ix.Outside[i].Valid && slices.Contains(ix.Members[m].Topics, topic)
}
