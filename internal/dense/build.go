package dense

import (
	"cmp"
	"slices"
)

// Builder builds an [Index] in three steps:
//
//  1. [Builder.AddTopic] and [Builder.AddMember], in any order;
//  2. [Builder.Organize] numbers members and topics, normalises the
//     metadata and resolves subscriptions, or reports why the group cannot
//     be indexed;
//  3. [Builder.Claim] for each member's owned partitions, in member number
//     order (Index.Members[m].Input says which input member is number m),
//     then [Builder.Finish] classifies the claims.
//
// Claims come last and in member order so that they are classified as they
// are read, in one pass and one allocation for all of them. The builder
// keeps the slices it is given (topic names, partition lists, member
// topics); it copies a partition list only to sort it.
//
// Building costs O(P + C log C + M log M + S) for P partitions, C claims,
// M members and S subscription entries.
type Builder struct {
	ix          Index
	generations []int32 // by input position

	// Claim state: the member being read, where its claims start in
	// backing, whether they came sorted, and contested partitions' tied
	// generations.
	claiming  int32
	cursor    TopicCursor // over the topic names of the member's claims
	start     int
	sorted    bool
	backing   []int32
	tied      map[int32]int32
	shared    bool // some partition has two claimants
	numClaims int
}

// Grow makes room for topics more topics, members more members and claims
// more claimed partitions, so that adding them allocates nothing more.
// Negative counts read as 0.
func (b *Builder) Grow(topics, members, claims int) {
	b.ix.Topics = slices.Grow(b.ix.Topics, max(topics, 0))
	b.ix.Members = slices.Grow(b.ix.Members, max(members, 0))
	b.generations = slices.Grow(b.generations, max(members, 0))
	b.numClaims += max(claims, 0)
}

// AddTopic adds one topic of the metadata.
func (b *Builder) AddTopic(t Topic) { b.ix.Topics = append(b.ix.Topics, t) }

// AddMember adds one member with the generation of its claims (negative
// generations read as [NoGeneration]) and the number of partitions it
// claims (a hint for the claims' single allocation; it may be 0).
func (b *Builder) AddMember(m Member, generation int32, claims int) {
	m.Input = int32(len(b.ix.Members))
	b.ix.Members = append(b.ix.Members, m)
	b.generations = append(b.generations, max(generation, NoGeneration))
	b.numClaims += claims
}

// Organize numbers the members by ID and the topics by name, normalises
// each topic's partitions and resolves every member's subscriptions. It
// fails, naming the culprit, for a group that cannot be assigned at all: an
// empty or duplicate member ID ([EmptyMemberID], [DuplicateMember]), an
// empty or duplicate topic name ([EmptyTopicName], [DuplicateTopic]), or
// replica racks that do not match the partitions ([ReplicaRacksMismatch]),
// or bad weights ([BadWeights]).
func (b *Builder) Organize() *Violation {
	if v := b.organizeMembers(); v != nil {
		return v
	}
	if v := b.organizeTopics(); v != nil {
		return v
	}
	b.resolveSubscriptions()
	b.prepareClaims()
	return nil
}

// prepareClaims sizes the claim state once the members and topics are
// organized.
func (b *Builder) prepareClaims() {
	ix := &b.ix
	ix.Claims = make([][]int32, len(ix.Members))
	ix.Owner = make([]int32, ix.NumPartitions())
	for p := range ix.Owner {
		ix.Owner[p] = Unclaimed
	}
	b.backing = make([]int32, 0, b.numClaims)
	b.claiming, b.sorted, b.cursor = 0, true, ix.TopicCursor()
}

func (b *Builder) organizeMembers() *Violation {
	ix := &b.ix
	slices.SortFunc(ix.Members, func(a, b Member) int { return cmp.Compare(a.ID, b.ID) })
	ix.Generation = make([]int32, len(ix.Members))
	for m, mem := range ix.Members {
		ix.Generation[m] = b.generations[mem.Input]
		if mem.ID == "" {
			return &Violation{Rule: EmptyMemberID, Member: -1, Partition: -1, Generation: NoGeneration}
		}
		if m > 0 && ix.Members[m-1].ID == mem.ID {
			return &Violation{Rule: DuplicateMember, Member: -1, MemberID: mem.ID, Partition: -1, Generation: NoGeneration}
		}
	}
	return nil
}

