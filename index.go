package assignor

import (
	"cmp"
	"slices"
)

// Owner values of a partition in [Index.Owner] other than a member index.
const (
	// Unclaimed: no member claims the partition.
	Unclaimed int32 = -1
	// Contested: two or more members claim the partition at the same, highest
	// generation, so it has no valid owner.
	Contested int32 = -2
)

// Index is the canonical, dense view of a [Group] that assignors work on,
// with every member's claims classified. It is the one place in this module
// that decides who owns what.
//
// Members are numbered by member ID order, topics by name order, and each
// topic's partitions (sorted, deduplicated, negatives dropped) get a
// contiguous range of flat partition numbers, so flat order is topic name
// order, then partition ID order. An Index is read-only once built; it may
// alias the Group it was built from (the Group must not change while the
// Index is in use), so plans must be built with [Index.Plan], which copies.
//
// # Claims
//
// Every member's Owned partitions, read at the member's generation (negative
// generations read as [NoGeneration]), are claims. For each partition in the
// metadata:
//   - its valid owner is its unique highest-generation claimant (KIP-792);
//   - it is contested when several members claim it at that highest
//     generation (ties at NoGeneration included): nobody owns it;
//   - every claim below the highest generation is stale.
//
// A claim outside the metadata (a topic the metadata lacks, a partition not in
// the topic's list, a negative partition) is kept in [Index.Outside]. Claims
// are never an error: they are facts about the members. A member that lists
// a partition twice claims it once.
//
// Building an Index costs O(P + C log C + M log M + S) for P partitions, C
// claims, M members and S subscription entries.
type Index struct {
	// Members are the group's members sorted by ID; they point into the Group.
	Members []*Member
	// Topics are the metadata's topics sorted by name, each with its
	// partitions sorted and deduplicated (and ReplicaRacks permuted to match).
	Topics []Topic
	// TopicStart[t] is the flat number of topic t's first partition;
	// TopicStart[len(Topics)] is the number of partitions.
	TopicStart []int32
	// Subscriptions[m] are member m's subscribed topics that are in the
	// metadata: topic numbers, ascending, distinct. Members with identical
	// subscriptions may share one slice.
	Subscriptions [][]int32
	// Subscribers[t] are the members subscribed to topic t, ascending.
	Subscribers [][]int32
	// Claims[m] are member m's claims inside the metadata: flat partition
	// numbers, ascending, distinct.
	Claims [][]int32
	// Generation[m] is member m's claim generation (>= NoGeneration).
	Generation []int32
	// Owner[p] is the member number of partition p's valid owner, or
	// [Unclaimed] or [Contested].
	Owner []int32
	// Stale are the claims below their partition's highest generation.
	Stale []Claim
	// Outside are the claims that point outside the metadata, sorted by
	// member, topic, partition.
	Outside []OutsideClaim

	topicByName map[string]int32
	contiguous  []bool // contiguous[t]: topic t's partitions are 0..n-1
}

// Claim is one member's claim on one flat partition.
type Claim struct {
	Member     int32
	Partition  int32 // flat partition number
	Generation int32
}

// OutsideReason says why a claim is outside the metadata.
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

// OutsideClaim is a claim on a partition outside the metadata.
type OutsideClaim struct {
	Member     int32
	Topic      string
	Partition  int32
	Generation int32
	Reason     OutsideReason
	// Valid reports whether Member is the unique highest-generation claimant
	// of this topic and partition among the outside claims.
	Valid bool
}

// NewIndex builds the Index of g. It fails only for a group that cannot be
// assigned at all: an empty or duplicate member ID ([*MemberError]), an empty
// or duplicate topic name, or replica racks that do not match the partitions
// ([*TopicError]).
func NewIndex(g Group) (*Index, error) {
	ix := &Index{}
	if err := ix.indexMembers(g); err != nil {
		return nil, err
	}
	if err := ix.indexTopics(g); err != nil {
		return nil, err
	}
	ix.indexSubscriptions()
	ix.classifyClaims()
	return ix, nil
}

