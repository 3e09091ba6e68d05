package assignortest_test

import (
	"cmp"
	"slices"

	"github.com/kgroup/assignor"
)

// The kit needs correct assignors of every declared kind to show that it
// does not fail good ones: roundrobin (eager, balanced), refSticky (eager,
// balanced, sticky) and coop, which makes either cooperative. They are test
// references, simple rather than fast or clever.

// refSticky keeps each member's valid claims up to its balanced quota and
// deals the rest to the subscriber furthest below its quota, then to the
// least loaded. With identical subscriptions it is balanced and moves no
// more than balance requires; with different ones it is merely correct.
type refSticky struct{}

func newRefSticky() refSticky { return refSticky{} }

func (refSticky) Name() string   { return "ref-sticky" }
func (refSticky) Balanced() bool { return true }
func (refSticky) Sticky() bool   { return true }

func (refSticky) Assign(g assignor.Group) (assignor.Plan, error) {
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return assignor.Plan{}, err
	}
	subscribed := func(p int32) bool { return len(ix.Subscribers(ix.TopicOf(p))) > 0 }
	// Valid, still subscribed claims per member.
	owned := make([][]int32, ix.NumMembers())
	assignable := 0
	for p := range int32(ix.NumPartitions()) {
		m := ix.Owner(p)
		if subscribed(p) {
			assignable++
			if m >= 0 && ix.Subscribes(m, ix.TopicOf(int32(p))) {
				owned[m] = append(owned[m], p)
			}
		}
	}
	// Quotas: members with subscriptions share the partitions evenly; the
	// one-more quotas go to the members owning most.
	var active []int32
	for m := range ix.NumMembers() {
		if len(ix.Subscriptions(int32(m))) > 0 {
			active = append(active, int32(m))
		}
	}
	quota := make([]int, ix.NumMembers())
	if len(active) > 0 {
		slices.SortStableFunc(active, func(a, b int32) int { return cmp.Compare(len(owned[b]), len(owned[a])) })
		base, extra := assignable/len(active), assignable%len(active)
		for i, m := range active {
			quota[m] = base
			if i < extra {
				quota[m]++
			}
		}
	}
	assigned := make([][]int32, ix.NumMembers())
	kept := make([]bool, ix.NumPartitions())
	for m, ps := range owned {
		for _, p := range ps[:min(len(ps), quota[m])] {
			assigned[m] = append(assigned[m], p)
			kept[p] = true
		}
	}
	for p := range ix.NumPartitions() {
		if kept[p] || !subscribed(int32(p)) {
			continue
		}
		subs := ix.Subscribers(ix.TopicOf(int32(p)))
		best := subs[0]
		key := func(m int32) [2]int {
			full := 0
			if len(assigned[m]) >= quota[m] {
				full = 1
			}
			return [2]int{full, len(assigned[m])}
		}
		for _, m := range subs[1:] {
			if k, b := key(m), key(best); k[0] < b[0] || (k[0] == b[0] && k[1] < b[1]) {
				best = m
			}
		}
		assigned[best] = append(assigned[best], int32(p))
	}
	return planOf(ix, assigned), nil
}

// coop makes an eager assignor cooperative: a partition the inner plan gives
// to a member other than its valid owner, or that is contested, is withheld
// and the plan asks for a follow-up round (KIP-429). It declares what the
// inner assignor declares.
type coop struct{ inner assignor.Assignor }

func (c coop) Name() string { return "coop-" + c.inner.Name() }
func (c coop) Protocols() []assignor.Protocol {
	return []assignor.Protocol{assignor.Cooperative, assignor.Eager}
}
func (c coop) Balanced() bool { return assignor.IsBalanced(c.inner) }
func (c coop) Sticky() bool   { return assignor.IsSticky(c.inner) }

func (c coop) Assign(g assignor.Group) (assignor.Plan, error) {
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return assignor.Plan{}, err
	}
	plan, err := c.inner.Assign(g)
	if err != nil {
		return assignor.Plan{}, err
	}
	assigned := flat(ix, plan)
	withheld := false
	for m := range assigned {
		assigned[m] = slices.DeleteFunc(assigned[m], func(p int32) bool {
			owner := ix.Owner(p)
			if owner == assignor.Unclaimed || owner == int32(m) {
				return false
			}
			withheld = true
			return true
		})
	}
	out := planOf(ix, assigned)
	out.FollowUp = withheld
	return out, nil
}

// flat returns the flat partitions plan assigns to each member of ix; it
// drops partitions outside the metadata and members not in the group.
func flat(ix *assignor.Index, plan assignor.Plan) [][]int32 {
	out := make([][]int32, ix.NumMembers())
	for _, mp := range plan.Members {
		m, ok := ix.MemberNumber(mp.Member)
		if !ok {
			continue
		}
		for _, tp := range mp.Assigned {
			t, ok := ix.TopicNumber(tp.Topic)
			if !ok {
				continue
			}
			for _, id := range tp.Partitions {
				if p, ok := ix.Flat(t, id); ok {
					out[m] = append(out[m], p)
				}
			}
		}
	}
	return out
}
