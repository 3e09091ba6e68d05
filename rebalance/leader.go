package rebalance

import (
	"iter"
	"log/slog"
	"slices"
	"sync"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// Config configures a [Leader]. Its zero value is the default: racks as the
// members send them, fast re-join on, nothing logged.
type Config struct {
	// MemberRack gives the rack of a member whose subscription carries none
	// (below v3, or a null rack), from its member ID and static instance ID
	// ("" for a dynamic member). It runs once per member per round. Nil (the
	// default): such members have no rack.
	MemberRack func(memberID, instanceID string) string

	// DisableFastRejoin turns the fast re-join mark off: assignments carry
	// the assignor's own user data, unmarked. Default false: a cooperative
	// plan that withholds partitions marks every assignment (see the
	// package doc, # Fast re-join).
	DisableFastRejoin bool

	// OmitAssignmentUserData sends every member null assignment user
	// data: the assignor's own is dropped and the fast re-join mark is
	// never written. A classic group moves online to the consumer
	// protocol (KIP-848) only while no member's assignment carries user
	// data (Kafka refuses the upgrade otherwise: KAFKA-18134): set it on
	// every member before the group's last classic rebalance. An assignor
	// that carries state in its assignments (weighted's measured weights)
	// then works without it. Default false.
	OmitAssignmentUserData bool

	// LeaderRejoins says that the adapter makes the leader's own member
	// rejoin at once after a plan that withholds partitions for members
	// whose claims are unknown ([Stats.ClaimsUnknown] and
	// [Stats.FollowUp]): the follow-up round then needs nobody else.
	// Default false (a client with no way to rejoin, such as sarama): when
	// no member revokes anything in such a plan, the round takes one
	// partition from a member that holds it, so that the member revokes
	// it and rejoins at once (KIP-429), bringing the follow-up round.
	LeaderRejoins bool

	// Logger receives a warning for each thing a round works around rather
	// than fails on (a member it cannot read or assign, a claim it drops)
	// and, at debug level, one summary per round. Nil (the default) sends
	// warnings and errors to [slog.Default] as it is when they happen, and
	// nothing else.
	Logger *slog.Logger
}

// Leader runs one assignor on the group leader, round after round. Build
// one per adapter instance with [NewLeader]; it is safe for concurrent use
// (a round is not: use each from one goroutine).
type Leader struct {
	a           assignor.Assignor
	cfg         Config
	name        string
	cooperative bool
	// marks: the assignor builds its members' subscription user data, so
	// the fast re-join mark in its assignments cannot come back as its own
	// (see the package doc).
	marks bool
	log   *slog.Logger

	mu     sync.Mutex
	last   *memory // the last cooperative round (see memory.go)
	synced int32   // the newest generation its own member synced ([Leader.Delivered])
}

// NewLeader returns a leader running a with cfg. a must not be nil; its
// protocol name and declarations are read once, here.
func NewLeader(a assignor.Assignor, cfg Config) *Leader {
	l := &Leader{a: a, cfg: cfg, name: a.Name(), cooperative: assignor.Supports(a, assignor.Cooperative), log: cfg.Logger}
	_, hook := a.(assignor.SubscriptionUserDataAssignor)
	l.marks = hook && l.cooperative && !cfg.DisableFastRejoin && !cfg.OmitAssignmentUserData
	if l.log == nil {
		l.log = slog.New(warnings{})
	}
	l.log = l.log.With("assignor", l.name)
	return l
}

// Logger returns the leader's logger (Config.Logger, or the default), for an
// adapter's own records.
func (l *Leader) Logger() *slog.Logger { return l.log }

// Assignor returns the assignor the leader runs.
func (l *Leader) Assignor() assignor.Assignor { return l.a }

// Cooperative reports whether the assignor declares [assignor.Cooperative].
func (l *Leader) Cooperative() bool { return l.cooperative }

// Subscription is one member's JoinGroup subscription as a client decoded
// it (a ConsumerProtocolSubscription).
type Subscription struct {
	MemberID   string
	InstanceID string // "" for a dynamic member
	// Version is the subscription's version: it says which of the fields
	// below the member sent.
	Version  int16
	Topics   []string
	UserData []byte
	// Owned yields the partitions the member claims (v1+), a topic and
	// some of its partition IDs at a time; nil for none. It runs at most
	// twice, during [Round.Assign], and the slices it yields are kept until
	// the round's result is no longer used.
	Owned iter.Seq2[string, []int32]
	// Generation is the generation of the claims (v2+).
	Generation int32
	// Rack is the member's rack (v3+), "" for none.
	Rack string
}

// Round is one rebalance on the leader: the members and the topic metadata
// of one JoinGroup, then [Round.Assign]. It keeps the slices it is given
// (names, lists, user data, metadata bytes) until the result is no longer
// used: the client must not change them meanwhile. A round is used once,
// from one goroutine.
type Round struct {
	l       *Leader
	members []member // in the order added
	topics  []assignor.Topic
	decoder wire.SubscriptionDecoder
	settled bool // the members the round cannot assign are marked
}

// member is one member as a round reads it.
type member struct {
	m assignor.Member // Owned nil: the claims are in owned or view
	// owned yields the claims of a member its client decoded; view holds
	// those of a member read from raw metadata (count of them).
	owned  iter.Seq2[string, []int32]
	view   wire.SubscriptionView
	count  int
	status status
	// unknown: the member's claims could not be read; recall gives it
	// the claims the leader's last plan implies, and shadow what that
	// plan withheld from it.
	unknown bool
	shadow  []assignor.TopicPartitions
}

// status says whether a round can assign a member.
type status uint8

const (
	readable   status = iota
	unreadable        // not even its topics could be read: assigned nothing, claims unknown
	excluded          // an empty or duplicate member ID: assigned nothing, claims withheld
)

// NewRound opens a round.
func (l *Leader) NewRound() *Round { return &Round{l: l} }

// AddSubscription adds a member its client decoded. Below version 2 the
// claims' generation is read, for a cooperative assignor, from the user
// data (the cooperative-sticky layout Java and sarama send, or sticky's:
// [wire.UserDataGeneration]); a member without a v3 rack gets
// Config.MemberRack's; empty topic names are dropped. A member with an empty
// member ID is assigned nothing; so is every member whose ID the round gets
// more than once. Each is a warning. A subscription a client may have read
// cut short before its owned partitions (sarama reads one as owning
// nothing) has claims the round treats as unknown (see [Round.Assign]): at
// version 2 or above, no owned partitions and generation 0; at version 1,
// no owned partitions and a generation in the user data.
func (r *Round) AddSubscription(s Subscription) {
	m := assignor.Member{ID: s.MemberID, InstanceID: s.InstanceID, Topics: s.Topics, UserData: s.UserData, Generation: assignor.NoGeneration}
	if s.Version >= 2 {
		m.Generation = max(s.Generation, assignor.NoGeneration)
	}
	if s.Version >= 3 {
		m.Rack = s.Rack
	}
	mem := member{m: m}
	if s.Version >= 1 {
		mem.owned = s.Owned
		// A client that decodes subscriptions itself may read one cut
		// short before its owned partitions as one that owns none
		// (sarama does): at v2+ its generation then reads 0, which no
		// member sends (-1 before its first assignment, then 1 and up).
		mem.unknown = s.Owned == nil && s.Version >= 2 && s.Generation == 0
	}
	r.add(mem, s.Version)
	if last := &r.members[len(r.members)-1]; s.Version == 1 && s.Owned == nil && last.m.Generation > assignor.NoGeneration {
		// At v1 the cut is invisible: a member that owned partitions in
		// the generation its user data names and claims none now either
		// lost them all or was cut short. Its claims count as unknown,
		// which costs nothing when the leader remembers the last plan.
		last.unknown = true
	}
}

// AddMetadata adds a member from its raw JoinGroup metadata (a
// ConsumerProtocolSubscription of any version; a version above 3 reads as
// its version-3 prefix, trailing bytes are ignored), for clients that hand
// the leader undecoded bytes; it is otherwise [Round.AddSubscription]. What
// it cannot read costs that member alone, with a warning: metadata that does
// not decode is read as version 0 (its topics only, as kgo does for a v1 cut
// short: franz-go issue #493), losing its claims, generation, user data and
// rack; if not even its topics can be read, it is assigned nothing and its
// claims are unknown. The claims stay in metadata until Assign reads them;
// members whose topics or user data are the same bytes share one slice.
func (r *Round) AddMetadata(memberID, instanceID string, metadata []byte) {
	view, err := r.decoder.Decode(metadata)
	if err != nil {
		v0, ok := versionZero(metadata)
		if !ok {
			r.l.log.Warn("metadata unreadable; assigned nothing", "member", memberID, "bytes", len(metadata), "error", err)
			r.members = append(r.members, member{m: assignor.Member{ID: memberID, InstanceID: instanceID, Generation: assignor.NoGeneration}, status: unreadable, unknown: true})
			return
		}
		r.l.log.Warn("metadata unreadable; read as version 0: its topics, without claims, generation, user data or rack", "member", memberID, "bytes", len(metadata), "error", err)
		view = wire.SubscriptionView{Subscription: v0}
		r.add(member{m: view.Member(memberID, instanceID), view: view, unknown: true}, view.Version)
		return
	}
	if view.OwnedAbsent() {
		r.l.log.Warn("metadata ends before its owned partitions: what the member owns is unknown", "member", memberID, "version", view.Version, "bytes", len(metadata))
	}
	r.add(member{m: view.Member(memberID, instanceID), view: view, count: view.OwnedCount(), unknown: view.OwnedAbsent()}, view.Version)
}

// add records a decoded member: the generation below v2 from its user data,
// its rack, its topics without empty names.
func (r *Round) add(mem member, version int16) {
	l, m := r.l, &mem.m
	m.Generation = max(m.Generation, assignor.NoGeneration)
	if version < 2 && l.cooperative && len(m.UserData) > 0 {
		// Java and sarama members below Kafka 3.2 carry the generation of
		// their claims in the cooperative-sticky user data; ours with
		// cooperative.Config.InnerUserData, in sticky's.
		gen, err := wire.UserDataGeneration(m.UserData)
		if err != nil {
			l.log.Warn("user data unreadable; its claims count without a generation", "member", m.ID, "bytes", len(m.UserData), "error", err)
		}
		m.Generation = max(gen, assignor.NoGeneration)
	}
	if m.Rack == "" && l.cfg.MemberRack != nil {
		m.Rack = l.cfg.MemberRack(m.ID, m.InstanceID)
	}
	if slices.Contains(m.Topics, "") {
		l.log.Warn("subscription names an empty topic; ignored", "member", m.ID)
		m.Topics = slices.DeleteFunc(slices.Clone(m.Topics), func(t string) bool { return t == "" }) // a copy: Topics may be shared
	}
	r.members = append(r.members, mem)
}

// versionZero reads meta as a version-0 subscription (topics and user
// data, anything after them ignored) and keeps only its topics.
func versionZero(meta []byte) (wire.Subscription, bool) {
	if len(meta) < 2 {
		return wire.Subscription{}, false
	}
	v0 := slices.Clone(meta)
	v0[0], v0[1] = 0, 0
	sub, err := wire.DecodeSubscription(v0)
	if err != nil {
		return wire.Subscription{}, false
	}
	return wire.Subscription{Topics: sub.Topics, Generation: assignor.NoGeneration}, true
}

// Topics returns the topics the members it can assign subscribe to, sorted
// and distinct: the topics whose metadata the round needs. Call it once
// every member is added. Members whose topic list is the one before it
// (members of a group mostly share their subscription, and then mostly one
// slice) are not walked again.
func (r *Round) Topics() []string {
	r.settle()
	var topics []string
	var last []string
	for i, mem := range r.members {
		ts := mem.m.Topics
		if mem.status != readable || i > 0 && (sameSlice(ts, last) || slices.Equal(ts, last)) {
			continue
		}
		last = ts
		topics = append(topics, ts...)
	}
	slices.Sort(topics)
	return slices.Compact(topics)
}

// sameSlice reports whether x and y are the same slice: the same elements
// in memory, so equal without comparing a string.
func sameSlice(x, y []string) bool {
	return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
}

// Racks reports whether some member has a rack, so that replica racks are
// worth looking up for [Round.AddTopic] (KIP-881: racks matter only then).
func (r *Round) Racks() bool {
	return slices.ContainsFunc(r.members, func(mem member) bool { return mem.m.Rack != "" })
}

// AddTopic adds one topic of the metadata. A topic with an empty name is
// left out, with a warning (Kafka allows none, but metadata is input).
func (r *Round) AddTopic(t assignor.Topic) {
	if t.Name == "" {
		r.l.log.Warn("metadata names an empty topic; left out", "partitions", len(t.Partitions))
		return
	}
	r.topics = append(r.topics, t)
}
