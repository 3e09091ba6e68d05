package rebalance

import (
	"slices"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// Assign runs the assignor on the round's members and topics and returns one
// assignment per member ID it was given (an empty member ID gets none: no
// assignment can be addressed to it), sorted by member ID, and the round's
// stats. generation is the generation being balanced into, or 0 or less
// when the client does not say (then only claims more than 16 generations
// past the newest one the leader's own member synced, [Leader.Delivered],
// are dropped as impossible).
//
// It fails only when the assignor does, or when the assignor's plan breaks
// the rules every plan keeps (a partition given twice or to a member that
// does not subscribe to it, an entry for a member not in the group): no
// assignment is better than an unsafe one. Members it could not read or
// assign, and claims it could not trust, cost those members alone (see
// [Round.AddSubscription], [Round.AddMetadata]): a claim at or above
// generation cannot be true (no member has been given anything in it yet),
// so such a member loses its claims, generation and user data, and cannot
// outrank true owners (KIP-792). Under the cooperative protocol the
// partitions claimed by a member assigned nothing are withheld from
// everyone else this round (unless their new holder's own claim is newer),
// since it holds them until it revokes them; and so are the partitions
// members whose claims the round cannot read may hold (see the package doc,
// # Memory). A cooperative leader remembers the round for the next one: the
// result's partition lists are part of that memory, and must not be
// changed.
func (r *Round) Assign(generation int32) (*Result, error) {
	start := time.Now()
	l := r.l
	stats := Stats{Generation: generation, Members: len(r.members)}
	r.settle()
	for _, mem := range r.members {
		if mem.status != readable {
			stats.Excluded++
		}
	}
	switch {
	case generation > 0:
		r.dropImpossible(generation, &stats)
	case l.claimBound() > 0:
		// Not told the generation: a claim far past the newest one the
		// leader's own member synced cannot be true either.
		r.dropImpossible(l.claimBound(), &stats)
	}
	var last *memory
	blind := false
	if l.cooperative {
		last = l.lastRound()
		blind = !r.recall(generation, &stats)
	}
	ix, err := r.index()
	if err != nil {
		return nil, err
	}
	fp, err := r.run(ix)
	if err != nil {
		return nil, err
	}
	var taken []bool
	var withheld []withheldClaim
	mark := l.marks
	if l.cooperative {
		var from []withheldClaim
		taken, from, stats.Withheld = r.withhold(ix, &fp, blind)
		withheld = withheldClaims(ix, fp, taken, from)
		// The follow-up round must come. Members that revoke something
		// rejoin for it; else the leader's own client rejoins (when the
		// adapter can make it), or a member that holds a partition is
		// made to revoke it, or, with nobody to revoke, the mark must do.
		nudged := true
		if fp.FollowUp && stats.ClaimsUnknown > 0 && !l.cfg.LeaderRejoins && !r.revokes(withheld) {
			var w withheldClaim
			if w, nudged = r.nudge(ix, &fp, &taken); nudged {
				withheld = sortWithheld(append(withheld, w))
			}
		}
		// No rush into the next round while a member may still be taking
		// its last assignment, or when the round could not read some
		// member's claims (it must not miss this plan either).
		if fp.FollowUp && mark && nudged && (blind || !r.progress(last, generation, withheld)) {
			mark = false
			l.log.Info("plan withholds for members that may not have taken their last assignment, or whose claims are unknown: assignments not marked for fast re-join (the members rejoin once they revoke)",
				"partitions", len(withheld))
		}
	}
	plan := ix.PlanOf(fp)
	res := &Result{Assignments: r.assignments(ix, plan, mark && fp.FollowUp)}
	stats.count(ix, fp, plan, taken)
	stats.Duration = time.Since(start)
	res.Stats = stats
	if l.cooperative {
		l.remember(&memory{generation: max(generation, 0), assignments: res.Assignments, withheld: withheld, marked: mark && fp.FollowUp})
	}
	l.log.Debug("rebalance", stats.attrs()...)
	return res, nil
}

// settle marks, once, the members the round cannot assign: an empty
// member ID, or one the round got more than once (every copy).
func (r *Round) settle() {
	if r.settled {
		return
	}
	r.settled = true
	count := make(map[string]int, len(r.members))
	for _, mem := range r.members {
		count[mem.m.ID]++
	}
	for i := range r.members {
		mem := &r.members[i]
		switch n := count[mem.m.ID]; {
		case mem.m.ID == "":
			r.l.log.Warn("a member has an empty member ID; assigned nothing")
		case n > 1:
			r.l.log.Warn("member ID listed several times; assigned nothing", "member", mem.m.ID, "times", n)
			count[mem.m.ID] = -n // its later copies: logged already
		case n < 0:
		default:
			continue
		}
		if mem.status == readable {
			mem.status = excluded
		}
	}
}

// dropImpossible drops the claims of every member that claims a generation
// at or above gen, the generation being balanced into.
func (r *Round) dropImpossible(gen int32, stats *Stats) {
	for i := range r.members {
		mem := &r.members[i]
		if mem.status == unreadable || mem.m.Generation < gen {
			continue
		}
		n := mem.claims()
		if n > 0 || len(mem.m.UserData) > 0 {
			r.l.log.Warn("member claims a generation not below the one being balanced into; its claims and user data are ignored",
				"member", mem.m.ID, "partitions", n, "claimed", mem.m.Generation, "generation", gen)
		}
		stats.IgnoredClaims += n
		mem.owned, mem.view, mem.count = nil, wire.SubscriptionView{Subscription: mem.view.Subscription}, 0
		mem.m.Generation, mem.m.UserData = assignor.NoGeneration, nil
	}
}

// claims returns how many partitions the member claims, walking its
// client's iterator if it must.
func (mem *member) claims() int {
	if mem.owned == nil {
		return mem.count
	}
	n := 0
	for _, ids := range mem.owned {
		n += len(ids)
	}
	return n
}

// index builds the [assignor.Index] of the readable members and the topics,
// sized up front; the claims of members read from raw metadata are read
// into one array shared by all of them, each its own part.
func (r *Round) index() (*assignor.Index, error) {
	var b assignor.IndexBuilder
	members, claims, hint := 0, 0, 0
	for _, mem := range r.members {
		if mem.status == readable {
			members++
			claims += mem.count
			if mem.owned != nil {
				hint = 1
			}
		}
	}
	if hint > 0 {
		// Claims the client decoded cannot be counted without walking them:
		// in a settled group members claim about every partition once.
		for _, t := range r.topics {
			hint += len(t.Partitions)
		}
	}
	b.Grow(len(r.topics), members, claims+hint)
	for _, t := range r.topics {
		b.AddTopic(t)
	}
	parts := make([]int32, claims)
	for _, mem := range r.members {
		if mem.status != readable {
			continue
		}
		owned := mem.owned
		if mem.count > 0 && owned == nil {
			owned = mem.view.OwnedPartitions(parts[:mem.count:mem.count])
			parts = parts[mem.count:]
		}
		if owned == nil {
			owned = noClaims
		}
		b.AddMember(mem.m, owned)
	}
	return b.Build()
}

// noClaims yields nothing: a member that claims nothing.
func noClaims(func(string, []int32) bool) {}

// run runs the assignor on ix through its fastest path; a plan is checked
// and read into flat form.
func (r *Round) run(ix *assignor.Index) (assignor.FlatPlan, error) {
	var plan assignor.Plan
	var err error
	switch a := r.l.a.(type) {
	case assignor.FlatAssignor:
		fp, err := a.AssignFlat(ix)
		if err != nil {
			return assignor.FlatPlan{}, err
		}
		return fp, ix.Fits(fp)
	case assignor.IndexAssignor:
		plan, err = a.AssignIndex(ix)
	default:
		plan, err = a.Assign(ix.Group())
	}
	if err != nil {
		return assignor.FlatPlan{}, err
	}
	return ix.ReadPlan(plan)
}

// assignments returns one assignment per distinct non-empty member ID, in ID
// order: the plan's for a readable member, empty for the others.
func (r *Round) assignments(ix *assignor.Index, plan assignor.Plan, rejoin bool) []Assignment {
	ids := make([]string, 0, len(r.members))
	for _, mem := range r.members {
		if mem.m.ID != "" {
			ids = append(ids, mem.m.ID)
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	out := make([]Assignment, len(ids))
	for i, id := range ids {
		out[i] = Assignment{Member: id, Rejoin: rejoin}
		if m, ok := ix.MemberNumber(id); ok {
			mp := plan.Members[m]
			out[i].Partitions = mp.Assigned
			if !r.l.cfg.OmitAssignmentUserData {
				out[i].UserData = mp.UserData
			}
		}
	}
	return out
}
