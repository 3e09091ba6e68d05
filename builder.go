package assignor

import (
	"cmp"
	"errors"
	"iter"
	"slices"
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
// An adapter then hands the Index to an assignor's fast path
// ([FlatAssignor], [IndexAssignor]), or to any assignor's Assign through
// [Index.Group].
type IndexBuilder struct {
	ix          Index
	members     []Member      // by input position
	owned       []ownedSource // by input position: the member's claims, or nil for Member.Owned
	generations []int32       // by input position
	numClaims   int           // a hint: the claims expected
	built       bool

	// Claim state: the member being read, where its claims start in
	// backing, whether they came sorted, and contested partitions' tied
	// generations.
	claiming int32
	cursor   topicCursor // over the topic names of the member's claims
	start    int
	sorted   bool
	backing  []int32
	tied     map[int32]int32
}

// ownedSource yields one member's claims, a topic and some of its
// partition IDs at a time.
type ownedSource = iter.Seq2[string, []int32]

var errBuilderUsed = errors.New("assignor: IndexBuilder.Build called twice")

// Grow is a capacity hint: room for topics more topics and members more
// members, and one allocation for claims more claimed partitions (the
// partitions an owned iterator of AddMember yields, which the builder cannot
// count before Build). Adding more than the hint still works; negative
// counts read as 0. O(topics + members).
func (b *IndexBuilder) Grow(topics, members, claims int) {
	members = max(members, 0)
	b.ix.topics = slices.Grow(b.ix.topics, max(topics, 0))
	b.members = slices.Grow(b.members, members)
	b.owned = slices.Grow(b.owned, members)
	b.ix.members = slices.Grow(b.ix.members, members)
	b.generations = slices.Grow(b.generations, members)
	b.numClaims += max(claims, 0)
}

// AddTopic adds one topic of the metadata.
func (b *IndexBuilder) AddTopic(t Topic) { b.ix.topics = append(b.ix.topics, t) }

// AddMember adds one member. owned yields the partitions it claims, a topic
// and some of its partition IDs at a time, in any order; nil means m.Owned.
// The iterator runs once, during Build.
func (b *IndexBuilder) AddMember(m Member, owned iter.Seq2[string, []int32]) {
	b.members = append(b.members, m)
	b.owned = append(b.owned, owned)
	b.addMember(&b.members[len(b.members)-1])
}

// addMember records member m, whose claims come from b.owned at the same
// input position or from m.Owned.
func (b *IndexBuilder) addMember(m *Member) {
	b.ix.members = append(b.ix.members, m)
	b.generations = append(b.generations, max(m.Generation, NoGeneration))
	b.numClaims += CountPartitions(m.Owned)
}

// Build builds the Index. It fails as [NewIndex] does, for a group that
// cannot be assigned at all.
func (b *IndexBuilder) Build() (*Index, error) {
	if b.built {
		return nil, errBuilderUsed
	}
	b.built = true
	if v := b.organize(); v != nil {
		return nil, v.toError(nil)
	}
	for m := range b.ix.members {
		in := b.ix.input[m]
		b.advance(int32(m))
		if owned := b.owned[in]; owned != nil {
			// The member's Owned is the builder's copy: what the caller set
			// there is not its claims, so the Index shows none.
			b.ix.members[m].Owned = nil
			for topic, ids := range owned {
				b.claim(int32(m), topic, ids)
			}
			continue
		}
		for _, tp := range b.ix.members[m].Owned {
			b.claim(int32(m), tp.Topic, tp.Partitions)
		}
	}
	ix := b.finish()
	ix.rebuild = true
	return ix, nil
}

// organize numbers the members by ID and the topics by name, normalises
// each topic's partitions and resolves every member's subscriptions. It
// fails, naming the culprit, for a group that cannot be assigned at all.
func (b *IndexBuilder) organize() *violation {
	if v := b.organizeMembers(); v != nil {
		return v
	}
	if v := b.organizeTopics(); v != nil {
		return v
	}
	b.ix.resolveSubscriptions()
	b.prepareClaims()
	return nil
}

func (b *IndexBuilder) organizeMembers() *violation {
	ix := &b.ix
	ix.input = make([]int32, len(ix.members))
	for i := range ix.input {
		ix.input[i] = int32(i)
	}
	slices.SortFunc(ix.input, func(x, y int32) int { return cmp.Compare(ix.members[x].ID, ix.members[y].ID) })
	slices.SortFunc(ix.members, func(x, y *Member) int { return cmp.Compare(x.ID, y.ID) })
	ix.generation = make([]int32, len(ix.members))
	for m, mem := range ix.members {
		ix.generation[m] = b.generations[ix.input[m]]
		if mem.ID == "" {
			return &violation{err: ErrEmptyMemberID, member: -1, partition: -1, generation: NoGeneration}
		}
		if m > 0 && ix.members[m-1].ID == mem.ID {
			return &violation{err: ErrDuplicateMember, member: -1, memberID: mem.ID, partition: -1, generation: NoGeneration}
		}
	}
	return nil
}

func (b *IndexBuilder) organizeTopics() *violation {
	ix := &b.ix
	slices.SortFunc(ix.topics, func(a, b Topic) int { return cmp.Compare(a.Name, b.Name) })
	ix.topicByName = make(map[string]int32, len(ix.topics))
	ix.topicStart = make([]int32, len(ix.topics)+1)
	ix.contiguous = make([]bool, len(ix.topics))
	var total int32
	for t := range ix.topics {
		tp := &ix.topics[t]
		var err error
		switch {
		case tp.Name == "":
			err = ErrEmptyTopicName
		case t > 0 && ix.topics[t-1].Name == tp.Name:
			err = ErrDuplicateTopic
		case tp.ReplicaRacks != nil && len(tp.ReplicaRacks) != len(tp.Partitions):
			err = ErrReplicaRacks
		case !validWeights(tp):
			err = ErrWeights
		}
		if err != nil {
			return &violation{err: err, member: -1, topic: tp.Name, partition: -1, generation: NoGeneration}
		}
		normalizePartitions(tp)
		ix.topicByName[tp.Name] = int32(t)
		ix.topicStart[t] = total
		n := int32(len(tp.Partitions))
		ix.contiguous[t] = n == 0 || tp.Partitions[n-1] == n-1
		total += n
	}
	ix.topicStart[len(ix.topics)] = total
	return nil
}

// validWeights reports whether t's weights, if any, have one entry per
// partition, none below UnknownWeight.
func validWeights(t *Topic) bool {
	if t.Weights == nil {
		return true
	}
	return len(t.Weights) == len(t.Partitions) && !slices.ContainsFunc(t.Weights, func(w int64) bool { return w < UnknownWeight })
}

// normalizePartitions sorts and dedupes t's partitions, dropping negatives,
// without touching the caller's slices unless they are already canonical.
// A partition listed more than once keeps one entry whatever the order of
// its listings: the largest of their weights (UnknownWeight below any
// other), and the union of their replica racks, sorted.
func normalizePartitions(t *Topic) {
	ps := t.Partitions
	canonical := true
	for i, p := range ps {
		if p < 0 || (i > 0 && ps[i-1] >= p) {
			canonical = false
			break
		}
	}
	if canonical {
		return
	}
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ps[a], ps[b]) })
	out := make([]int32, 0, len(ps))
	var racks [][]string
	if t.ReplicaRacks != nil {
		racks = make([][]string, 0, len(ps))
	}
	var weights []int64
	if t.Weights != nil {
		weights = make([]int64, 0, len(ps))
	}
	for k, i := range order {
		p := ps[i]
		if p < 0 {
			continue
		}
		if k > 0 && ps[order[k-1]] == p {
			// A duplicate of the entry just added.
			last := len(out) - 1
			if racks != nil {
				racks[last] = slices.Compact(slices.Sorted(slices.Values(append(slices.Clip(racks[last]), t.ReplicaRacks[i]...))))
			}
			if weights != nil {
				weights[last] = max(weights[last], t.Weights[i])
			}
			continue
		}
		out = append(out, p)
		if racks != nil {
			racks = append(racks, t.ReplicaRacks[i])
		}
		if weights != nil {
			weights = append(weights, t.Weights[i])
		}
	}
	t.Partitions, t.ReplicaRacks, t.Weights = out, racks, weights
}