func (b *Builder) organizeTopics() *Violation {
	ix := &b.ix
	slices.SortFunc(ix.Topics, func(a, b Topic) int { return cmp.Compare(a.Name, b.Name) })
	ix.topicByName = make(map[string]int32, len(ix.Topics))
	ix.TopicStart = make([]int32, len(ix.Topics)+1)
	ix.contiguous = make([]bool, len(ix.Topics))
	var total int32
	for t := range ix.Topics {
		tp := &ix.Topics[t]
		rule := Rule(0)
		switch {
		case tp.Name == "":
			rule = EmptyTopicName
		case t > 0 && ix.Topics[t-1].Name == tp.Name:
			rule = DuplicateTopic
		case tp.ReplicaRacks != nil && len(tp.ReplicaRacks) != len(tp.Partitions):
			rule = ReplicaRacksMismatch
		case !validWeights(tp):
			rule = BadWeights
		}
		if rule != 0 {
			return &Violation{Rule: rule, Member: -1, Topic: tp.Name, Partition: -1, Generation: NoGeneration}
		}
		normalizePartitions(tp)
		ix.topicByName[tp.Name] = int32(t)
		ix.TopicStart[t] = total
		n := int32(len(tp.Partitions))
		ix.contiguous[t] = n == 0 || tp.Partitions[n-1] == n-1
		total += n
	}
	ix.TopicStart[len(ix.Topics)] = total
	return nil
}

// validWeights reports whether t's weights, if any, have one entry per
// partition, none below -1 (unknown).
func validWeights(t *Topic) bool {
	if t.Weights == nil {
		return true
	}
	return len(t.Weights) == len(t.Partitions) && !slices.ContainsFunc(t.Weights, func(w int64) bool { return w < -1 })
}

// normalizePartitions sorts and dedupes t's partitions, dropping negatives,
// without touching the caller's slices unless they are already canonical.
// The first listing of a duplicate keeps its replica racks and weight.
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
	for _, i := range order {
		p := ps[i]
		if p < 0 || (len(out) > 0 && out[len(out)-1] == p) {
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

// resolveSubscriptions fills Subscriptions and Subscribers. Groups usually
// hold a few distinct subscriptions shared by many members: the resolved
// list of a recent identical one is reused instead of looking every topic
// name up again (the lists are read-only).
func (b *Builder) resolveSubscriptions() {
	ix := &b.ix
	ix.Subscriptions = make([][]int32, len(ix.Members))
	type resolved struct {
		raw  []string
		subs []int32
	}
	var recent []resolved
	// subscribers[t]: topic t's subscribers, so that every Subscribers list
	// is cut from one array.
	subscribers := make([]int32, len(ix.Topics))
	total := 0
	for m, mem := range ix.Members {
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
		ix.Subscriptions[m] = subs
		for _, t := range subs {
			subscribers[t]++
		}
		total += len(subs)
	}
	ix.Subscribers = make([][]int32, len(ix.Topics))
	backing := make([]int32, total)
	at := int32(0)
	for t, n := range subscribers {
		if n > 0 {
			ix.Subscribers[t] = backing[at : at : at+n]
			at += n
		}
	}
	for m, subs := range ix.Subscriptions {
		for _, t := range subs {
			ix.Subscribers[t] = append(ix.Subscribers[t], int32(m))
		}
	}
}

// resolve returns the numbers of the topics named in names that the
// metadata has, ascending and distinct.
func (ix *Index) resolve(names []string) []int32 {
	subs := make([]int32, 0, len(names))
	cur := ix.TopicCursor()
	for _, name := range names {
		if t, ok := cur.Find(name); ok {
			subs = append(subs, t)
		}
	}
	slices.Sort(subs)
	return slices.Compact(subs)
}

// Members returns the members in member number order, after
// [Builder.Organize]: Members()[m].Input is the input position of member m,
// whose claims [Builder.Claim] reads next.
func (b *Builder) Members() []Member { return b.ix.Members }
