package assignor

import (
	"cmp"
	"errors"
	"iter"
	"slices"

	"github.com/kgroup/assignor/internal/dense"
)

// IndexBuilder builds an [Index] straight from a client's decoded
// metadata, without an intermediate [Group]: an adapter feeds it each topic
// and each member as the client hands them over, and the owned partitions
// through an iterator over the client's own structures, so nothing is
// copied per partition. Its zero value is ready to use; use a builder once.
//
// The builder keeps the slices it is given (topic names, partition lists,
// member topics and user data, the slices the iterators yield) and the
// Index it builds may alias them: they must not change while the Index is
// in use. The order of topics and members does not matter.
//
// An adapter then hands the Index to an [IndexAssignor], or to any
// assignor's Assign through [Index.Group].
type IndexBuilder struct {
	b       dense.Builder
	members []Member
	owned   []iter.Seq2[string, []int32] // per member: its claims, or nil for Member.Owned
	built   bool
}

var errBuilderUsed = errors.New("assignor: IndexBuilder.Build called twice")

// Grow is a capacity hint: room for topics more topics and members more
// members, and one allocation for claims more claimed partitions (the
// partitions an owned iterator of AddMember yields, which the builder cannot
// count before Build). Adding more than the hint still works; negative
// counts read as 0. O(topics + members).
func (b *IndexBuilder) Grow(topics, members, claims int) {
	b.members = slices.Grow(b.members, max(members, 0))
	b.owned = slices.Grow(b.owned, max(members, 0))
	b.b.Grow(topics, members, claims)
}

// AddTopic adds one topic of the metadata.
func (b *IndexBuilder) AddTopic(t Topic) { b.b.AddTopic(dense.Topic(t)) }

// AddMember adds one member. owned yields the partitions it claims, a topic
// and some of its partition IDs at a time, in any order; nil means m.Owned.
// The iterator runs once, during Build.
func (b *IndexBuilder) AddMember(m Member, owned iter.Seq2[string, []int32]) {
	b.members = append(b.members, m)
	b.owned = append(b.owned, owned)
	b.addMember(&b.members[len(b.members)-1])
}

func (b *IndexBuilder) addMember(m *Member) {
	b.b.AddMember(dense.Member{ID: m.ID, InstanceID: m.InstanceID, Rack: m.Rack, Topics: m.Topics, UserData: m.UserData}, m.Generation, CountPartitions(m.Owned))
}

// Build builds the Index. It fails as [NewIndex] does, for a group that
// cannot be assigned at all.
func (b *IndexBuilder) Build() (*Index, error) {
	if b.built {
		return nil, errBuilderUsed
	}
	b.built = true
	if v := b.b.Organize(); v != nil {
		return nil, violationError(nil, *v)
	}
	for m, mem := range b.b.Members() {
		if owned := b.owned[mem.Input]; owned != nil {
			for topic, ids := range owned {
				b.b.Claim(int32(m), topic, ids)
			}
			continue
		}
		dense.ClaimRuns(&b.b, int32(m), b.members[mem.Input].Owned)
	}
	d := b.b.Finish()
	ix := &Index{d: d, members: make([]*Member, len(d.Members)), rebuild: true}
	for m, mem := range d.Members {
		ix.members[m] = &b.members[mem.Input]
	}
	return ix, nil
}

// Group returns the group the index describes: the one given to
// [NewIndex], or, for an Index an [IndexBuilder] built, a group rebuilt
// from it on the first call (members in member ID order, each member's
// Owned as topic lists of what it claimed, inside and outside the metadata;
// topics in name order with their partitions sorted and deduplicated). It
// aliases the index; it must not be modified.
func (ix *Index) Group() Group {
	if !ix.rebuild {
		return ix.group
	}
	ix.groupOnce.Do(func() { ix.group = ix.rebuildGroup() })
	return ix.group
}

// rebuildGroup returns the group the index describes, with every member's
// claims as its Owned.
func (ix *Index) rebuildGroup() Group {
	d := ix.d
	g := Group{Members: make([]Member, len(ix.members)), Topics: make([]Topic, len(d.Topics))}
	for t, topic := range d.Topics {
		g.Topics[t] = Topic(topic)
	}
	for m, mem := range ix.members {
		g.Members[m] = *mem
		g.Members[m].Owned = ix.owned(int32(m))
	}
	return g
}

// owned returns member m's claims, inside and outside the metadata, as
// topic lists sorted by topic and partition.
func (ix *Index) owned(m int32) []TopicPartitions {
	d := ix.d
	from, to := d.OutsideRange(m)
	type claim struct {
		topic string
		id    int32
	}
	claims := make([]claim, 0, len(d.Claims[m])+to-from)
	for _, p := range d.Claims[m] {
		topic, id := d.Partition(p)
		claims = append(claims, claim{topic, id})
	}
	for _, oc := range d.Outside[from:to] {
		claims = append(claims, claim{oc.Topic, oc.Partition})
	}
	slices.SortFunc(claims, func(a, b claim) int { return cmp.Or(cmp.Compare(a.topic, b.topic), cmp.Compare(a.id, b.id)) })
	var owned []TopicPartitions
	for _, c := range claims {
		if n := len(owned); n == 0 || owned[n-1].Topic != c.topic {
			owned = append(owned, TopicPartitions{Topic: c.topic})
		}
		last := &owned[len(owned)-1]
		last.Partitions = append(last.Partitions, c.id)
	}
	return owned
}
