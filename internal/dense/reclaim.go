package dense

import "slices"

// Reclaim replaces one member's claims in [Reclaimed].
type Reclaim[T TopicPartitions] struct {
	Generation int32
	Owned      []T // the member's claims, a topic and some of its partition IDs at a time
}

// Reclaimed returns a new Index of the same group as ix in which each
// member m of replace claims what replace[m] says, at its generation,
// instead of what it claimed; every other member keeps its claims. Member
// and topic numbers are the same as in ix, and ix is not modified: the new
// Index shares ix's members, topics and subscriptions (read-only in both)
// and reads the claims again, O(P + C log C) for P partitions and C claims.
func Reclaimed[T TopicPartitions](ix *Index, replace map[int32]Reclaim[T]) *Index {
	b := Builder{ix: Index{
		// What Organize derives from the members and topics is the same as
		// ix's and read-only: shared, not rebuilt.
		Members: ix.Members, Topics: ix.Topics, TopicStart: ix.TopicStart,
		Subscriptions: ix.Subscriptions, Subscribers: ix.Subscribers,
		topicByName: ix.topicByName, contiguous: ix.contiguous,
		Generation: slices.Clone(ix.Generation),
	}}
	for m := range ix.Members {
		claims := len(ix.Claims[m])
		if r, ok := replace[int32(m)]; ok {
			b.ix.Generation[m], claims = max(r.Generation, NoGeneration), 0
			for _, tp := range r.Owned {
				claims += len(Run(tp).Partitions)
			}
		}
		b.numClaims += claims
	}
	b.prepareClaims()
	for m := range ix.Members {
		if r, ok := replace[int32(m)]; ok {
			for _, tp := range r.Owned {
				b.Claim(int32(m), Run(tp).Topic, Run(tp).Partitions)
			}
			continue
		}
		ix.replay(int32(m), &b)
	}
	return b.Finish()
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
