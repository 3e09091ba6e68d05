package measure

import (
	"cmp"
	"errors"
	"slices"
	"strings"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/contender"
)

// Quality is the judgement of one plan.
type Quality struct {
	Valid         bool     `json:"valid"`
	Violations    []string `json:"violations,omitempty"` // the first few, each naming the partition
	NumViolations int      `json:"num_violations,omitempty"`
	Assigned      int      `json:"assigned"`
	Subscribed    int      `json:"subscribed"`
	Spread        int      `json:"spread"`
	Empty         int      `json:"empty"` // members given nothing
	SumSq         int64    `json:"sumsq"`
	Uniform       bool     `json:"uniform"` // every member subscribes to the same topics
	Moves         int      `json:"moves"`
	MinMoves      int      `json:"min_moves"`
	Withheld      int      `json:"withheld"`
	RackTotal     int      `json:"rack_total,omitempty"` // assigned partitions with racks known on both sides
	RackLocal     int      `json:"rack_local,omitempty"` // of those, on a member in a replica's rack
}

const maxViolations = 5

// Group returns the group the members make: their topics, racks and claims
// (Owned at Generation).
func Group(topics []assignor.Topic, members []contender.MemberJoin) assignor.Group {
	g := assignor.Group{Topics: topics, Members: make([]assignor.Member, len(members))}
	for i, m := range members {
		g.Members[i] = assignor.Member{ID: m.ID, Rack: m.Rack, Topics: m.Topics, Owned: m.Owned, Generation: m.Generation}
	}
	return g
}

// Plan turns decoded assignments into a Plan sorted by member, with an empty
// entry for every member of the group the leader sent nothing to (the
// coordinator gives those empty bytes).
func Plan(members []contender.MemberJoin, as []contender.Assignment) assignor.Plan {
	have := make(map[string]bool, len(as))
	var p assignor.Plan
	for _, a := range as {
		have[a.Member] = true
		p.Members = append(p.Members, assignor.MemberPlan{Member: a.Member, Assigned: a.Partitions, UserData: a.UserData})
	}
	for _, m := range members {
		if !have[m.ID] {
			p.Members = append(p.Members, assignor.MemberPlan{Member: m.ID})
		}
	}
	slices.SortStableFunc(p.Members, func(a, b assignor.MemberPlan) int { return cmp.Compare(a.Member, b.Member) })
	return p
}

// Evaluate judges the assignments as as a plan for the members (whose Owned
// is their history), under protocol proto.
func Evaluate(topics []assignor.Topic, members []contender.MemberJoin, as []contender.Assignment, proto assignor.Protocol) Quality {
	plan := Plan(members, as)
	q := Quality{Valid: true, MinMoves: -1}
	q.check(Group(topics, members), plan, proto)
	subscribed := q.subscriptions(topics, members)
	assigned := q.loads(topics, members, plan)
	for _, tp := range assignor.NormalizeTopicPartitions(assigned) {
		if subscribed[tp.Topic] {
			q.Assigned += len(tp.Partitions)
		}
	}
	q.Withheld = q.Subscribed - q.Assigned
	if q.Uniform {
		q.MinMoves = minMoves(members, q.Subscribed)
	}
	return q
}

// check runs [assignor.CheckPlan] and keeps the first few violations.
func (q *Quality) check(g assignor.Group, plan assignor.Plan, proto assignor.Protocol) {
	err := assignor.CheckPlan(g, plan, proto)
	if err == nil {
		return
	}
	q.Valid = false
	lines := strings.Split(err.Error(), "\n")
	q.NumViolations = len(lines)
	q.Violations = lines[:min(len(lines), maxViolations)]
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		q.NumViolations = len(joined.Unwrap())
	}
}

// subscriptions counts the partitions of the topics some member subscribes
// to (and that the metadata has), notes whether every member subscribes to
// the same topics, and returns the subscribed topics.
func (q *Quality) subscriptions(topics []assignor.Topic, members []contender.MemberJoin) map[string]bool {
	partitions := make(map[string]int, len(topics))
	for _, t := range topics {
		partitions[t.Name] = len(t.Partitions)
	}
	subscribed := make(map[string]bool)
	q.Uniform = true
	for i, m := range members {
		for _, t := range m.Topics {
			if _, ok := partitions[t]; ok {
				subscribed[t] = true
			}
		}
		if i > 0 && !slices.Equal(m.Topics, members[0].Topics) {
			q.Uniform = false
		}
	}
	for t := range subscribed {
		q.Subscribed += partitions[t]
	}
	return subscribed
}

// loads measures each member's share of plan: the spread and squares of the
// loads, members given nothing, partitions taken from their owners, and how
// many assigned partitions are rack-local. It returns every entry the
// members were assigned.
func (q *Quality) loads(topics []assignor.Topic, members []contender.MemberJoin, plan assignor.Plan) []assignor.TopicPartitions {
	racks := replicaRacks(topics)
	byMember := make(map[string]assignor.MemberPlan, len(plan.Members))
	for _, mp := range plan.Members {
		byMember[mp.Member] = mp
	}
	loads := make([]int, 0, len(members))
	var assigned []assignor.TopicPartitions
	for _, m := range members {
		mp := byMember[m.ID]
		assigned = append(assigned, mp.Assigned...)
		n := mp.NumAssigned()
		loads = append(loads, n)
		if n == 0 {
			q.Empty++
		}
		for _, tp := range mp.Assigned {
			rs, ok := racks[tp.Topic]
			if !ok || m.Rack == "" {
				continue
			}
			for _, p := range tp.Partitions {
				q.RackTotal++
				if slices.Contains(rs[p], m.Rack) {
					q.RackLocal++
				}
			}
		}
		q.Moves += assignor.CountPartitions(assignor.SubtractTopicPartitions(m.Owned, mp.Assigned))
	}
	if len(loads) > 0 {
		q.Spread = slices.Max(loads) - slices.Min(loads)
	}
	for _, n := range loads {
		q.SumSq += int64(n) * int64(n)
	}
	return assigned
}

// replicaRacks maps each topic with replica racks to its partitions' racks
// by partition ID.
func replicaRacks(topics []assignor.Topic) map[string]map[int32][]string {
	racks := make(map[string]map[int32][]string)
	for _, t := range topics {
		if t.ReplicaRacks != nil {
			byID := make(map[int32][]string, len(t.Partitions))
			for i, id := range t.Partitions {
				byID[id] = t.ReplicaRacks[i]
			}
			racks[t.Name] = byID
		}
	}
	return racks
}

// evenSumSq is the sum of squares of p split as evenly as possible over m.
func evenSumSq(p, m int) int64 {
	if m == 0 {
		return 0
	}
	q, r := int64(p/m), int64(p%m)
	return r*(q+1)*(q+1) + (int64(m)-r)*q*q
}

// minMoves is, for identical subscriptions, the fewest partitions that must
// leave their owners for a plan with spread at most one: the members that
// own the most keep the larger targets.
func minMoves(members []contender.MemberJoin, p int) int {
	if len(members) == 0 {
		return 0
	}
	counts := make([]int, len(members))
	for i, m := range members {
		counts[i] = assignor.CountPartitions(m.Owned)
	}
	slices.SortFunc(counts, func(a, b int) int { return cmp.Compare(b, a) })
	q, r := p/len(members), p%len(members)
	moves := 0
	for i, n := range counts {
		target := q
		if i < r {
			target = q + 1
		}
		moves += max(0, n-target)
	}
	return moves
}
