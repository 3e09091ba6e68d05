package touchfloor

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/kgroup/assignor"
)

// Layout is how [Floor.Plan] lays out the plan it writes.
type Layout int

const (
	// Shared: three allocations per plan, whatever its size: one array of
	// MemberPlans, one of TopicPartitions entries that every member's
	// Assigned slices, one of partition IDs that every entry slices. Names
	// are the Group's own strings.
	Shared Layout = iota
	// PerList: an Assigned slice per member and a Partitions slice per
	// entry, as a plan built by appending member by member is laid out.
	PerList
)

// Floor writes one decided assignment for one group. Build it with [New]
// (untimed), then time [Floor.Plan].
type Floor struct {
	layout Layout
	// owner holds, per partition in flat order (topics by name, each
	// topic's partitions in ID order), the index into the group's Members
	// of the member the partition goes to, or -1.
	owner []int32
	// claims is where Plan writes, per partition in flat order, the index of
	// the member that claims it: the partition→owner map Kafka's coordinator
	// keeps and hands its assignor. Kept, with subs (every member's topics
	// as topic numbers), so that the reading is not dead work.
	claims []int32
	subs   []int32
}

// New returns the floor that writes plan for g: the plan's assignment
// becomes a dense owner array, as a solver's decision is held. Each of
// g's topics must list its partitions in ascending order without
// duplicates (partitions 0..n-1, as the bench's are). It fails, naming the
// culprit, on a plan that is not one for g: an unknown member, topic or
// partition, or a partition given twice.
func New(g assignor.Group, plan assignor.Plan, layout Layout) (*Floor, error) {
	topics, offsets, total, err := flat(g)
	if err != nil {
		return nil, err
	}
	members := make(map[string]int32, len(g.Members))
	for i, m := range g.Members {
		members[m.ID] = int32(i)
	}
	f := &Floor{layout: layout, owner: make([]int32, total)}
	for i := range f.owner {
		f.owner[i] = -1
	}
	for _, mp := range plan.Members {
		m, ok := members[mp.Member]
		if !ok {
			return nil, fmt.Errorf("touchfloor: the plan names member %q, which the group lacks", mp.Member)
		}
		for _, tp := range mp.Assigned {
			t, ok := topics[tp.Topic]
			if !ok {
				return nil, fmt.Errorf("touchfloor: member %q is given topic %q, which the group lacks", mp.Member, tp.Topic)
			}
			for _, p := range tp.Partitions {
				pos, ok := slices.BinarySearch(g.Topics[t].Partitions, p)
				if !ok {
					return nil, fmt.Errorf("touchfloor: member %q is given %s-%d, which the group lacks", mp.Member, tp.Topic, p)
				}
				at := offsets[t] + pos
				if f.owner[at] >= 0 {
					return nil, fmt.Errorf("touchfloor: %s-%d is given to %q and %q", tp.Topic, p, g.Members[f.owner[at]].ID, mp.Member)
				}
				f.owner[at] = m
			}
		}
	}
	return f, nil
}

// flat returns each topic's index by name, each topic's first flat
// position (topics by name) and the partition count, or an error for a
// topic whose partitions are not ascending and distinct.
func flat(g assignor.Group) (map[string]int, []int, int, error) {
	topics := make(map[string]int, len(g.Topics))
	for i, t := range g.Topics {
		if !slices.IsSorted(t.Partitions) || len(slices.Compact(slices.Clone(t.Partitions))) != len(t.Partitions) {
			return nil, nil, 0, fmt.Errorf("touchfloor: topic %q: partitions not ascending and distinct", t.Name)
		}
		if _, dup := topics[t.Name]; dup {
			return nil, nil, 0, fmt.Errorf("touchfloor: topic %q listed twice", t.Name)
		}
		topics[t.Name] = i
	}
	offsets := make([]int, len(g.Topics))
	total := 0
	for _, t := range byName(g.Topics) {
		offsets[t] = total
		total += len(g.Topics[t].Partitions)
	}
	return topics, offsets, total, nil
}

// byName returns the indices of topics sorted by name.
func byName(topics []assignor.Topic) []int32 {
	order := make([]int32, len(topics))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(topics[a].Name, topics[b].Name) })
	return order
}

// Plan reads g, the group given to [New], and writes the decided plan:
// members sorted by ID, each member's partitions by topic name, then
// partition ID. Reading is what every assignor must do with a Group before
// any decision: resolve each member's topic names and each owned
// partition to dense numbers (here a map from names to topics and a
// per-partition claims array), and order the members by ID. Writing groups
// the decided owners by member and topic. O(P + S + M log M + T log T) for
// P partitions, S subscription entries, M members and T topics.
func (f *Floor) Plan(g assignor.Group) assignor.Plan {
	// Read the metadata: topics by name, their flat positions.
	order := byName(g.Topics)
	r := resolver{names: make([]string, len(order)), topics: order}
	offset := make([]int32, len(g.Topics))
	total := int32(0)
	for k, t := range order {
		r.names[k] = g.Topics[t].Name
		offset[t] = total
		total += int32(len(g.Topics[t].Partitions))
	}
	// Read the members: subscriptions to dense topic numbers, claims to the
	// per-partition claims array.
	subscriptions := 0
	for _, m := range g.Members {
		subscriptions += len(m.Topics)
	}
	subs := make([]int32, 0, subscriptions)
	claims := make([]int32, total)
	for i := range claims {
		claims[i] = -1
	}
	for i, m := range g.Members {
		r.restart()
		for _, name := range m.Topics {
			if t, ok := r.find(g, name); ok {
				subs = append(subs, t)
			}
		}
		r.restart()
		for _, tp := range m.Owned {
			t, ok := r.find(g, tp.Topic)
			if !ok {
				continue
			}
			ps := g.Topics[t].Partitions
			for _, p := range tp.Partitions {
				pos := int(p)
				if pos < 0 || pos >= len(ps) || ps[pos] != p { // partitions other than 0..n-1
					var found bool
					if pos, found = slices.BinarySearch(ps, p); !found {
						continue
					}
				}
				claims[offset[t]+int32(pos)] = int32(i)
			}
		}
	}
	f.claims, f.subs = claims, subs
	members := make([]int32, len(g.Members))
	for i := range members {
		members[i] = int32(i)
	}
	slices.SortFunc(members, func(a, b int32) int { return cmp.Compare(g.Members[a].ID, g.Members[b].ID) })
	return f.write(g, order, members)
}

// resolver turns topic names into topic numbers. Names usually come sorted
// (members send their topics and owned partitions in name order), so it
// walks the sorted topic names alongside them, a string comparison per
// name; a name out of order falls back to a map from names, built on first
// use.
type resolver struct {
	names  []string // topic names, sorted
	topics []int32  // topics[k]: the topic named names[k]
	next   int      // where the walk resumes
	index  map[string]int32
}

// restart starts a new walk (a new sorted list).
func (r *resolver) restart() { r.next = 0 }

// find returns the topic named name.
func (r *resolver) find(g assignor.Group, name string) (int32, bool) {
	if k := r.next; k < len(r.names) && r.names[k] == name {
		r.next++
		return r.topics[k], true
	}
	for k := r.next; k < len(r.names) && r.names[k] <= name; k++ {
		if r.names[k] == name {
			r.next = k + 1
			return r.topics[k], true
		}
	}
	if r.index == nil {
		r.index = make(map[string]int32, len(g.Topics))
		for k, name := range r.names {
			r.index[name] = r.topics[k]
		}
	}
	t, ok := r.index[name]
	return t, ok
}
