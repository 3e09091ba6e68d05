package franzgo

import (
	"cmp"
	"slices"

	"github.com/kgroup/assignor"
)

// topicPartition is one partition of one topic.
type topicPartition struct {
	topic     string
	partition int32
}

// withhold keeps a cooperative plan safe around the members the assignor
// never saw: a member assigned nothing (an empty or duplicate member ID)
// still holds what it claims until it revokes it, so no other member may
// be handed it this round. It removes from the plan every partition such a
// member claims, except from a member whose own claim on it is at a
// strictly higher generation (then the excluded claim is stale, KIP-792),
// and sets FollowUp when it removed anything: the excluded member revokes
// everything on its empty assignment and rejoins, and the next round
// hands the partitions out.
//
//	excluded "" claims t[0 1] at generation 4
//	plan     a: t[0 2]   b: t[1]   (b claims t[1] at generation 5)
//	result   a: t[2]     b: t[1]   follow-up
//
// Claims at or above the generation being balanced into were dropped
// before, so a member cannot hold the group back with an impossible
// generation. The plan's own slices are not modified. O(claims) plus one
// map lookup per assigned partition.
func (b *Balancer) withhold(plan assignor.Plan, members, excluded []assignor.Member) assignor.Plan {
	claimed := make(map[topicPartition]int32) // the highest excluded claim
	for _, m := range excluded {
		for _, tp := range m.Owned {
			for _, p := range tp.Partitions {
				k := topicPartition{tp.Topic, p}
				if g, ok := claimed[k]; !ok || m.Generation > g {
					claimed[k] = m.Generation
				}
			}
		}
	}
	if len(claimed) == 0 {
		return plan
	}
	out := plan
	out.Members = slices.Clone(plan.Members)
	withheld := 0
	for i, mp := range out.Members {
		owner := memberByID(members, mp.Member)
		var own map[topicPartition]bool // owner's claims, built on first need
		keep := func(k topicPartition) bool {
			g, ok := claimed[k]
			if !ok {
				return true
			}
			if own == nil {
				own = claimSet(owner)
			}
			if owner != nil && own[k] && owner.Generation > g {
				return true
			}
			withheld++
			return false
		}
		out.Members[i].Assigned = filterPartitions(mp.Assigned, keep)
	}
	if withheld > 0 {
		out.FollowUp = true
		b.logf("franzgo: %s: withheld %d partitions claimed by members that are assigned nothing, until they revoke them", b.name, withheld)
	}
	return out
}

// filterPartitions returns tps without the partitions keep refuses, as a
// new list if anything was removed, else tps itself.
func filterPartitions(tps []assignor.TopicPartitions, keep func(topicPartition) bool) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	changed := false
	for _, tp := range tps {
		ps := make([]int32, 0, len(tp.Partitions))
		for _, p := range tp.Partitions {
			if keep(topicPartition{tp.Topic, p}) {
				ps = append(ps, p)
			}
		}
		changed = changed || len(ps) != len(tp.Partitions)
		if len(ps) > 0 {
			out = append(out, assignor.TopicPartitions{Topic: tp.Topic, Partitions: ps})
		}
	}
	if !changed {
		return tps
	}
	return out
}

// memberByID finds a member in a list sorted by ID; nil if absent.
func memberByID(ms []assignor.Member, id string) *assignor.Member {
	i, ok := slices.BinarySearchFunc(ms, id, func(m assignor.Member, id string) int { return cmp.Compare(m.ID, id) })
	if !ok {
		return nil
	}
	return &ms[i]
}

// claimSet returns the partitions m claims (none for a nil m).
func claimSet(m *assignor.Member) map[topicPartition]bool {
	set := make(map[topicPartition]bool)
	if m == nil {
		return set
	}
	for _, tp := range m.Owned {
		for _, p := range tp.Partitions {
			set[topicPartition{tp.Topic, p}] = true
		}
	}
	return set
}
