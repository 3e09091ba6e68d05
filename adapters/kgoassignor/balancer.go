package kgoassignor

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/rebalance"
	"github.com/kgroup/assignor/sticky"
)

// ErrNilAssignor is returned by [New] when it is given no assignor.
var ErrNilAssignor = errors.New("kgoassignor: nil assignor")

// ErrNoName is returned by [New] for an assignor whose Name is empty: kgo
// advertises the name as the JoinGroup protocol name, which must not be
// empty.
var ErrNoName = errors.New("kgoassignor: assignor has an empty name")

// Stats describes one rebalance on the leader: see [Config.OnRebalance].
type Stats = rebalance.Stats

// Config configures a [Balancer]. Its zero value is the default: racks as
// members and kgo report them, warnings to the bound client's logger (or
// [slog.Default] while none is bound), fast re-join on.
type Config struct {
	// MemberRack gives the rack of a member whose subscription carries none.
	// It runs on the leader, once per member per rebalance, with the member
	// ID and the static instance ID ("" for a dynamic member). Members that
	// send a rack (subscription v3: kgo with kgo.Rack, Java with client.rack)
	// keep theirs; sarama members never send one. Nil (the default) means
	// members without a v3 rack have no rack. Java's property: client.rack,
	// set on each member instead.
	MemberRack func(memberID, instanceID string) string

	// ReplicaRacks gives the racks of the replicas of one partition, in any
	// order, or nil when unknown. It runs on the leader, once per partition
	// of every topic being balanced, and only when some member has a rack.
	// Nil (the default) reads them from what kgo gives balancers
	// (kgo.BalanceInfo: each partition's replicas in the client's metadata
	// cache, then each broker's rack), which is where a Java leader reads
	// them too.
	ReplicaRacks func(topic string, partition int32) []string

	// Logger receives a warning for each thing the balancer works around
	// rather than fails on (a member's undecodable metadata, an impossible
	// claim, a duplicate or empty member ID, a balancer shared by two
	// clients or bound to none, a fast re-join it skips) and, at debug
	// level, each member as read and one summary per rebalance. Nil (the
	// default) logs to the logger of the client the balancer is bound to
	// (kgo.WithLogger), or, while no client with a logger is bound, warnings
	// only to [slog.Default].
	Logger *slog.Logger

	// OnRebalance, when set, is called on the leader once per plan with
	// the rebalance's figures ([Stats]: members, moved, withheld, given
	// back, follow-up, leader time, count spread), after the plan is made
	// and before kgo sends it. It runs in kgo's group goroutine: keep it
	// short (feed a counter or a histogram).
	OnRebalance func(Stats)

	// DisableFastRejoin turns fast re-join off for this member (see the
	// package doc, # Fast re-join). As leader it then sends each member
	// the assignor's own assignment user data, unmarked; as a member it
	// ignores the mark, and rejoins for a follow-up round only when it
	// revoked something or its heartbeat says the group is rebalancing.
	// Default false: on. Java has no such property; its members ignore the
	// mark.
	DisableFastRejoin bool

	// OmitAssignmentUserData makes this member's leader send every
	// member null assignment user data (no assignor user data, no fast
	// re-join mark): what a classic group needs before it moves online to
	// the consumer protocol, KIP-848 (docs/kip848.md). Set it on every
	// member before the group's last classic rebalance. Default false.
	OmitAssignmentUserData bool
}

// Balancer is an [assignor.Assignor] as a kgo.GroupBalancer. It also
// implements kgo.HookNewClient and kgo.HookClientClosed, to bind itself to
// the client that uses it: [Balancer.Opts] passes it to kgo as both.
//
//	b := kgoassignor.CooperativeSticky()
//	cl, err := kgo.NewClient(append(opts, b.Opts()...)...)
//
// # One client per Balancer
//
// Build one Balancer per client. kgo's member-side calls carry no client
// identity: the generation an [assignor.AssignmentObserver] is told comes
// from the bound client (kgo.Client.GroupMetadata), fast re-join makes the
// bound client rejoin (see the package doc), and an assignor with
// member-side state serves one member. The leader side keeps its last
// plan between rebalances, for members whose claims it cannot read (see the
// package doc, # Unreadable metadata). A Balancer hooked into a second client while the
// first is open warns and, for as long as more than one client is open,
// tells the observer [assignor.NoGeneration] rather than another client's
// generation and makes no client rejoin for a fast re-join mark: kgo
// cannot fail NewClient from a hook, and the balancer cannot tell which
// client a call comes from, so it degrades rather than guesses. All methods
// are safe for concurrent use. Build Balancers with [New] or
// [CooperativeSticky]; the zero value has no assignor.
type Balancer struct {
	a           assignor.Assignor
	cfg         Config
	name        string
	cooperative bool
	obs         assignor.AssignmentObserver // nil if a has no such hook
	leader      *rebalance.Leader
	log         *slog.Logger

	clients clients
	fast    fastRejoin
}

