package sticky

import (
	"cmp"
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// Config holds the options of the sticky assignor. The zero value is the
// default; every value is valid.
type Config struct {
	// IgnoreRacks turns rack-aware placement (KIP-881) off. Default false:
	// racks count whenever some member has a rack (Java's client.rack) and
	// some topic has replica racks, and then as many partitions as possible
	// go to a member in one of their replicas' racks, without hurting
	// balance. Java's sticky assignors have no switch (they are rack-aware
	// whenever client.rack is set); it is here for clients whose rack
	// information is unreliable (franz-go makes rack balancing opt-in with
	// BalanceRacks).
	IgnoreRacks bool
	// IgnoreUserData stops the assignor from reading eager history from the
	// subscription user data of members that send no owned partitions (the
	// only history that eager `sticky` members before subscription v1
	// carry). Default false. No Java equivalent; set it when members put
	// other bytes there that could happen to decode.
	IgnoreUserData bool
}

// Assignor is the sticky assignor. It is safe for concurrent use: it keeps
// no state between calls.
type Assignor struct {
	cfg Config
}

var (
	_ assignor.Assignor                     = (*Assignor)(nil)
	_ assignor.ProtocolAssignor             = (*Assignor)(nil)
	_ assignor.BalancedAssignor             = (*Assignor)(nil)
	_ assignor.StickyAssignor               = (*Assignor)(nil)
	_ assignor.SubscriptionUserDataAssignor = (*Assignor)(nil)
	_ assignor.FlatAssignor                 = (*Assignor)(nil)
)

// New returns the sticky assignor with the default configuration.
func New() *Assignor { return &Assignor{} }

// NewWithConfig returns the sticky assignor with configuration cfg. Every
// Config is valid today, so the error is always nil; it is there so that
// every assignor package's NewWithConfig reads alike, and a future option
// can be validated without an API change.
func NewWithConfig(cfg Config) (*Assignor, error) { return &Assignor{cfg: cfg}, nil }

// Name returns "sticky", the protocol name of Java's StickyAssignor.
func (*Assignor) Name() string { return "sticky" }

// Protocols returns [assignor.Eager] only: wrap the assignor with the
// cooperative package for cooperative-sticky.
func (*Assignor) Protocols() []assignor.Protocol { return []assignor.Protocol{assignor.Eager} }

// Balanced returns true: the plan's member loads minimise the sum of
// squares over all valid plans.
func (*Assignor) Balanced() bool { return true }

// Sticky returns true: given balance and racks, the fewest partitions leave
// their valid owner.
func (*Assignor) Sticky() bool { return true }

// Assign computes the plan; see the package documentation for what it
// optimises. It fails only when [assignor.NewIndex] does. It does not
// mutate g and the plan does not alias it (topic name strings aside, which
// are immutable).
func (a *Assignor) Assign(g assignor.Group) (assignor.Plan, error) {
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return assignor.Plan{}, err
	}
	fp, _ := a.AssignFlat(ix)
	return ix.PlanOf(fp), nil
}

// AssignFlat is Assign on the group ix describes, answered in flat form
// (see [assignor.FlatAssignor]): the holder of each flat partition, no user
// data. It never fails.
func (a *Assignor) AssignFlat(ix *assignor.Index) (assignor.FlatPlan, error) {
	return assignor.FlatPlan{Holder: a.solve(a.withHistory(ix)).assign}, nil
}

// solve runs the whole optimisation on ix; the answer is in sol.assign.
func (a *Assignor) solve(ix *assignor.Index) *solver {
	sol := newSolver(ix, !a.cfg.IgnoreRacks)
	var f *flows
	switch {
	case len(sol.hubSet) == 0:
		f = sol.newFlows()
	case sol.uniform():
		f = sol.solveUniform()
	default:
		f = sol.solveFlow()
	}
	sol.expand(f)
	return sol
}

// withHistory returns ix, or, when some member claims nothing but carries
// eager sticky user data that claims something (the only history eager
// `sticky` members before subscription v1 send), an index in which those
// members claim what their user data says, at its generation. Malformed
// user data is no history, never an error.
func (a *Assignor) withHistory(ix *assignor.Index) *assignor.Index {
	if a.cfg.IgnoreUserData {
		return ix
	}
	var replace map[int32]assignor.MemberState
	claimsOutside := ix.Outside() // sorted by member
	for m := range int32(ix.NumMembers()) {
		outside := false
		for len(claimsOutside) > 0 && claimsOutside[0].Member <= m {
			outside = outside || claimsOutside[0].Member == m
			claimsOutside = claimsOutside[1:]
		}
		userData := ix.Member(m).UserData
		if len(userData) == 0 || len(ix.Claims(m)) > 0 || outside {
			continue
		}
		u, err := wire.DecodeStickyUserData(userData)
		if err != nil || len(u.Owned) == 0 {
			continue
		}
		if replace == nil {
			replace = map[int32]assignor.MemberState{}
		}
		replace[m] = assignor.MemberState{Generation: u.Generation, Owned: u.Owned}
	}
	if replace == nil {
		return ix
	}
	return ix.Reclaimed(replace)
}

// SubscriptionUserData returns the eager sticky user data for a member in
// state s: its owned partitions (sorted by topic, then partition, as Java
// and franz-go write them) and its generation, in the version-1 layout. It
// fails only for what the layout cannot carry (a topic name over 32767
// bytes). It keeps no state.
func (*Assignor) SubscriptionUserData(s assignor.MemberState) ([]byte, error) {
	owned := assignor.CloneTopicPartitions(s.Owned)
	slices.SortStableFunc(owned, func(a, b assignor.TopicPartitions) int { return cmp.Compare(a.Topic, b.Topic) })
	for _, tp := range owned {
		slices.Sort(tp.Partitions)
	}
	u := wire.StickyUserData{Owned: owned, Generation: s.Generation}
	if err := u.Validate(); err != nil {
		return nil, err
	}
	return u.AppendTo(nil), nil
}
