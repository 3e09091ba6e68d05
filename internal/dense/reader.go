package dense

// PlanReader reads a plan's per-member lists into holder form, for
// [Index.Check], recording every way the lists themselves break the plan
// rules. It is the one reader of plans: package assignor's CheckPlan and
// the cooperative wrapper's reading of an inner plan both feed it, entry by
// entry:
//
//	r := ix.ReadPlan(strict)
//	for each plan entry: if m, ok := r.Entry(id); ok { for each list: r.List(m, topic, ids) }
//	holder, back, violations := r.Finish()
//
// It records a plan entry for a member not in the group ([UnknownMember]) or
// a second one ([DuplicateEntry]), a member without one ([MissingMember]), a
// partition in two members' lists ([AssignedTwice], the first listing
// stays), and a partition outside the metadata other than the member's own
// claim ([OutsideMetadata]; the member's own claim is marked in back and left
// to Check). A strict reader also records lists out of order ([Unsorted]):
// entries by member ID, a member's lists by topic, and a list's partitions
// ascending without repeats; a lenient one tolerates them and reports
// through [PlanReader.Canonical] which members' lists are canonical.
type PlanReader struct {
	ix     *Index
	strict bool
	holder []int32
	back   []bool
	seen   []bool
	vs     []Violation

	lastEntry string
	entries   int
	// The entry being read: its topic cursor, how many of its lists were
	// read, the name and number of the last one's topic; and per member
	// whether its lists are canonical so far.
	cursor    TopicCursor
	lists     int
	lastName  string
	lastTopic int32
	canonical []bool
}

// ReadPlan returns a reader of a plan of ix; see [PlanReader].
func (ix *Index) ReadPlan(strict bool) *PlanReader {
	r := &PlanReader{
		ix: ix, strict: strict,
		holder:    make([]int32, ix.NumPartitions()),
		back:      make([]bool, len(ix.Outside)),
		seen:      make([]bool, len(ix.Members)),
		canonical: make([]bool, len(ix.Members)),
	}
	for p := range r.holder {
		r.holder[p] = -1
	}
	return r
}

// Entry starts the plan entry of the member with the given ID and returns
// its number; false for an entry that is recorded as a violation instead.
func (r *PlanReader) Entry(id string) (int32, bool) {
	if r.strict && r.entries > 0 && r.lastEntry >= id {
		r.vs = append(r.vs, Violation{Rule: Unsorted, Member: -1, MemberID: id, Other: -1, Partition: -1, Generation: NoGeneration})
	}
	r.lastEntry = id
	r.entries++
	m, ok := r.ix.MemberNumber(id)
	switch {
	case !ok:
		r.vs = append(r.vs, Violation{Rule: UnknownMember, Member: -1, MemberID: id, Other: -1, Partition: -1, Generation: NoGeneration})
		return -1, false
	case r.seen[m]:
		r.vs = append(r.vs, Violation{Rule: DuplicateEntry, Member: m, Other: -1, Partition: -1, Generation: NoGeneration})
		return -1, false
	}
	r.seen[m], r.canonical[m] = true, true
	r.cursor, r.lists, r.lastTopic = r.ix.TopicCursor(), 0, -1
	return m, true
}

// List reads one list of member m's entry: the partitions ids of the topic
// named topic. m must be the number Entry returned last.
func (r *PlanReader) List(m int32, topic string, ids []int32) {
	ix := r.ix
	if r.strict && r.lists > 0 && r.lastName >= topic {
		r.vs = append(r.vs, r.unsorted(m, topic))
	}
	r.lists++
	r.lastName = topic
	t, known := r.cursor.Find(topic)
	if !known || len(ids) == 0 || t <= r.lastTopic {
		r.canonical[m] = false
	}
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
			r.canonical[m] = false
			r.outside(m, topic, id)
		case r.holder[p] < 0 || r.holder[p] == m:
			r.holder[p] = m
		default:
			v := ix.partitionViolation(AssignedTwice, m, p)
			v.Other = r.holder[p]
			r.vs = append(r.vs, v)
		}
	}
	if !sorted {
		r.canonical[m] = false
		if r.strict {
			r.vs = append(r.vs, r.unsorted(m, topic))
		}
	}
}

func (r *PlanReader) unsorted(m int32, topic string) Violation {
	return Violation{Rule: Unsorted, Member: m, Other: -1, Topic: topic, Partition: -1, Generation: NoGeneration}
}

// outside reads a partition of member m's list that is outside the
// metadata: its own claim is marked for Check, anything else is a
// violation.
func (r *PlanReader) outside(m int32, topic string, id int32) {
	if i, ok := r.ix.FindOutside(m, topic, id); ok {
		r.back[i] = true
		return
	}
	r.vs = append(r.vs, Violation{Rule: OutsideMetadata, Member: m, Other: -1, Topic: topic, Partition: id, Generation: r.ix.Generation[m]})
}

// Canonical reports whether member m's lists were canonical: topics known
// and strictly increasing, no empty list, partitions strictly increasing and
// inside the metadata. False for a member without an entry.
func (r *PlanReader) Canonical(m int32) bool { return r.canonical[m] }

// Finish records the members without an entry and returns the holders
// (holder[p]: the member whose list holds flat partition p, or -1), the
// outside claims the lists give back to their claimers, and every violation
// recorded.
func (r *PlanReader) Finish() (holder []int32, back []bool, vs []Violation) {
	for m, ok := range r.seen {
		if !ok {
			r.vs = append(r.vs, Violation{Rule: MissingMember, Member: int32(m), Other: -1, Partition: -1, Generation: NoGeneration})
		}
	}
	return r.holder, r.back, r.vs
}
