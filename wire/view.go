package wire

import (
	"bytes"
	"iter"
	"strings"
)

// SubscriptionView is a subscription a [SubscriptionDecoder] decoded, whose
// owned partitions are left in the input, read on demand: a leader that
// hands them straight to an [assignor.IndexBuilder] never materialises them
// as []assignor.TopicPartitions.
//
// Its Subscription fields but Owned are decoded as [DecodeSubscription]
// decodes them and never alias the input. Owned is nil: the owned
// partitions are read by [SubscriptionView.OwnedPartitions] from the input,
// which the view keeps (it aliases it, as [bytes.Buffer.Bytes] aliases its
// buffer): the input must not change while the view is in use.
type SubscriptionView struct {
	Subscription
	b     []byte
	owned tpShape
}

// OwnedAbsent reports whether the subscription is version 1 or above but
// ends before its owned partitions, so that it reads as owning none: a
// subscription cut short (franz-go issue #493), which says nothing of what
// the member owns.
func (v *SubscriptionView) OwnedAbsent() bool { return v.Version >= 1 && v.owned.start == 0 }

// OwnedCount returns the number of owned partitions (entries repeated in
// the input count each time).
func (v *SubscriptionView) OwnedCount() int { return v.owned.partitions }

// OwnedPartitions returns an iterator over the owned entries in input order:
// each topic name and its partitions. The name is one of v.Topics when it
// equals one (no allocation), else a new string. The partitions are read
// into scratch when it has room for all [SubscriptionView.OwnedCount] of
// them (no allocation), else into one new array per iteration; each entry
// has its own part, capacity clipped, which later entries never overwrite:
// the slices yielded alias scratch, and stay valid while scratch is not
// reused. An entry with no partitions yields nil.
func (v *SubscriptionView) OwnedPartitions(scratch []int32) iter.Seq2[string, []int32] {
	b, sh, topics := v.b, v.owned, v.Topics
	return func(yield func(string, []int32) bool) {
		if sh.entries == 0 {
			return
		}
		parts := scratch
		if cap(parts) < sh.partitions {
			parts = make([]int32, sh.partitions)
		}
		parts = parts[:cap(parts)]
		off, hint := sh.start+4, 0
		for range sh.entries {
			var topic string
			topic, hint, off = readTopic(b, off, topics, hint)
			m := int(int32(be.Uint32(b[off:])))
			off += 4
			var ps []int32
			if m > 0 {
				ps, parts = parts[:m:m], parts[m:]
				for j := range ps {
					ps[j] = int32(be.Uint32(b[off+4*j:]))
				}
				off += 4 * m
			}
			if !yield(topic, ps) {
				return
			}
		}
	}
}

// Materialize returns the Subscription with Owned decoded, as
// [DecodeSubscription] returns it; it shares v's other fields.
func (v *SubscriptionView) Materialize() Subscription {
	s := v.Subscription
	var names strings.Builder
	names.Grow(v.owned.names)
	s.Owned = readTopicPartitions(v.b, v.owned, &names)
	return s
}

// readTopic reads the checked string at off, taking it from topics when it
// equals one of them: topics[hint] first (owned entries usually follow the
// sorted subscription), then the others. It returns the string, the next
// hint and the offset after the string.
func readTopic(b []byte, off int, topics []string, hint int) (string, int, int) {
	n := max(int(int16(be.Uint16(b[off:]))), 0)
	off += 2
	name := b[off : off+n]
	for i := range topics {
		j := (hint + i) % len(topics)
		if topics[j] == string(name) {
			return topics[j], j + 1, off + n
		}
	}
	return string(name), hint, off + n
}

// A SubscriptionDecoder decodes the subscriptions of one group's members,
// one after the other, into views ([SubscriptionView]), sharing what they
// share: a subscription whose topics array is byte for byte the one decoded
// just before gets the same Topics slice, not a copy (the members of a group
// mostly subscribe alike), and likewise for UserData (the cooperative user
// data of members of one generation). It is the leader's fast path;
// [DecodeSubscription] decodes one subscription whole. Its zero value is
// ready to use.
//
// The Topics and UserData slices it returns may alias one another: a caller
// that changes one copies it first. It keeps the last input's topics and
// user data bytes until the next call.
type SubscriptionDecoder struct {
	lastTopics, lastUserData []byte   // as encoded in the last subscription decoded
	topics                   []string // its Topics
	userData                 []byte   // its UserData
}

// Decode decodes b as [DecodeSubscription] does, with the same errors for
// the same inputs, but leaves the owned partitions in b (see
// [SubscriptionView]).
func (d *SubscriptionDecoder) Decode(b []byte) (SubscriptionView, error) {
	sh, err := scanSubscription(b)
	if err != nil {
		return SubscriptionView{}, err
	}
	rawTopics := b[sh.topics.start:sh.userDataAt]
	rawUserData := b[sh.userDataAt : sh.userDataAt+4+max(int(int32(be.Uint32(b[sh.userDataAt:]))), 0)]
	var names strings.Builder
	s := Subscription{Version: sh.version, Topics: d.topics, UserData: d.userData, Generation: sh.generation}
	if sameTopics := sh.topics.entries > 0 && bytes.Equal(rawTopics, d.lastTopics); !sameTopics {
		names.Grow(sh.topics.bytes + sh.rackLen)
		s.Topics = readStrings(b, sh.topics, &names)
		d.lastTopics, d.topics = rawTopics, s.Topics
	}
	if !bytes.Equal(rawUserData, d.lastUserData) {
		s.UserData = readBytes(b, sh.userDataAt)
		d.lastUserData, d.userData = rawUserData, s.UserData
	}
	if sh.rackAt >= 0 {
		s.Rack, _ = readString(b, sh.rackAt, &names)
	}
	return SubscriptionView{Subscription: s, b: b, owned: sh.owned}, nil
}