// resolveSubscriptions fills subscriptions and subscribers. Groups usually
// hold a few distinct subscriptions shared by many members: the resolved
// list of a recent identical one is reused instead of looking every topic
// name up again (the lists are read-only).
func (ix *Index) resolveSubscriptions() {
	ix.subscriptions = make([][]int32, len(ix.members))
	type resolved struct {
		raw  []string
		subs []int32
	}
	var recent []resolved
	// subscribers[t]: topic t's subscribers, so that every subscribers list
	// is cut from one array.
	subscribers := make([]int32, len(ix.topics))
	total := 0
	for m, mem := range ix.members {
		var subs []int32
		for _, r := range recent {
			if slices.Equal(r.raw, mem.Topics) {
				subs = r.subs
				break
			}
		}
		if subs == nil {
			subs = ix.resolve(mem.Topics)
			if len(recent) == 4 {
				recent = recent[1:]
			}
			recent = append(recent, resolved{mem.Topics, subs})
		}
		ix.subscriptions[m] = subs
		for _, t := range subs {
			subscribers[t]++
		}
		total += len(subs)
	}
	ix.subscribers = make([][]int32, len(ix.topics))
	backing := make([]int32, total)
	at := int32(0)
	for t, n := range subscribers {
		if n > 0 {
			ix.subscribers[t] = backing[at : at : at+n]
			at += n
		}
	}
	for m, subs := range ix.subscriptions {
		for _, t := range subs {
			ix.subscribers[t] = append(ix.subscribers[t], int32(m))
		}
	}
}

// resolve returns the numbers of the topics named in names that the
// metadata has, ascending and distinct.
func (ix *Index) resolve(names []string) []int32 {
	subs := make([]int32, 0, len(names))
	cur := ix.topicCursor()
	for _, name := range names {
		if t, ok := cur.find(name); ok {
			subs = append(subs, t)
		}
	}
	slices.Sort(subs)
	return slices.Compact(subs)
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
	g := Group{Members: make([]Member, len(ix.members)), Topics: slices.Clone(ix.topics)}
	outside := ix.outside
	for m, mem := range ix.members {
		n := 0
		for n < len(outside) && outside[n].Member == int32(m) {
			n++
		}
		g.Members[m] = *mem
		g.Members[m].Owned = ix.owned(int32(m), outside[:n])
		outside = outside[n:]
	}
	return g
}

// owned returns member m's claims, inside the metadata and outside it
// (outside, the member's outside claims), as topic lists sorted by topic
// and partition.
func (ix *Index) owned(m int32, outside []OutsideClaim) []TopicPartitions {
	type claim struct {
		topic string
		id    int32
	}
	claims := make([]claim, 0, len(ix.claims[m])+len(outside))
	for _, p := range ix.claims[m] {
		topic, id := ix.Partition(p)
		claims = append(claims, claim{topic, id})
	}
	for _, oc := range outside {
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
