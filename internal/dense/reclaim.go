package dense

import "iter"

// Reclaim replaces one member's claims in [Index.Reclaimed].
type Reclaim struct {
	Generation int32
	// Owned yields the member's claims: a topic and some of its partition
	// IDs at a time.
	Owned iter.Seq2[string, []int32]
}

// Reclaimed returns a new Index of the same group in which each member m
// of replace claims what replace[m] says, at its generation, instead of
// what it claimed; every other member keeps its claims. Member and topic
// numbers are the same as in ix, and ix is not modified. It costs a new
// build of the index: O(P + C log C + M log M). It fails only as
// [Builder.Organize] does, which it cannot for the members and topics of an
// Index.
func (ix *Index) Reclaimed(replace map[int32]Reclaim) (*Index, *Violation) {
	var b Builder
	for _, t := range ix.Topics {
		b.AddTopic(t)
	}
	for m, mem := range ix.Members {
		gen, claims := ix.Generation[m], len(ix.Claims[m])
		if r, ok := replace[int32(m)]; ok {
			gen, claims = r.Generation, 0
		}
		b.AddMember(mem, gen, claims)
	}
	if v := b.Organize(); v != nil {
		return nil, v
	}
	for m := range ix.Members {
		if r, ok := replace[int32(m)]; ok {
			for topic, ids := range r.Owned {
				b.Claim(int32(m), topic, ids)
			}
			continue
		}
		ix.replay(int32(m), &b)
	}
	return b.Finish(), nil
}

// replay feeds member m's claims, inside and outside the metadata, to b.
func (ix *Index) replay(m int32, b *Builder) {
	claims := ix.Claims[m]
	for i := 0; i < len(claims); {
		t := ix.TopicOf(claims[i])
		end := ix.TopicStart[t+1]
		ids := make([]int32, 0, 8)
		for ; i < len(claims) && claims[i] < end; i++ {
			ids = append(ids, ix.Topics[t].Partitions[claims[i]-ix.TopicStart[t]])
		}
		b.Claim(m, ix.Topics[t].Name, ids)
	}
	from, to := ix.OutsideRange(m)
	for _, oc := range ix.Outside[from:to] {
		b.Claim(m, oc.Topic, []int32{oc.Partition})
	}
}