func (ix *Index) indexMembers(g Group) error {
	ix.Members = make([]*Member, len(g.Members))
	for i := range g.Members {
		ix.Members[i] = &g.Members[i]
	}
	slices.SortFunc(ix.Members, func(a, b *Member) int { return cmp.Compare(a.ID, b.ID) })
	for i, m := range ix.Members {
		if m.ID == "" {
			return &MemberError{Member: m.ID, Err: ErrEmptyMemberID}
		}
		if i > 0 && ix.Members[i-1].ID == m.ID {
			return &MemberError{Member: m.ID, Err: ErrDuplicateMember}
		}
	}
	return nil
}

func (ix *Index) indexTopics(g Group) error {
	ix.Topics = make([]Topic, len(g.Topics))
	copy(ix.Topics, g.Topics)
	slices.SortFunc(ix.Topics, func(a, b Topic) int { return cmp.Compare(a.Name, b.Name) })
	ix.topicByName = make(map[string]int32, len(ix.Topics))
	ix.TopicStart = make([]int32, len(ix.Topics)+1)
	ix.contiguous = make([]bool, len(ix.Topics))
	var total int32
	for t := range ix.Topics {
		tp := &ix.Topics[t]
		if tp.Name == "" {
			return &TopicError{Topic: tp.Name, Err: ErrEmptyTopicName}
		}
		if t > 0 && ix.Topics[t-1].Name == tp.Name {
			return &TopicError{Topic: tp.Name, Err: ErrDuplicateTopic}
		}
		if tp.ReplicaRacks != nil && len(tp.ReplicaRacks) != len(tp.Partitions) {
			return &TopicError{Topic: tp.Name, Err: ErrReplicaRacks}
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

// normalizePartitions sorts and dedupes t's partitions, dropping negatives,
// without touching the caller's slices unless they are already canonical.
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
	for _, i := range order {
		p := ps[i]
		if p < 0 || (len(out) > 0 && out[len(out)-1] == p) {
			continue
		}
		out = append(out, p)
		if racks != nil {
			racks = append(racks, t.ReplicaRacks[i])
		}
	}
	t.Partitions, t.ReplicaRacks = out, racks
}

func (ix *Index) indexSubscriptions() {
	ix.Subscriptions = make([][]int32, len(ix.Members))
	ix.Subscribers = make([][]int32, len(ix.Topics))
	// Groups usually hold a few distinct subscriptions shared by many
	// members: reuse the resolved list of a recent identical one instead of
	// looking every topic name up again (the lists are read-only).
	type resolved struct {
		raw  []string
		subs []int32
	}
	var recent []resolved
	// count[t]: topic t's subscribers, so that every Subscribers list is cut
	// from one array.
	count := make([]int32, len(ix.Topics)+1)
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
			subs = make([]int32, 0, len(mem.Topics))
			cur := ix.TopicCursor()
			for _, name := range mem.Topics {
				if t, ok := cur.Find(name); ok {
					subs = append(subs, t)
				}
			}
			slices.Sort(subs)
			subs = slices.Compact(subs)
			if len(recent) == 4 {
				recent = recent[1:]
			}
			recent = append(recent, resolved{mem.Topics, subs})
		}
		ix.Subscriptions[m] = subs
		for _, t := range subs {
			count[t]++
		}
		total += len(subs)
	}
	backing := make([]int32, total)
	at := int32(0)
	for t := range ix.Topics {
		if c := count[t]; c > 0 {
			ix.Subscribers[t] = backing[at : at : at+c]
			at += c
		}
	}
	for m, subs := range ix.Subscriptions {
		for _, t := range subs {
			ix.Subscribers[t] = append(ix.Subscribers[t], int32(m))
		}
	}
}

