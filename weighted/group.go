package weighted

import (
	"errors"
	"fmt"
)

// group is the solver's input, in the dense numbers the caller gives the
// group (member numbers in member ID order, flat partition numbers in
// topic then partition order). The solver neither keeps nor mutates it.
type group struct {
	// members: members are 0..members-1.
	members int
	// topic[p] is partition p's topic, an index into subscribers.
	topic []int32
	// weight[p] >= 0 is partition p's load in the caller's unit, defaults
	// already applied; 0 is an idle partition.
	weight []int64
	// owner[p] is partition p's current valid owner, -1 when nobody claims
	// it, or contested (-2) when it is claimed but nobody validly owns it;
	// nil when nothing is claimed. An owner that does not subscribe to the
	// partition's topic counts as contested: it holds the partition, but
	// the plan may not leave it there.
	owner []int32
	// subscribers[t] are the members subscribed to topic t, in any order,
	// repeats allowed.
	subscribers [][]int32
	// memberRack[m] is member m's rack number (>= 0), or -1 for none; nil:
	// no member has a rack.
	memberRack []int32
	// replicaRacks[p] is the index in rackSets of the racks holding
	// partition p's replicas, or -1 for none; nil: none known.
	replicaRacks []int32
	// rackSets are lists of rack numbers (>= 0, any order, repeats and
	// racks no member is in allowed).
	rackSets [][]int32
}

// contested is the owner of a partition that is claimed but has no valid
// owner (see group.owner).
const contested int32 = -2

// maxTotal is the largest total weight the solver accepts (2^61): loads,
// sums of loads and the bands computed from them then fit in an int64.
const maxTotal = int64(1) << 61

// errInput is the error every invalid group wraps.
var errInput = errors.New("weighted: invalid group")

// validate checks g and returns the first problem found, naming the
// culprit, wrapping errInput. O(P + S + R) for P partitions, S
// subscription entries and R rack entries.
func (g *group) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{errInput}, args...)...)
	}
	partitions := len(g.topic)
	switch {
	case g.members < 0 || g.members > 1<<30:
		return bad("%d members", g.members)
	case partitions > 1<<30:
		return bad("%d partitions", partitions)
	case len(g.weight) != partitions:
		return bad("%d weights for %d partitions", len(g.weight), partitions)
	case g.owner != nil && len(g.owner) != partitions:
		return bad("%d owners for %d partitions", len(g.owner), partitions)
	case g.memberRack != nil && len(g.memberRack) != g.members:
		return bad("%d member racks for %d members", len(g.memberRack), g.members)
	case g.replicaRacks != nil && len(g.replicaRacks) != partitions:
		return bad("%d replica rack sets for %d partitions", len(g.replicaRacks), partitions)
	}
	for t, subs := range g.subscribers {
		for _, m := range subs {
			if m < 0 || int(m) >= g.members {
				return bad("topic %d: subscriber %d out of range", t, m)
			}
		}
	}
	var total int64
	for p, w := range g.weight {
		if t := g.topic[p]; t < 0 || int(t) >= len(g.subscribers) {
			return bad("partition %d: topic %d out of range", p, t)
		}
		if w < 0 {
			return bad("partition %d: negative weight %d", p, w)
		}
		if total += w; w > maxTotal || total > maxTotal {
			return bad("partition %d: total weight above 2^61", p)
		}
		if g.owner != nil && (g.owner[p] < contested || int(g.owner[p]) >= g.members) {
			return bad("partition %d: owner %d out of range", p, g.owner[p])
		}
		if g.replicaRacks != nil && (g.replicaRacks[p] < -1 || int(g.replicaRacks[p]) >= len(g.rackSets)) {
			return bad("partition %d: rack set %d out of range", p, g.replicaRacks[p])
		}
	}
	for m, r := range g.memberRack {
		if r < -1 {
			return bad("member %d: rack %d", m, r)
		}
	}
	for i, set := range g.rackSets {
		for _, r := range set {
			if r < 0 {
				return bad("rack set %d: rack %d", i, r)
			}
		}
	}
	return nil
}

// config holds the solver's knobs; defaultConfig gives the defaults.
type config struct {
	// countTolerance (partitions, >= 0): how far a member's partition count may
	// be outside its count-balanced band (never down to 0 from a band
	// above 0): Config.CountTolerance. Default 1.
	countTolerance int32
	// marginPPM (millionths, 0..10^6): hysteresis. Unless a member joined,
	// nothing moves beyond placing what nobody owns and repairing counts
	// unless the heaviest member is then more than this much above the best
	// load the solver reaches (with the same members and subscriptions:
	// nothing moves). Default 100000 (10%).
	marginPPM int64
	// bandPPM (millionths, 0..10^6): heaviest loads within this much of
	// each other, and sums of squared loads within this much, count as
	// equal, so that racks and moves decide. Default 10000 (1%).
	bandPPM int64
}

func defaultConfig() config {
	return config{countTolerance: 1, marginPPM: 100_000, bandPPM: 10_000}
}

func (c config) validate() error {
	switch {
	case c.countTolerance < 0:
		return fmt.Errorf("weighted: count skew %d below 0", c.countTolerance)
	case c.marginPPM < 0 || c.marginPPM > 1e6:
		return fmt.Errorf("weighted: margin %d ppm outside 0..10^6", c.marginPPM)
	case c.bandPPM < 0 || c.bandPPM > 1e6:
		return fmt.Errorf("weighted: band %d ppm outside 0..10^6", c.bandPPM)
	}
	return nil
}
