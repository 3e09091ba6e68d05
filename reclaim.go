package assignor

import "slices"

// Reclaimed returns an Index of the same group as ix in which each member m
// of claims claims claims[m].Owned at generation claims[m].Generation
// instead of what it claims in ix (claims[m].Topics is not read); every other
// member keeps its claims. It is for an assignor that reads history from
// somewhere other than the members' owned partitions, as package sticky
// reads it from the user data of eager members that send none.
//
// Member, topic and partition numbers are the same as in ix, and ix is not
// modified: the new Index shares ix's members, topics and subscriptions
// (read-only in both) and classifies the claims again, O(P + C log C) for P
// partitions and C claims. Member numbers in claims out of range are
// ignored. Its Group is ix's group with the claims replaced.
func (ix *Index) Reclaimed(claims map[int32]MemberState) *Index {
	b := IndexBuilder{ix: Index{
		// What organize derives from the members and topics is the same as
		// ix's and read-only: shared, not rebuilt.
		members: ix.members, input: ix.input, topics: ix.topics, topicStart: ix.topicStart,
		subscriptions: ix.subscriptions, subscribers: ix.subscribers,
		topicByName: ix.topicByName, contiguous: ix.contiguous,
		generation: slices.Clone(ix.generation),
		rebuild:    true,
	}}
	for m := range ix.members {
		n := len(ix.claims[m]) + len(ix.outsideOf(int32(m)))
		if st, ok := claims[int32(m)]; ok {
			b.ix.generation[m], n = max(st.Generation, NoGeneration), CountPartitions(st.Owned)
		}
		b.numClaims += n
	}
	b.prepareClaims()
	for m := range ix.members {
		b.advance(int32(m))
		if st, ok := claims[int32(m)]; ok {
			for _, tp := range st.Owned {
				b.claim(int32(m), tp.Topic, tp.Partitions)
			}
			continue
		}
		ix.replay(int32(m), &b)
	}
	return b.finish()
}

// replay feeds member m's claims, inside and outside the metadata, to b.
func (ix *Index) replay(m int32, b *IndexBuilder) {
	claims := ix.claims[m]
	for i := 0; i < len(claims); {
		t := ix.TopicOf(claims[i])
		end := ix.topicStart[t+1]
		ids := make([]int32, 0, 8)
		for ; i < len(claims) && claims[i] < end; i++ {
			ids = append(ids, ix.topics[t].Partitions[claims[i]-ix.topicStart[t]])
		}
		b.claim(m, ix.topics[t].Name, ids)
	}
	for _, oc := range ix.outsideOf(m) {
		b.claim(m, oc.Topic, []int32{oc.Partition})
	}
}
