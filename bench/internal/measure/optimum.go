package measure

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kgroup/assignor"
)

// Balance is the best balance a complete plan can reach for a group: every
// subscribed partition given to one of its subscribers.
type Balance struct {
	// SumSq is the least sum of squared member loads (partitions per
	// member) of any complete plan.
	SumSq int64 `json:"sumsq"`
	// Spread is the least spread (most partitions minus fewest) of any
	// complete plan: 0 or 1 when every member subscribes to the same
	// topics, more where subscriptions force it.
	Spread int `json:"spread"`
}

// Optimum returns the best balance of any complete plan for members
// subscribing to subscriptions[i] (topics the metadata lacks are ignored)
// over topics. It is exact, not a bound.
//
// # How
//
// Members with the same subscriptions form a class, and so do topics with
// the same subscribing classes. Within a class, members are
// interchangeable, so a plan giving the class T partitions is best split
// as evenly as possible over its n members, at a cost of
// evenSumSq(T, n), which is convex in T: the (t+1)-th partition costs
// 2⌊t/n⌋+1. Choosing how many partitions of each topic class each member
// class takes is then a min-cost flow with convex costs on a graph of the
// classes, solved by successive shortest paths: each step gives more
// partitions to the cheapest class reachable from a topic class with
// partitions left, through alternating paths (a class may hand partitions
// it took to another class that can take them). Every step costs no less
// than the one before, so a step may carry as many partitions as its path
// and its class's current cost allow (up to n at a time).
//
// The loads of a least-square-sum plan also have the least maximum and the
// greatest minimum (the feasible load vectors form an M-convex set, where
// square-sum minimal, decreasingly minimal and increasingly maximal
// elements coincide: Frank and Murota, "Discrete decreasing minimization",
// 2022), so its spread is the least spread.
func Optimum(topics []assignor.Topic, subscriptions [][]string) Balance {
	size := make(map[string]int, len(topics))
	for _, t := range topics {
		size[t.Name] += len(t.Partitions)
	}
	// Member classes by subscription (topics the metadata has).
	classOf := map[string]int{}
	var members []int          // members per class
	var subscribers [][]string // topics per class
	for _, subs := range subscriptions {
		var ts []string
		for _, t := range subs {
			if _, ok := size[t]; ok {
				ts = append(ts, t)
			}
		}
		slices.Sort(ts)
		ts = slices.Compact(ts)
		key := strings.Join(ts, "\x00")
		c, ok := classOf[key]
		if !ok {
			c = len(members)
			classOf[key] = c
			members = append(members, 0)
			subscribers = append(subscribers, ts)
		}
		members[c]++
	}
	// Topic classes by subscribing member classes.
	byTopic := map[string][]int{}
	for c, ts := range subscribers {
		for _, t := range ts {
			byTopic[t] = append(byTopic[t], c)
		}
	}
	topicClassOf := map[string]int{}
	var supply []int   // partitions left to place, per topic class
	var takers [][]int // member classes that may take them
	for _, name := range slices.Sorted(maps.Keys(byTopic)) {
		cs := byTopic[name]
		key := fmt.Sprint(cs)
		j, ok := topicClassOf[key]
		if !ok {
			j = len(supply)
			topicClassOf[key] = j
			supply = append(supply, 0)
			takers = append(takers, cs)
		}
		supply[j] += size[name]
	}
	f := &flow{members: members, supply: supply, takers: takers, load: make([]int, len(members)), x: make([][]int, len(supply))}
	for j := range f.x {
		f.x[j] = make([]int, len(members))
	}
	f.solve()
	return f.balance()
}

// flow is the class graph of [Optimum]: x[j][c] partitions of topic class j
// given to member class c, load[c] their sum.
type flow struct {
	members []int
	supply  []int
	takers  [][]int
	load    []int
	x       [][]int
}

// step is how the search reached a member class: from topic class j,
// which the search reached from member class from (-1: j has supply).
type step struct{ j, from int }

func (f *flow) solve() {
	for {
		c, path := f.cheapest()
		if c < 0 {
			return
		}
		// The partitions this step carries: what the first topic class
		// has left, what each class on the way hands on, and what the
		// last class takes at its current cost.
		n := f.members[c] - f.load[c]%f.members[c]
		for at := c; ; {
			s := path[at]
			if s.from < 0 {
				n = min(n, f.supply[s.j])
				break
			}
			n = min(n, f.x[s.j][s.from])
			at = s.from
		}
		f.load[c] += n
		for at := c; ; {
			s := path[at]
			f.x[s.j][at] += n
			if s.from < 0 {
				f.supply[s.j] -= n
				break
			}
			f.x[s.j][s.from] -= n
			at = s.from
		}
	}
}

// cheapest returns the member class that takes its next partition at the
// least cost among those an alternating path reaches from a topic class
// with partitions left, and how the search reached each class; -1 when no
// partitions are left.
func (f *flow) cheapest() (int, []step) {
	path := make([]step, len(f.members))
	reached := make([]bool, len(f.members))
	seenTopic := make([]bool, len(f.supply))
	var queue []int
	visit := func(j, from int) {
		seenTopic[j] = true
		for _, c := range f.takers[j] {
			if !reached[c] {
				reached[c], path[c] = true, step{j: j, from: from}
				queue = append(queue, c)
			}
		}
	}
	for j, s := range f.supply {
		if s > 0 {
			visit(j, -1)
		}
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for j := range f.x {
			if f.x[j][c] > 0 && !seenTopic[j] {
				visit(j, c)
			}
		}
	}
	best := -1
	for c, ok := range reached {
		if ok && (best < 0 || f.cost(c) < f.cost(best)) {
			best = c
		}
	}
	return best, path
}

// cost is what member class c's next partition adds to the sum of squares.
func (f *flow) cost(c int) int { return 2*(f.load[c]/f.members[c]) + 1 }

// balance is the classes' loads split evenly within each class.
func (f *flow) balance() Balance {
	var b Balance
	most, fewest := 0, -1
	for c, n := range f.members {
		q, r := f.load[c]/n, f.load[c]%n
		b.SumSq += evenSumSq(f.load[c], n)
		hi := q
		if r > 0 {
			hi = q + 1
		}
		most = max(most, hi)
		if fewest < 0 || q < fewest {
			fewest = q
		}
	}
	if fewest >= 0 {
		b.Spread = most - fewest
	}
	return b
}
