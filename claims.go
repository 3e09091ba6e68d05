package assignor

import (
	"cmp"
	"slices"
)

// OutsideReason says why a claim is outside the leader's metadata (see
// [Index.Outside]).
type OutsideReason uint8

const (
	// UnknownTopic: the metadata lacks the topic (new to this leader, or
	// deleted).
	UnknownTopic OutsideReason = iota + 1
	// UnknownPartition: the topic is known but the partition ID, though not
	// negative, is not among its partitions (a partition expansion the leader
	// has not seen yet, or a bad claim).
	UnknownPartition
	// NegativePartition: a partition ID below zero, which cannot exist.
	NegativePartition
)

func (r OutsideReason) String() string {
	switch r {
	case UnknownTopic:
		return "unknown topic"
	case UnknownPartition:
		return "unknown partition"
	case NegativePartition:
		return "negative partition"
	}
	return "outside(" + itoa(int64(r)) + ")"
}

// OutsideClaim is a member's claim on a partition outside the leader's
// metadata.
type OutsideClaim struct {
	Member     int32 // member number
	Topic      string
	Partition  int32
	Generation int32
	Reason     OutsideReason
	// Valid reports whether Member is the unique highest-generation
	// claimant of this topic and partition among the outside claims (never
	// for a negative partition), the same rule as [Index.Owner] applies
	// inside the metadata.
	Valid bool
}

// Outside returns the claims outside the metadata, each partition once per
// member, sorted by member, then topic, then partition: a member's outside
// claims are contiguous. Cooperative assignors give a valid one back to its
// claimer (see package cooperative); eager ones ignore them.
func (ix *Index) Outside() []OutsideClaim { return ix.outside }

// CouldExist reports whether the partition of an outside claim may exist
// all the same: its topic is unknown to the leader (new, or deleted), or its
// number is at or beyond the topic's known partition count (an expansion the
// leader has not seen). A negative partition, or a gap in a known topic's
// partition list, cannot.
func (ix *Index) CouldExist(oc OutsideClaim) bool {
	switch oc.Reason {
	case UnknownTopic:
		return true
	case UnknownPartition:
		t, _ := ix.TopicNumber(oc.Topic)
		return int(oc.Partition) >= len(ix.topics[t].Partitions)
	}
	return false
}

// prepareClaims sizes the claim state once the members and topics are
// organized.
func (b *IndexBuilder) prepareClaims() {
	ix := &b.ix
	ix.claims = make([][]int32, len(ix.members))
	ix.owner = make([]int32, ix.NumPartitions())
	for p := range ix.owner {
		ix.owner[p] = Unclaimed
	}
	b.backing = make([]int32, 0, b.numClaims)
	b.claiming, b.sorted, b.cursor = 0, true, ix.topicCursor()
}

// claim records that member m (a member number) claims the partitions ids
// of the topic named topic, at its generation. Calls come in member number
// order, after [IndexBuilder.advance] to m; a member may be given several
// calls, and may list a partition more than once (it claims it once).
//
// The valid owner of each partition is settled as claims are read: the
// owner's generation is its member's, except for a contested partition,
// whose tied generation is kept aside until a higher claim resolves it.
func (b *IndexBuilder) claim(m int32, topic string, ids []int32) {
	ix := &b.ix
	gen := ix.generation[m]
	t, known := b.cursor.find(topic)
	var first, n int32
	if known {
		first, n = ix.topicStart[t], ix.topicStart[t+1]-ix.topicStart[t]
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
		if ix.owner[p] == Unclaimed {
			ix.owner[p] = m // the common case, without a call
		} else {
			b.settle(m, p, gen)
		}
	}
}

