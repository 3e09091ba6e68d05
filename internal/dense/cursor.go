package dense

import "slices"

// lookahead is how many topics past the last one found a cursor tries
// before a map lookup or a search.
const lookahead = 4

// TopicCursor resolves topic names to topic numbers for a caller that asks
// them mostly in ascending order, as sorted subscriptions, claims and plans
// list them: it first tries the few topics after the last one found
// (comparing names that usually share their bytes, so equality is cheap)
// and falls back to a map lookup. Any order of names gives correct answers.
type TopicCursor struct {
	ix *Index
	t  int32
}

// TopicCursor returns a cursor positioned before the first topic.
func (ix *Index) TopicCursor() TopicCursor { return TopicCursor{ix: ix, t: -1} }

// Find returns the number of the topic named name.
func (c *TopicCursor) Find(name string) (int32, bool) {
	topics := c.ix.Topics
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

// SubscriptionCursor answers whether one member subscribes to topics asked
// mostly in ascending order, walking its subscription list forward instead
// of searching it; a topic asked out of order is searched.
type SubscriptionCursor struct {
	subs []int32
	j    int
}

// SubscriptionCursor returns a cursor over member m's subscriptions.
func (ix *Index) SubscriptionCursor(m int32) SubscriptionCursor {
	return SubscriptionCursor{subs: ix.Subscriptions[m]}
}

// Has reports whether the member subscribes to topic t.
func (c *SubscriptionCursor) Has(t int32) bool {
	for c.j < len(c.subs) && c.subs[c.j] < t {
		c.j++
	}
	if c.j < len(c.subs) && c.subs[c.j] == t {
		return true
	}
	_, ok := slices.BinarySearch(c.subs, t)
	return ok
}