func (ix *Index) classifyClaims() {
	ix.Claims = make([][]int32, len(ix.Members))
	ix.Generation = make([]int32, len(ix.Members))
	total := 0
	for _, mem := range ix.Members {
		total += countPartitions(mem.Owned)
	}
	n := ix.NumPartitions()
	ix.Owner = make([]int32, n)
	for p := range ix.Owner {
		ix.Owner[p] = Unclaimed
	}
	// Owners are settled as the claims are read: the owner's generation is
	// its member's, except for a contested partition, whose tied generation
	// is kept in tied.
	var tied map[int32]int32
	shared := false                    // some partition has two claimants
	backing := make([]int32, 0, total) // every member's claims, one allocation
	for m, mem := range ix.Members {
		gen := max(mem.Generation, NoGeneration)
		ix.Generation[m] = gen
		start := len(backing)
		sorted := true
		cur := ix.TopicCursor()
		for _, tp := range mem.Owned {
			t, known := cur.Find(tp.Topic)
			var first, n int32
			if known {
				first, n = ix.TopicStart[t], ix.TopicStart[t+1]-ix.TopicStart[t]
			}
			for _, id := range tp.Partitions {
				var p int32
				switch {
				case id < 0:
					ix.outside(m, tp.Topic, id, gen, NegativePartition)
					continue
				case !known:
					ix.outside(m, tp.Topic, id, gen, UnknownTopic)
					continue
				case ix.contiguous[t] && id < n:
					p = first + id
				default:
					var ok bool
					if p, ok = ix.Flat(t, id); !ok {
						ix.outside(m, tp.Topic, id, gen, UnknownPartition)
						continue
					}
				}
				if len(backing) > start && p <= backing[len(backing)-1] {
					sorted = false
				}
				backing = append(backing, p)
				switch o := ix.Owner[p]; {
				case o == Unclaimed:
					ix.Owner[p] = int32(m)
				case o == int32(m): // listed twice
				case o == Contested:
					shared = true
					if gen > tied[p] {
						ix.Owner[p] = int32(m)
						delete(tied, p)
					}
				default:
					shared = true
					switch og := ix.Generation[o]; {
					case gen > og:
						ix.Owner[p] = int32(m)
					case gen == og:
						if tied == nil {
							tied = map[int32]int32{}
						}
						ix.Owner[p], tied[p] = Contested, gen
					}
				}
			}
		}
		claims := backing[start:len(backing):len(backing)]
		if !sorted {
			slices.Sort(claims)
			claims = slices.Compact(claims)
		}
		ix.Claims[m] = claims
	}
	if shared {
		for m, claims := range ix.Claims {
			gen := ix.Generation[m]
			for _, p := range claims {
				if o := ix.Owner[p]; o >= 0 && gen < ix.Generation[o] || o == Contested && gen < tied[p] {
					ix.Stale = append(ix.Stale, Claim{Member: int32(m), Partition: p, Generation: gen})
				}
			}
		}
	}
	ix.classifyOutside()
}

func (ix *Index) outside(m int, topic string, id, gen int32, reason OutsideReason) {
	ix.Outside = append(ix.Outside, OutsideClaim{Member: int32(m), Topic: topic, Partition: id, Generation: gen, Reason: reason})
}

func (ix *Index) classifyOutside() {
	out := ix.Outside
	key := func(a, b OutsideClaim) int {
		return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition), cmp.Compare(b.Generation, a.Generation), cmp.Compare(a.Member, b.Member))
	}
	slices.SortFunc(out, key)
	out = slices.CompactFunc(out, func(a, b OutsideClaim) bool { return key(a, b) == 0 })
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && out[j].Topic == out[i].Topic && out[j].Partition == out[i].Partition {
			j++
		}
		// out[i] has the highest generation of its run; valid if unique.
		out[i].Valid = out[i].Reason != NegativePartition && (j == i+1 || out[i+1].Generation < out[i].Generation)
		i = j
	}
	slices.SortFunc(out, func(a, b OutsideClaim) int {
		return cmp.Or(cmp.Compare(a.Member, b.Member), cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
	})
	ix.Outside = out
}

// NumPartitions is the number of partitions in the metadata.
func (ix *Index) NumPartitions() int { return int(ix.TopicStart[len(ix.Topics)]) }