// settle records member m's claim on flat partition p at generation gen
// against the claims read so far.
func (b *IndexBuilder) settle(m, p, gen int32) {
	ix := &b.ix
	switch o := ix.owner[p]; {
	case o == Unclaimed:
		ix.owner[p] = m
	case o == m: // listed twice
	case o == Contested:
		if gen > b.tied[p] {
			ix.owner[p] = m
			delete(b.tied, p)
		}
	default:
		switch og := ix.generation[o]; {
		case gen > og:
			ix.owner[p] = m
		case gen == og:
			if b.tied == nil {
				b.tied = map[int32]int32{}
			}
			ix.owner[p], b.tied[p] = Contested, gen
		}
	}
}

// advance closes the claim lists of the members before m.
func (b *IndexBuilder) advance(m int32) {
	for b.claiming < m { // rarely more than once: members claim in order
		b.closeClaims()
	}
}

// closeClaims cuts member b.claiming's claims from the backing array,
// sorted and deduplicated, and moves on to the next member.
func (b *IndexBuilder) closeClaims() {
	claims := b.backing[b.start:len(b.backing):len(b.backing)]
	if !b.sorted {
		slices.Sort(claims)
		claims = slices.Compact(claims)
	}
	b.ix.claims[b.claiming] = claims
	b.claiming++
	b.start, b.sorted = len(b.backing), true
	b.cursor = b.ix.topicCursor()
}

// finish classifies the claims read and returns the Index. The builder
// must not be used afterwards.
func (b *IndexBuilder) finish() *Index {
	ix := &b.ix
	for int(b.claiming) < len(ix.members) {
		b.closeClaims()
	}
	ix.classifyOutside()
	return ix
}

func (ix *Index) addOutside(m int32, topic string, id, gen int32, reason OutsideReason) {
	ix.outside = append(ix.outside, OutsideClaim{Member: m, Topic: topic, Partition: id, Generation: gen, Reason: reason})
}

// classifyOutside deduplicates the outside claims, marks the valid one of
// each partition (its unique highest-generation claimant) and sorts them by
// member, topic, partition.
func (ix *Index) classifyOutside() {
	out := ix.outside
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
	ix.outside = out
}

func compareOutside(a, b OutsideClaim) int {
	return cmp.Or(cmp.Compare(a.Member, b.Member), cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
}

// findOutside returns the position in ix.outside of member m's claim on
// (topic, id). O(log C).
func (ix *Index) findOutside(m int32, topic string, id int32) (int, bool) {
	return slices.BinarySearchFunc(ix.outside, OutsideClaim{Member: m, Topic: topic, Partition: id}, compareOutside)
}

// outsideOf returns member m's outside claims. O(log C).
func (ix *Index) outsideOf(m int32) []OutsideClaim {
	from, _ := slices.BinarySearchFunc(ix.outside, m, func(oc OutsideClaim, m int32) int { return cmp.Compare(oc.Member, m) })
	to := from
	for to < len(ix.outside) && ix.outside[to].Member == m {
		to++
	}
	return ix.outside[from:to]
}

// lookahead is how many topics past the last one found a cursor tries
// before a map lookup or a search.
const lookahead = 4

// topicCursor resolves topic names to topic numbers for a caller that asks
// them mostly in ascending order, as sorted subscriptions, claims and plans
// list them: it first tries the few topics after the last one found
// (comparing names that usually share their bytes, so equality is cheap)
// and falls back to a map lookup. Any order of names gives correct answers.
type topicCursor struct {
	ix *Index
	t  int32
}

// topicCursor returns a cursor positioned before the first topic.
func (ix *Index) topicCursor() topicCursor { return topicCursor{ix: ix, t: -1} }

// find returns the number of the topic named name.
func (c *topicCursor) find(name string) (int32, bool) {
	topics := c.ix.topics
	for n := c.t + 1; n <= c.t+lookahead && int(n) < len(topics); n++ {
		if topics[n].Name == name {
			c.t = n
			return n, true
		}
	}
	t, ok := c.ix.topicByName[name]
	if ok {
		c.t = t
	}
	return t, ok
}
