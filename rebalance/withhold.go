package rebalance

import (
	"slices"

	"github.com/kgroup/assignor"
)

// withhold keeps a cooperative plan safe around the members the assignor
// never saw: a member assigned nothing (an empty or duplicate member ID)
// still holds what it claims until it revokes it, so no other member may
// be handed it this round. It takes out of fp every partition such a
// member claims, except from a member whose own claim on it is at a
// strictly higher generation (then the excluded claim is stale, KIP-792),
// and sets FollowUp when it took anything: the excluded member revokes
// everything on its empty assignment and rejoins, and the next round hands
// the partitions out.
//
//	excluded "" claims t[0 1] at generation 4
//	plan     a: t[0 2]   b: t[1]   (b claims t[1] at generation 5)
//	result   a: t[2]     b: t[1]   follow-up
//
// Claims at or above the generation being balanced into were dropped
// before, so a member cannot hold the group back with an impossible
// generation. It returns which flat partitions it took, and how many claims
// outside the metadata. O(C log C) for C excluded claims.
func (r *Round) withhold(ix *assignor.Index, fp *assignor.FlatPlan) (taken []bool, outsideWithheld int) {
	outside := ix.Outside()
	n := 0
	for _, mem := range r.members {
		if mem.status != excluded {
			continue
		}
		gen := mem.m.Generation
		for topic, ids := range mem.allClaims() {
			t, known := ix.TopicNumber(topic)
			for _, id := range ids {
				if p, inside := flat(ix, t, known, id); inside {
					if h := fp.Holder[p]; h >= 0 && !ownNewer(ix, h, p, gen) {
						fp.Holder[p] = -1
						if taken == nil {
							taken = make([]bool, len(fp.Holder))
						}
						taken[p] = true
						n++
					}
					continue
				}
				for i, oc := range outside {
					if fp.GivenBack != nil && fp.GivenBack[i] && oc.Topic == topic && oc.Partition == id && oc.Generation <= gen {
						fp.GivenBack[i] = false
						outsideWithheld++
					}
				}
			}
		}
	}
	if n += outsideWithheld; n > 0 {
		fp.FollowUp = true
		r.l.log.Warn("withheld partitions claimed by members that are assigned nothing, until they revoke them", "partitions", n)
	}
	return taken, outsideWithheld
}

// flat returns the flat number of partition id of topic t when the topic
// is known and has it.
func flat(ix *assignor.Index, t int32, known bool, id int32) (int32, bool) {
	if !known {
		return 0, false
	}
	return ix.Flat(t, id)
}

// ownNewer reports whether member h claims flat partition p at a generation
// above gen.
func ownNewer(ix *assignor.Index, h, p, gen int32) bool {
	_, claims := slices.BinarySearch(ix.Claims(h), p)
	return claims && ix.Generation(h) > gen
}

// allClaims yields the member's claims, a topic and some of its partition
// IDs at a time, wherever they are.
func (mem *member) allClaims() func(func(string, []int32) bool) {
	if mem.owned != nil {
		return mem.owned
	}
	if mem.count == 0 {
		return noClaims
	}
	return mem.view.OwnedPartitions(nil)
}
