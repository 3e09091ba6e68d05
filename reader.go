package assignor

// planReader reads a plan's per-member lists into flat form, for
// [Index.check], recording every way the lists themselves break the plan
// rules: a plan entry for a member not in the group ([ErrUnknownMember]) or
// a second one ([ErrDuplicateMember]), a member without one
// ([ErrMissingMember]), a partition in two members' lists
// ([ErrAssignedTwice], the first listing stays), and a partition outside the
// metadata other than the member's own claim ([ErrOutsideMetadata]; the
// member's own claim is marked in back and left to check). A strict reader
// also records lists out of order ([ErrUnsorted]): entries by member ID, a
// member's lists by topic, and a list's partitions ascending without
// repeats.
type planReader struct {
	ix     *Index
	strict bool
	holder []int32
	back   []bool
	seen   []bool
	vs     []violation

	lastEntry string
	entries   int
	// The entry being read: its topic cursor, how many of its lists were
	// read, the name and number of the last one's topic.
	cursor    topicCursor
	lists     int
	lastName  string
	lastTopic int32
}

// readPlan returns a reader of a plan of ix; see [planReader].
func (ix *Index) readPlan(strict bool) *planReader {
	r := &planReader{
		ix: ix, strict: strict,
		holder: make([]int32, ix.NumPartitions()),
		back:   make([]bool, len(ix.outside)),
		seen:   make([]bool, len(ix.members)),
	}
	for p := range r.holder {
		r.holder[p] = -1
	}
	return r
}

// read reads every entry of plan.
func (r *planReader) read(plan Plan) {
	for _, mp := range plan.Members {
		if m, ok := r.entry(mp.Member); ok {
			for _, tp := range mp.Assigned {
				r.list(m, tp.Topic, tp.Partitions)
			}
		}
	}
}

// entry starts the plan entry of the member with the given ID and returns
// its number; false for an entry that is recorded as a violation instead.
func (r *planReader) entry(id string) (int32, bool) {
	if r.strict && r.entries > 0 && r.lastEntry >= id {
		r.vs = append(r.vs, violation{err: ErrUnsorted, member: -1, memberID: id, other: -1, partition: -1, generation: NoGeneration})
	}
	r.lastEntry = id
	r.entries++
	m, ok := r.ix.MemberNumber(id)
	switch {
	case !ok:
		r.vs = append(r.vs, violation{err: ErrUnknownMember, member: -1, memberID: id, other: -1, partition: -1, generation: NoGeneration})
		return -1, false
	case r.seen[m]:
		r.vs = append(r.vs, violation{err: ErrDuplicateMember, member: m, other: -1, partition: -1, generation: NoGeneration})
		return -1, false
	}
	r.seen[m] = true
	r.cursor, r.lists, r.lastTopic = r.ix.topicCursor(), 0, -1
	return m, true
}

// list reads one list of member m's entry: the partitions ids of the topic
// named topic. m must be the number entry returned last.
func (r *planReader) list(m int32, topic string, ids []int32) {
	ix := r.ix
	if r.strict && r.lists > 0 && r.lastName >= topic {
		r.vs = append(r.vs, r.unsorted(m, topic))
	}
	r.lists++
	r.lastName = topic
	t, known := r.cursor.find(topic)
	if known {
		r.lastTopic = t
	}
	sorted := true
	for k, id := range ids {
		if k > 0 && ids[k-1] >= id {
			sorted = false
		}
		var p int32
		inside := known && id >= 0
		if inside {
			p, inside = ix.Flat(t, id)
		}
		switch {
		case !inside:
			r.outside(m, topic, id)
		case r.holder[p] < 0 || r.holder[p] == m:
			r.holder[p] = m
		default:
			v := ix.partitionViolation(ErrAssignedTwice, m, p)
			v.other = r.holder[p]
			r.vs = append(r.vs, v)
		}
	}
	if !sorted && r.strict {
		r.vs = append(r.vs, r.unsorted(m, topic))
	}
}

func (r *planReader) unsorted(m int32, topic string) violation {
	return violation{err: ErrUnsorted, member: m, other: -1, topic: topic, partition: -1, generation: NoGeneration}
}

// outside reads a partition of member m's list that is outside the
// metadata: its own claim is marked for check, anything else is a
// violation.
func (r *planReader) outside(m int32, topic string, id int32) {
	if i, ok := r.ix.findOutside(m, topic, id); ok {
		r.back[i] = true
		return
	}
	r.vs = append(r.vs, violation{err: ErrOutsideMetadata, member: m, other: -1, topic: topic, partition: id, generation: r.ix.generation[m]})
}

// finish records the members without an entry and returns the holders
// (holder[p]: the member whose list holds flat partition p, or -1), the
// outside claims the lists give back to their claimers, and every violation
// recorded.
func (r *planReader) finish() (holder []int32, back []bool, vs []violation) {
	for m, ok := range r.seen {
		if !ok {
			r.vs = append(r.vs, violation{err: ErrMissingMember, member: int32(m), other: -1, partition: -1, generation: NoGeneration})
		}
	}
	return r.holder, r.back, r.vs
}
