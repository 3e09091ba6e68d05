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
)

// New returns the sticky assignor with the default configuration.
func New() *Assignor { return &Assignor{} }

// NewWithConfig returns the sticky assignor with configuration cfg. Every
// Config is valid.
func NewWithConfig(cfg Config) *Assignor { return &Assignor{cfg: cfg} }

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
	if !a.cfg.IgnoreUserData {
		g = groupWithUserDataHistory(g)
	}
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return assignor.Plan{}, err
	}
	return a.solve(ix, true).plan(), nil
}

// AssignIndex is Assign on the group ix was built from, answered as the
// holder of each flat partition (a member number, or -1), so that the
// cooperative wrapper, which has already indexed the group, need not index
// it again (it finds this method by type assertion: see
// cooperative.IndexAssignor). When members carry eager sticky user data
// that ix does not reflect, it indexes the group with that history, as
// Assign does; member and partition numbers are the same in both indexes.
// The holder slice is the caller's; ix is neither mutated nor kept.
func (a *Assignor) AssignIndex(ix *assignor.Index) ([]int32, [][]byte, error) {
	if a.cfg.IgnoreUserData {
		return a.solve(ix, false).assign, nil, nil
	}
	if members := withUserDataHistory(len(ix.Members), func(i int) *assignor.Member { return ix.Members[i] }); members != nil {
		var err error
		if ix, err = assignor.NewIndex(assignor.Group{Members: members, Topics: ix.Topics}); err != nil {
			return nil, nil, err
		}
	}
	return a.solve(ix, false).assign, nil, nil
}

// solve runs the whole optimisation on ix; the answer is in pr.assign, and
// with forPlan set pr.plan may be called.
func (a *Assignor) solve(ix *assignor.Index, forPlan bool) *problem {
	pr := newProblem(ix, !a.cfg.IgnoreRacks, forPlan)
	var f *flows
	switch {
	case len(pr.hubSet) == 0:
		f = pr.newFlows()
	case pr.uniform():
		f = pr.solveUniform()
	default:
		f = pr.solveFlow()
	}
	pr.expand(f)
	return pr
}

// groupWithUserDataHistory returns g, or a shallow copy of it whose members
// carry their user data history (see withUserDataHistory).
func groupWithUserDataHistory(g assignor.Group) assignor.Group {
	if members := withUserDataHistory(len(g.Members), func(i int) *assignor.Member { return &g.Members[i] }); members != nil {
		g.Members = members
	}
	return g
}

// withUserDataHistory returns nil when no member of the n that member
// returns claims nothing but carries eager sticky user data that claims
// something; otherwise a copy of the members in which those claim what their
// user data says, at its generation (each user data decoded once). Malformed
// user data is no history, never an error.
func withUserDataHistory(n int, member func(i int) *assignor.Member) []assignor.Member {
	var members []assignor.Member
	for i := range n {
		m := member(i)
		if len(m.Owned) > 0 || len(m.UserData) == 0 {
			continue
		}
		u, err := wire.DecodeStickyUserData(m.UserData)
		if err != nil || len(u.Owned) == 0 {
			continue
		}
		if members == nil {
			members = make([]assignor.Member, n)
			for j := range n {
				members[j] = *member(j)
			}
		}
		members[i].Owned, members[i].Generation = u.Owned, u.Generation
	}
	return members
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