// TopicOf returns the topic number of flat partition p. O(log T).
func (ix *Index) TopicOf(p int32) int32 {
	t, found := slices.BinarySearch(ix.TopicStart, p)
	if found {
		// Empty topics share a start: the last topic starting at p owns it.
		for t+1 < len(ix.TopicStart)-1 && ix.TopicStart[t+1] == p {
			t++
		}
		return int32(t)
	}
	return int32(t - 1)
}

// Partition returns the topic name and partition ID of flat partition p.
func (ix *Index) Partition(p int32) (topic string, id int32) {
	t := ix.TopicOf(p)
	return ix.Topics[t].Name, ix.Topics[t].Partitions[p-ix.TopicStart[t]]
}

// Topic returns the number of the topic named name.
func (ix *Index) Topic(name string) (int32, bool) {
	t, ok := ix.topicByName[name]
	return t, ok
}

// Flat returns the flat number of partition id of topic t.
func (ix *Index) Flat(t, id int32) (int32, bool) {
	ps := ix.Topics[t].Partitions
	if ix.contiguous[t] {
		if id >= 0 && int(id) < len(ps) {
			return ix.TopicStart[t] + id, true
		}
		return 0, false
	}
	i, ok := slices.BinarySearch(ps, id)
	return ix.TopicStart[t] + int32(i), ok
}

// Member returns the number of the member with the given ID.
func (ix *Index) Member(id string) (int32, bool) {
	i, ok := slices.BinarySearchFunc(ix.Members, id, func(m *Member, id string) int { return cmp.Compare(m.ID, id) })
	return int32(i), ok
}

// Subscribes reports whether member m subscribes to topic t. O(log S).
func (ix *Index) Subscribes(m, t int32) bool {
	_, ok := slices.BinarySearch(ix.Subscriptions[m], t)
	return ok
}

// Plan builds a plan from assigned[m], the flat partitions given to member
// m. It sorts each assigned[m] in place; the plan copies what it needs and
// has one entry per member, in member ID order.
func (ix *Index) Plan(assigned [][]int32) Plan {
	plan := Plan{Members: make([]MemberPlan, len(ix.Members))}
	for m, mem := range ix.Members {
		plan.Members[m].Member = mem.ID
		if m < len(assigned) {
			plan.Members[m].Assigned = ix.TopicPartitions(assigned[m])
		}
	}
	return plan
}

// TopicPartitions converts flat partitions into topic-grouped partitions,
// sorted by topic then partition. It sorts ps in place; the result does not
// alias ps or the group.
func (ix *Index) TopicPartitions(ps []int32) []TopicPartitions {
	if len(ps) == 0 {
		return nil
	}
	slices.Sort(ps)
	ids := make([]int32, len(ps))
	var out []TopicPartitions
	t := int32(-1)
	start := 0
	for i, p := range ps {
		if t < 0 || p >= ix.TopicStart[t+1] {
			if t >= 0 {
				out = append(out, TopicPartitions{Topic: ix.Topics[t].Name, Partitions: ids[start:i:i]})
			}
			t = ix.TopicOf(p)
			start = i
		}
		ids[i] = ix.Topics[t].Partitions[p-ix.TopicStart[t]]
	}
	return append(out, TopicPartitions{Topic: ix.Topics[t].Name, Partitions: ids[start:]})
}

// TopicCursor resolves topic names to topic numbers for a caller that asks
// them mostly in ascending order, as sorted subscriptions, claims and plans
// list them: it first tries the few topics after the last one found
// (comparing names that usually share their bytes, so equality is cheap) and
// falls back to a map lookup. Any order of names gives correct answers.
type TopicCursor struct {
	ix *Index
	t  int32
}

// cursorLookahead is how many topics past the last one found a cursor tries
// before the map.
const cursorLookahead = 4

// TopicCursor returns a cursor positioned before the first topic.
func (ix *Index) TopicCursor() TopicCursor { return TopicCursor{ix: ix, t: -1} }

// Find returns the number of the topic named name.
func (c *TopicCursor) Find(name string) (int32, bool) {
	topics := c.ix.Topics
	for n := c.t + 1; n <= c.t+cursorLookahead && int(n) < len(topics); n++ {
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
