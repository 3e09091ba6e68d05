package dense

import (
	"cmp"
	"slices"
)

// Claim records that member m (a member number, see [Builder]) claims the
// partitions ids of the topic named topic, at its generation. Calls must
// come after [Builder.Organize], with m never decreasing; a member may be
// given several calls, and may list a partition more than once (it claims
// it once).
//
// The valid owner of each partition is settled as claims are read: the
// owner's generation is its member's, except for a contested partition,
// whose tied generation is kept aside until a higher claim resolves it.
func (b *Builder) Claim(m int32, topic string, ids []int32) {
	b.advance(m)
	b.claim(m, topic, ids)
}

// ClaimRuns is [Builder.Claim] for each of member m's owned runs.
func ClaimRuns[T TopicPartitions](b *Builder, m int32, owned []T) {
	b.advance(m)
	for _, tp := range owned {
		r := Run(tp)
		b.claim(m, r.Topic, r.Partitions)
	}
}

// claim is Claim for the member b is reading.
func (b *Builder) claim(m int32, topic string, ids []int32) {
	ix := &b.ix
	gen := ix.Generation[m]
	t, known := b.cursor.Find(topic)
	var first, n int32
	if known {
		first, n = ix.TopicStart[t], ix.TopicStart[t+1]-ix.TopicStart[t]
	}
	for _, id := range ids {
		var p int32
		switch {
		case id < 0:
			ix.addOutside(m, topic, id, gen, NegativePartition)
			continue
		case !known:
			ix.addOutside(m, topic, id, gen, UnknownTopic)
			continue
		case ix.contiguous[t] && id < n:
			p = first + id
		default:
			var ok bool
			if p, ok = ix.Flat(t, id); !ok {
				ix.addOutside(m, topic, id, gen, UnknownPartition)
				continue
			}
		}
		if len(b.backing) > b.start && p <= b.backing[len(b.backing)-1] {
			b.sorted = false
		}
		b.backing = append(b.backing, p)
		if ix.Owner[p] == Unclaimed {
			ix.Owner[p] = m // the common case, without a call
		} else {
			b.settle(m, p, gen)
		}
	}
}

// settle records member m's claim on flat partition p at generation gen
// against the claims read so far.
func (b *Builder) settle(m, p, gen int32) {
	ix := &b.ix
	switch o := ix.Owner[p]; {
	case o == Unclaimed:
		ix.Owner[p] = m
	case o == m: // listed twice
	case o == Contested:
		b.shared = true
		if gen > b.tied[p] {
			ix.Owner[p] = m
			delete(b.tied, p)
		}
	default:
		b.shared = true
		switch og := ix.Generation[o]; {
		case gen > og:
			ix.Owner[p] = m
		case gen == og:
			if b.tied == nil {
				b.tied = map[int32]int32{}
			}
			ix.Owner[p], b.tied[p] = Contested, gen
		}
	}
}

// advance closes the claim lists of the members before m.
func (b *Builder) advance(m int32) {
	for b.claiming < m { // rarely more than once: members claim in order
		b.closeClaims()
	}
}

// closeClaims cuts member b.claiming's claims from the backing array,
// sorted and deduplicated, and moves on to the next member.
func (b *Builder) closeClaims() {
	claims := b.backing[b.start:len(b.backing):len(b.backing)]
	if !b.sorted {
		slices.Sort(claims)
		claims = slices.Compact(claims)
	}
	b.ix.Claims[b.claiming] = claims
	b.claiming++
	b.start, b.sorted = len(b.backing), true
	b.cursor = b.ix.TopicCursor()
}

// Finish classifies the claims read and returns the Index. The builder must
// not be used afterwards.
func (b *Builder) Finish() *Index {
	ix := &b.ix
	for int(b.claiming) < len(ix.Members) {
		b.closeClaims()
	}
	if b.shared {
		b.findStale()
	}
	ix.classifyOutside()
	return ix
}

// findStale lists the claims below their partition's highest generation.
func (b *Builder) findStale() {
	ix := &b.ix
	for m, claims := range ix.Claims {
		gen := ix.Generation[m]
		for _, p := range claims {
			if o := ix.Owner[p]; o >= 0 && gen < ix.Generation[o] || o == Contested && gen < b.tied[p] {
				ix.Stale = append(ix.Stale, Claim{Member: int32(m), Partition: p, Generation: gen})
			}
		}
	}
}

func (ix *Index) addOutside(m int32, topic string, id, gen int32, reason OutsideReason) {
	ix.Outside = append(ix.Outside, OutsideClaim{Member: m, Topic: topic, Partition: id, Generation: gen, Reason: reason})
}

// classifyOutside deduplicates the outside claims, marks the valid one of
// each partition (its unique highest-generation claimant) and sorts them by
// member, topic, partition.
func (ix *Index) classifyOutside() {
	out := ix.Outside
	byPartition := func(a, b OutsideClaim) int {
		return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition), cmp.Compare(b.Generation, a.Generation), cmp.Compare(a.Member, b.Member))
	}
	slices.SortFunc(out, byPartition)
	out = slices.CompactFunc(out, func(a, b OutsideClaim) bool { return byPartition(a, b) == 0 })
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && out[j].Topic == out[i].Topic && out[j].Partition == out[i].Partition {
			j++
		}
		// out[i] has the highest generation of its run; valid if unique.
		out[i].Valid = out[i].Reason != NegativePartition && (j == i+1 || out[i+1].Generation < out[i].Generation)
		i = j
	}
	slices.SortFunc(out, compareOutside)
	ix.Outside = out
}