// Compile-time proof of what a Balancer implements.
var (
	_ kgo.GroupBalancer    = (*Balancer)(nil)
	_ kgo.HookNewClient    = (*Balancer)(nil)
	_ kgo.HookClientClosed = (*Balancer)(nil)
)

// New returns a as a kgo.GroupBalancer. It fails only for a nil assignor
// ([ErrNilAssignor]) or one with an empty name ([ErrNoName]). See
// [Balancer] for why each client needs its own.
//
//	b, err := kgoassignor.New(cooperative.Wrap(roundrobin.New()), kgoassignor.Config{})
func New(a assignor.Assignor, cfg Config) (*Balancer, error) {
	if a == nil {
		return nil, ErrNilAssignor
	}
	if a.Name() == "" {
		return nil, fmt.Errorf("%w (%T)", ErrNoName, a)
	}
	return build(a, cfg), nil
}

// CooperativeSticky returns this module's cooperative-sticky assignor
// (cooperative.Wrap(sticky.New()), protocol name "cooperative-sticky") as a
// balancer for one client, with the default [Config]. It speaks the same
// protocol as Java's, sarama's and kgo's own cooperative-sticky, so members
// of all four can share a group; whose guarantees then hold depends on which
// member leads (see the package doc, # Mixed groups). Use [New] for options.
func CooperativeSticky() *Balancer {
	return build(cooperative.Wrap(sticky.New()), Config{})
}

// build is New for an assignor known to be non-nil and named.
func build(a assignor.Assignor, cfg Config) *Balancer {
	b := &Balancer{a: a, cfg: cfg, name: a.Name(), cooperative: assignor.Supports(a, assignor.Cooperative)}
	b.obs, _ = a.(assignor.AssignmentObserver)
	b.log = cfg.Logger
	if b.log == nil {
		b.log = slog.New(&routeHandler{clients: &b.clients})
	}
	b.log = b.log.With("adapter", "kgoassignor")
	b.leader = rebalance.NewLeader(a, rebalance.Config{MemberRack: cfg.MemberRack, DisableFastRejoin: cfg.DisableFastRejoin, OmitAssignmentUserData: cfg.OmitAssignmentUserData, LeaderRejoins: true, Logger: b.log})
	b.log = b.log.With("assignor", b.name)
	b.fast.force = (*kgo.Client).ForceRebalance
	b.fast.after = func(d time.Duration, f func()) { time.AfterFunc(d, f) }
	return b
}

// Opts returns the two options that plug b into a kgo client: kgo.Balancers
// (b, as the group's only balancer) and kgo.WithHooks (so that b binds
// itself to the client). Pass them together, so fast re-join and the
// observer's generation cannot be half-wired:
//
//	cl, err := kgo.NewClient(append(opts, b.Opts()...)...)
//
// To list several balancers (a migration), pass kgo.Balancers and
// kgo.WithHooks yourself with every one of them.
func (b *Balancer) Opts() []kgo.Opt {
	return []kgo.Opt{kgo.Balancers(b), kgo.WithHooks(b)}
}

// Assignor returns the assignor the balancer runs.
func (b *Balancer) Assignor() assignor.Assignor { return b.a }

// ProtocolName returns the assignor's name, the protocol name kgo
// advertises in JoinGroup. kgo treats the names "range", "roundrobin",
// "sticky" and "cooperative-sticky" as its own when a restarted static
// leader is told to skip assignment (KIP-814): it balances anyway and
// rejoins if the bytes differ from the broker's; see the package doc.
func (b *Balancer) ProtocolName() string { return b.name }

// IsCooperative reports whether the assignor declares the cooperative
// protocol ([assignor.Supports]); kgo then runs KIP-429's member lifecycle
// when the group chooses this balancer.
func (b *Balancer) IsCooperative() bool { return b.cooperative }
