package contender

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// oursRunner runs one of our assignors through our codec: every member's
// subscription decoded with wire.DecodeSubscription and turned into an
// assignor.Member, Assign on the resulting Group, and every member's plan
// encoded with wire.Assignment.AppendTo. With Core set, Lead is Assign alone
// on a Group decoded beforehand. With Claims set, members send their owned
// partitions whatever the protocol, and no user data.
//
// Members encode subscription v3 as a Java member does: the topics, the
// rack, the generation of their last assignment, the owned partitions only
// when the assignor is cooperative (an eager member revokes everything
// before it rejoins), and the user data the assignor's member-side hook
// (assignor.SubscriptionUserDataAssignor) makes from the member's state.
type oursRunner struct {
	Assignor assignor.Assignor
	Core     bool
	Claims   bool

	topics []assignor.Topic
	ids    []string
	raw    [][]byte
	group  assignor.Group // Core only
	plan   assignor.Plan
	out    [][]byte
}

func (r *oursRunner) Prepare(topics []assignor.Topic, members []MemberJoin, _ int32) error {
	r.topics = topics
	r.ids = make([]string, len(members))
	r.raw = make([][]byte, len(members))
	cooperative := assignor.Supports(r.Assignor, assignor.Cooperative)
	hook, _ := r.Assignor.(assignor.SubscriptionUserDataAssignor)
	for i, m := range members {
		sub := wire.Subscription{Version: 3, Topics: m.Topics, Generation: m.Generation, Rack: m.Rack}
		if cooperative || r.Claims {
			sub.Owned = m.Owned
		}
		if hook != nil && !r.Claims {
			ud, err := hook.SubscriptionUserData(assignor.MemberState{Topics: m.Topics, Owned: m.Owned, Generation: m.Generation})
			if err != nil {
				return fmt.Errorf("contender: member %q: SubscriptionUserData: %w", m.ID, err)
			}
			sub.UserData = ud
		}
		r.ids[i] = m.ID
		r.raw[i] = sub.AppendTo(nil)
	}
	if r.Core {
		g, err := r.decode()
		if err != nil {
			return err
		}
		r.group = g
	}
	return nil
}

func (r *oursRunner) decode() (assignor.Group, error) {
	g := assignor.Group{Members: make([]assignor.Member, len(r.raw)), Topics: r.topics}
	for i, b := range r.raw {
		sub, err := wire.DecodeSubscription(b)
		if err != nil {
			return assignor.Group{}, fmt.Errorf("contender: member %q: %w", r.ids[i], err)
		}
		g.Members[i] = sub.Member(r.ids[i], "")
	}
	return g, nil
}

func (r *oursRunner) Lead() error {
	g := r.group
	if !r.Core {
		var err error
		if g, err = r.decode(); err != nil {
			return err
		}
	}
	plan, err := r.Assignor.Assign(g)
	if err != nil {
		return fmt.Errorf("contender: Assign: %w", err)
	}
	r.plan = plan
	if r.Core {
		return nil
	}
	r.out = make([][]byte, len(plan.Members))
	for i, mp := range plan.Members {
		r.out[i] = wire.Assignment{Version: 3, Partitions: mp.Assigned, UserData: mp.UserData}.AppendTo(nil)
	}
	return nil
}

func (r *oursRunner) Result() ([]Assignment, error) {
	out := make([]Assignment, len(r.plan.Members))
	for i, mp := range r.plan.Members {
		if r.Core {
			out[i] = Assignment{Member: mp.Member, Partitions: assignor.CloneTopicPartitions(mp.Assigned), UserData: mp.UserData}
			continue
		}
		a, err := decodeAssignment(mp.Member, r.out[i])
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	sortAssignments(out)
	return out, nil
}

// NewOurs returns a runner of the assignor newAssignor returns as our
// contenders run: through our codec (package wire), bytes to bytes, or with
// core set, Assign alone on a group decoded beforehand.
func NewOurs(newAssignor func() assignor.Assignor, core bool) func() Runner {
	return func() Runner { return &oursRunner{Assignor: newAssignor(), Core: core} }
}
