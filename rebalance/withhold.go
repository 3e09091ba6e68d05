package rebalance

import (
	"slices"

	"github.com/kgroup/assignor"
)

// withhold keeps a cooperative plan safe around what the assignor could not
// see. A member the round could not assign (an empty or duplicate member
// ID, metadata it could not read) still holds what it claims until it
// revokes it, so no other member may be handed that this round; nor a
// partition withheld from a member last round that the member might still
// hold (its shadow claims, for a member whose claims are unknown: see
// recall). withhold takes every such partition out of fp, except from a
// member whose own claim on it is at a strictly higher generation (then the
// other claim is stale, KIP-792) and, for a shadow claim, from the member
// itself; and when some member's claims are unknown and no remembered plan
// stands for them (blind), it takes every partition no member claims. It
// sets FollowUp when it took anything: the members revoke on their new
// assignments and rejoin, and the next round hands the partitions out.
//
//	excluded "" claims t[0 1] at generation 4
//	plan     a: t[0 2]   b: t[1]   (b claims t[1] at generation 5)
//	result   a: t[2]     b: t[1]   follow-up
//
// Claims at or above the generation being balanced into were dropped
// before, so a member cannot hold the group back with an impossible
// generation. It returns which flat partitions it took, what it took from
// whom (a blind one from every member whose claims are unknown, never to be
// carried), and how
// many claims outside the metadata it kept from their claimer. O(C log C) for C claims it looks at, plus the
// partitions when blind.
func (r *Round) withhold(ix *assignor.Index, fp *assignor.FlatPlan, blind bool) (taken []bool, from []withheldClaim, outsideWithheld int) {
	outside := ix.Outside()
	n := 0
	take := func(p int32) {
		fp.Holder[p] = -1
		if taken == nil {
			taken = make([]bool, len(fp.Holder))
		}
		taken[p] = true
		n++
	}
	withholdFrom := func(mem *member, own int32, claims []assignor.TopicPartitions, carried bool) {
		gen := mem.m.Generation
		for _, tp := range claims {
			t, known := ix.TopicNumber(tp.Topic)
			for _, id := range tp.Partitions {
				w := withheldClaim{topic: tp.Topic, partition: id, member: mem.m.ID, generation: gen, carried: carried}
				if p, inside := flat(ix, t, known, id); inside {
					if h := fp.Holder[p]; h >= 0 && h != own && !ownNewer(ix, h, p, gen) {
						take(p)
						from = append(from, w)
					}
					continue
				}
				for i, oc := range outside {
					if fp.GivenBack != nil && fp.GivenBack[i] && oc.Topic == tp.Topic && oc.Partition == id && oc.Generation <= gen && oc.Member != own {
						fp.GivenBack[i] = false
						outsideWithheld++
						from = append(from, w)
					}
				}
			}
		}
	}
	for i := range r.members {
		mem := &r.members[i]
		own := int32(-1) // the member's number in ix: its shadow claims are not kept from it
		if mem.status != readable {
			withholdFrom(mem, own, collect(mem.allClaims()), false)
		} else if m, ok := ix.MemberNumber(mem.m.ID); ok {
			own = m
		}
		withholdFrom(mem, own, mem.shadow, true)
	}
	if blind {
		// What no readable member claims, any member whose claims are
		// unknown may hold: each of them is recorded as its claimant (for
		// the record; not carried to the next round: a blind round is
		// marked only when nobody holds anything to revoke).
		var unknown []*member
		for i := range r.members {
			if r.members[i].unknown {
				unknown = append(unknown, &r.members[i])
			}
		}
		for p, h := range fp.Holder {
			if h < 0 || ix.Owner(int32(p)) != assignor.Unclaimed {
				continue
			}
			take(int32(p))
			topic, id := ix.Partition(int32(p))
			for _, mem := range unknown {
				from = append(from, withheldClaim{topic: topic, partition: id, member: mem.m.ID, generation: assignor.NoGeneration, carried: true})
			}
		}
	}
	if n += outsideWithheld; n > 0 {
		fp.FollowUp = true
		r.l.log.Warn("withheld partitions that members the round could not fully read may still hold, until they revoke them", "partitions", n)
	}
	return taken, from, outsideWithheld
}

// revokes reports whether some member whose claims the round read revokes
// something on its assignment: a partition withheld from it.
func (r *Round) revokes(withheld []withheldClaim) bool {
	unknown := r.unknownIDs()
	for _, w := range withheld {
		if !unknown[w.member] {
			return true
		}
	}
	return false
}

// unknownIDs returns the IDs of the members whose claims the round could not
// read.
func (r *Round) unknownIDs() map[string]bool {
	ids := make(map[string]bool)
	for _, mem := range r.members {
		if mem.unknown {
			ids[mem.m.ID] = true
		}
	}
	return ids
}

// nudge takes from the plan the first partition (in flat order) that its
// holder holds already and claims with a claim the round could read, so
// that the holder revokes it and rejoins at once: a plan that withholds
// partitions only for members whose claims are unknown may otherwise wait
// for the next rebalance for its follow-up round, when the client cannot
// make the leader rejoin (Config.LeaderRejoins). It costs that partition
// one round. It reports false when no member holds anything it claims.
func (r *Round) nudge(ix *assignor.Index, fp *assignor.FlatPlan, taken *[]bool) (withheldClaim, bool) {
	unknown := r.unknownIDs()
	for p, h := range fp.Holder {
		if h < 0 || ix.Owner(int32(p)) != h || unknown[ix.Member(h).ID] {
			continue
		}
		fp.Holder[p] = -1
		if *taken == nil {
			*taken = make([]bool, len(fp.Holder))
		}
		(*taken)[p] = true
		topic, id := ix.Partition(int32(p))
		member := ix.Member(h).ID
		r.l.log.Info("took one partition from the member that holds it, so that it revokes it and rejoins: the follow-up round needs a member to rejoin",
			"member", member, "topic", topic, "partition", id)
		return withheldClaim{topic: topic, partition: id, member: member, generation: ix.Generation(h)}, true
	}
	return withheldClaim{}, false
}

// collect returns the claims claims yields, canonical.
func collect(claims func(func(string, []int32) bool)) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for topic, ids := range claims {
		out = append(out, assignor.TopicPartitions{Topic: topic, Partitions: ids})
	}
	return assignor.NormalizeTopicPartitions(out)
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
