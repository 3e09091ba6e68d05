package e2e

import (
	"sync"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/adapters/kgoassignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// oursKgoBalancer returns ours on franz-go for member: adapters/kgoassignor over
// cooperative.Wrap(sticky.New()) with the default Config (fast re-join on), the assignor
// wrapped so that the ledger learns which generations the member led. The balancer must reach
// kgo unwrapped, as kgo.Balancers and as kgo.WithHooks: it binds itself to the client that
// lists it, which fast re-join needs.
func oursKgoBalancer(l *ledger, member string) (*kgoassignor.Balancer, error) {
	return kgoassignor.New(&ledAssignor{inner: cooperative.Wrap(sticky.New()), ledger: l, member: member}, kgoassignor.Config{})
}

// ledAssignor forwards every hook the adapter uses to inner and records leadership: the
// adapter calls Assign on the leader only, after the member's JoinGroupMetadata (where it
// calls SubscriptionUserData) and before its ParseSyncAssignment (where it calls OnAssignment
// with the generation the bound client joined). An Assign followed by an OnAssignment therefore
// means the member led that generation; a join in between (the sync failed) forgets the Assign.
type ledAssignor struct {
	inner  assignor.Assignor
	ledger *ledger
	member string

	mu      sync.Mutex
	planned bool
}

// The hooks of cooperative.Wrap that the adapter reads.
var (
	_ assignor.ProtocolAssignor             = (*ledAssignor)(nil)
	_ assignor.SubscriptionUserDataAssignor = (*ledAssignor)(nil)
	_ assignor.AssignmentObserver           = (*ledAssignor)(nil)
	_ assignor.BalancedAssignor             = (*ledAssignor)(nil)
	_ assignor.StickyAssignor               = (*ledAssignor)(nil)
)

func (a *ledAssignor) Name() string                   { return a.inner.Name() }
func (a *ledAssignor) Protocols() []assignor.Protocol { return assignor.Protocols(a.inner) }
func (a *ledAssignor) Balanced() bool                 { return assignor.IsBalanced(a.inner) }
func (a *ledAssignor) Sticky() bool                   { return assignor.IsSticky(a.inner) }

func (a *ledAssignor) Assign(g assignor.Group) (assignor.Plan, error) {
	plan, err := a.inner.Assign(g)
	a.mu.Lock()
	a.planned = err == nil
	a.mu.Unlock()
	return plan, err
}

func (a *ledAssignor) SubscriptionUserData(st assignor.MemberState) ([]byte, error) {
	a.mu.Lock()
	a.planned = false
	a.mu.Unlock()
	sub, ok := a.inner.(assignor.SubscriptionUserDataAssignor)
	if !ok {
		return nil, nil
	}
	return sub.SubscriptionUserData(st)
}

func (a *ledAssignor) OnAssignment(assigned []assignor.TopicPartitions, userData []byte, generation int32) {
	a.mu.Lock()
	led := a.planned
	a.planned = false
	a.mu.Unlock()
	if led && generation > 0 {
		a.ledger.ledBy(generation, a.member, kindOursKgo)
	}
	if obs, ok := a.inner.(assignor.AssignmentObserver); ok {
		obs.OnAssignment(assigned, userData, generation)
	}
}

// franzBalancer returns the balancer options of franz-go member c: kgo's own
// cooperative-sticky, recorded, or (kind ours-kgo) ours, as balancer and hook.
func franzBalancer(l *ledger, c goMemberConfig) ([]kgo.Opt, error) {
	if c.kind != kindOursKgo {
		return []kgo.Opt{kgo.Balancers(&recordingBalancer{GroupBalancer: kgo.CooperativeStickyBalancer(), member: c.name, ledger: l})}, nil
	}
	b, err := oursKgoBalancer(l, c.name)
	if err != nil {
		return nil, err
	}
	return []kgo.Opt{kgo.Balancers(b), kgo.WithHooks(b)}, nil
}
