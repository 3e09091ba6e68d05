package assignor

import (
	"cmp"
	"errors"
	"slices"
)

// CheckPlan checks plan against group g as an assignor of protocol proto
// would have to produce it, and returns every violation found, joined with
// [errors.Join] (nil if there is none). Each violation is a
// [*PartitionError] or [*MemberError] wrapping one of the ErrXxx sentinels
// of this package, so errors.Is and errors.As see through the join:
//   - a plan entry for a member not in the group ([ErrUnknownMember]), a
//     member of the group without an entry ([ErrMissingMember]), entries or
//     partitions out of order ([ErrUnsorted]);
//   - a partition assigned to more than one member ([ErrAssignedTwice]), to a
//     member that does not subscribe to its topic ([ErrNotSubscribed]), or
//     outside the metadata ([ErrOutsideMetadata]) — except, for [Cooperative],
//     a partition given back to its valid owner, which may lie outside the
//     leader's metadata as long as it is not negative;
//   - for [Cooperative]: a claimed partition in the plan of a member that is
//     not its valid owner ([ErrNotOwner]), the KIP-429 safety rule;
//   - a subscribed partition left unassigned ([ErrUnassigned]); for
//     [Cooperative], only if no member claims it (claimed partitions may be
//     withheld for a follow-up rebalance).
//
// If g itself cannot be indexed, CheckPlan returns [NewIndex]'s error.
func CheckPlan(g Group, plan Plan, proto Protocol) error {
	ix, err := NewIndex(g)
	if err != nil {
		return err
	}
	c := checker{ix: ix, cooperative: proto == Cooperative, assignedTo: make([]int32, ix.NumPartitions())}
	for p := range c.assignedTo {
		c.assignedTo[p] = -1
	}
	c.checkMembers(plan)
	c.checkComplete()
	return errors.Join(c.errs...)
}

type checker struct {
	ix          *Index
	cooperative bool
	assignedTo  []int32 // per flat partition: the member holding it, or -1
	errs        []error
}

func (c *checker) fail(member, topic string, partition, gen int32, err error) {
	c.errs = append(c.errs, &PartitionError{Member: member, Topic: topic, Partition: partition, Generation: gen, Err: err})
}

func (c *checker) checkMembers(plan Plan) {
	seen := make([]bool, len(c.ix.Members))
	for i, mp := range plan.Members {
		if i > 0 && plan.Members[i-1].Member >= mp.Member {
			c.errs = append(c.errs, &MemberError{Member: mp.Member, Err: ErrUnsorted})
		}
		m, ok := c.ix.Member(mp.Member)
		if !ok {
			c.errs = append(c.errs, &MemberError{Member: mp.Member, Err: ErrUnknownMember})
			continue
		}
		if seen[m] {
			c.errs = append(c.errs, &MemberError{Member: mp.Member, Err: ErrDuplicateMember})
			continue
		}
		seen[m] = true
		c.checkAssigned(m, mp)
	}
	for m, ok := range seen {
		if !ok {
			c.errs = append(c.errs, &MemberError{Member: c.ix.Members[m].ID, Err: ErrMissingMember})
		}
	}
}

func (c *checker) checkAssigned(m int32, mp MemberPlan) {
	ix := c.ix
	gen := ix.Generation[m]
	for i, tp := range mp.Assigned {
		if i > 0 && mp.Assigned[i-1].Topic >= tp.Topic {
			c.fail(mp.Member, tp.Topic, -1, NoGeneration, ErrUnsorted)
		}
		if !slices.IsSorted(tp.Partitions) || len(slices.Compact(slices.Clone(tp.Partitions))) != len(tp.Partitions) {
			c.fail(mp.Member, tp.Topic, -1, NoGeneration, ErrUnsorted)
		}
		t, known := ix.Topic(tp.Topic)
		for _, id := range tp.Partitions {
			var p int32
			inside := known && id >= 0
			if inside {
				p, inside = ix.Flat(t, id)
			}
			if !inside {
				if !c.givenBack(m, tp.Topic, id) {
					c.fail(mp.Member, tp.Topic, id, gen, ErrOutsideMetadata)
				}
				continue
			}
			if !ix.Subscribes(m, t) {
				c.fail(mp.Member, tp.Topic, id, gen, ErrNotSubscribed)
			}
			if holder := c.assignedTo[p]; holder >= 0 && holder != m {
				c.fail(mp.Member, tp.Topic, id, gen, ErrAssignedTwice)
			}
			c.assignedTo[p] = m
			if c.cooperative && ix.Owner[p] != Unclaimed && ix.Owner[p] != m {
				c.fail(mp.Member, tp.Topic, id, gen, ErrNotOwner)
			}
		}
	}
}

// givenBack reports whether a cooperative plan may give member m the
// partition (topic, id) outside the metadata: m is the valid owner of its
// claim and still subscribes to the topic.
func (c *checker) givenBack(m int32, topic string, id int32) bool {
	if !c.cooperative {
		return false
	}
	i, found := slices.BinarySearchFunc(c.ix.Outside, OutsideClaim{Member: m, Topic: topic, Partition: id}, compareOutside)
	return found && c.ix.Outside[i].Valid && slices.Contains(c.ix.Members[m].Topics, topic)
}

func compareOutside(a, b OutsideClaim) int {
	return cmp.Or(cmp.Compare(a.Member, b.Member), cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
}

func (c *checker) checkComplete() {
	ix := c.ix
	for t, subs := range ix.Subscribers {
		if len(subs) == 0 {
			continue
		}
		for p := ix.TopicStart[t]; p < ix.TopicStart[t+1]; p++ {
			if c.assignedTo[p] >= 0 || (c.cooperative && ix.Owner[p] != Unclaimed) {
				continue
			}
			c.fail("", ix.Topics[t].Name, ix.Topics[t].Partitions[p-ix.TopicStart[t]], NoGeneration, ErrUnassigned)
		}
	}
}
