package cooperative

import (
	"slices"

	"github.com/kgroup/assignor"
)

// subscriptionCursor answers whether one member subscribes to topics asked
// mostly in ascending order, walking its subscription list forward instead
// of searching it; a topic asked out of order is searched.
type subscriptionCursor struct {
	subs []int32
	j    int
}

func (c *subscriptionCursor) has(t int32) bool {
	for c.j < len(c.subs) && c.subs[c.j] < t {
		c.j++
	}
	if c.j < len(c.subs) && c.subs[c.j] == t {
		return true
	}
	_, ok := slices.BinarySearch(c.subs, t)
	return ok
}

// lookahead is how many topics past the last answer topicOf tries before
// searching.
const lookahead = 4

// topicOf returns the topic of flat partition p for a caller walking
// partitions in ascending order: it tries the topics after t (the last
// answer, or -1) before searching.
func topicOf(ix *assignor.Index, t, p int32) int32 {
	for n := t + 1; n <= t+lookahead && int(n) < len(ix.Topics); n++ {
		if p >= ix.TopicStart[n] && p < ix.TopicStart[n+1] {
			return n
		}
	}
	return ix.TopicOf(p)
}

// flat returns the flat number of partition id of topic t, like
// [assignor.Index.Flat], with the common case (a topic whose partitions are
// 0..n-1) inlined.
func flat(ix *assignor.Index, t, id int32) (int32, bool) {
	ps := ix.Topics[t].Partitions
	if n := int32(len(ps)); n > 0 && ps[n-1] == n-1 {
		if id >= 0 && id < n {
			return ix.TopicStart[t] + id, true
		}
		return 0, false
	}
	return ix.Flat(t, id)
}
