package rebalance

import (
	"encoding/binary"
	"log/slog"
	"slices"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// Result is a round's answer.
type Result struct {
	// Assignments has one entry per distinct non-empty member ID the round
	// was given, sorted by member ID; a member the round could not assign
	// gets an empty one, so that every member hears back.
	Assignments []Assignment
	// Stats describes the round.
	Stats Stats
}

// Assignment is one member's assignment: what the leader sends it in
// SyncGroup, and what [ParseAssignment] reads back on the member.
type Assignment struct {
	// Member is the member ID ("" in what ParseAssignment returns).
	Member string
	// Partitions are the assigned partitions, sorted by topic, then
	// partition, as Java sends them. They may share backing arrays with
	// other assignments of the same round (each slice's capacity clipped).
	Partitions []assignor.TopicPartitions
	// UserData is the assignor's own assignment user data; nil is null.
	UserData []byte
	// Rejoin is the fast re-join mark: the plan withholds partitions, and
	// the member should rejoin at once (see the package doc).
	Rejoin bool
}

// AppendUserData appends to dst the assignment's user data as it goes on
// the wire: the assignor's own, inside the fast re-join envelope when a is
// marked (and, so that it reads back unchanged, in the unlikely case that
// it begins with the envelope's magic). The same assignment always gives
// the same bytes. It returns dst unchanged (nil stays nil) when the wire
// user data is null.
func (a Assignment) AppendUserData(dst []byte) []byte {
	if a.UserData == nil && !a.Rejoin {
		return dst
	}
	return appendEnvelope(dst, a.Rejoin, a.UserData)
}

// userDataSize is the size of what AppendUserData appends.
func (a Assignment) userDataSize() int { return envelopeSize(a.Rejoin, a.UserData) }

// Size is the size of a's encoding by [Assignment.AppendTo].
func (a Assignment) Size() int {
	n := 2 + 4 + 4 + a.userDataSize()
	for _, tp := range a.Partitions {
		n += 2 + len(tp.Topic) + 4 + 4*len(tp.Partitions)
	}
	return n
}

// AppendTo appends a's ConsumerProtocolAssignment, version 3 (Java's; every
// client reads any version), to dst: the partitions, then the user data
// [Assignment.AppendUserData] writes. It grows dst at most once. The same
// assignment always gives the same bytes (KIP-814: a restarted static
// leader compares them with the broker's copy).
func (a Assignment) AppendTo(dst []byte) []byte {
	dst = slices.Grow(dst, a.Size())
	dst = binary.BigEndian.AppendUint16(dst, 3)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(a.Partitions)))
	for _, tp := range a.Partitions {
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(tp.Topic)))
		dst = append(dst, tp.Topic...)
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(tp.Partitions)))
		for _, p := range tp.Partitions {
			dst = binary.BigEndian.AppendUint32(dst, uint32(p))
		}
	}
	if a.UserData == nil && !a.Rejoin {
		return binary.BigEndian.AppendUint32(dst, 0xFFFFFFFF) // null
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(a.userDataSize()))
	return a.AppendUserData(dst)
}

// ParseAssignment decodes an assignment a member received in SyncGroup (a
// ConsumerProtocolAssignment of any version; bytes after its user data are
// ignored, so assignments from Java, sarama and kgo's own leaders all
// parse) and takes the fast re-join mark out of its user data. Empty bytes
// are an empty assignment, not an error: that is what the broker sends a
// member the leader's plan leaves out. Bytes that do not decode are a
// [*wire.DecodeError] naming the field. User data that begins with the
// envelope's magic but is not a whole envelope is handed on as it is,
// unmarked, beside a valid assignment and an error wrapping [ErrEnvelope]
// (see [ReadUserData]): a caller logs that one and goes on. The partitions
// are canonical ([assignor.NormalizeTopicPartitions]).
func ParseAssignment(b []byte) (Assignment, error) {
	if len(b) == 0 {
		return Assignment{}, nil
	}
	w, err := wire.DecodeAssignment(b)
	if err != nil {
		return Assignment{}, err
	}
	a := Assignment{Partitions: assignor.NormalizeTopicPartitions(w.Partitions)}
	a.UserData, a.Rejoin, err = ReadUserData(w.UserData)
	return a, err
}

// Stats describes one round on the leader. Partition counts are over the
// leader's metadata of the subscribed topics.
type Stats struct {
	// Generation is the generation being balanced into, or 0 when the
	// client did not say.
	Generation int32
	// Members is how many members joined; Excluded how many of them the
	// round assigned nothing because it could not (an empty or duplicate
	// member ID, metadata it could not read).
	Members, Excluded int
	// ClaimsUnknown is how many members' claims the round could not read
	// (metadata that does not decode, a subscription cut short before its
	// owned partitions): it gave them the claims the leader's last plan
	// implies or, without one it could vouch for, withheld every partition
	// no other member claims (see [Round.Assign]).
	ClaimsUnknown int
	// Partitions is how many partitions the metadata holds.
	Partitions int
	// Moved is how many partitions this round takes from their valid owner:
	// given to another member now (eager), or withheld until the follow-up
	// round (cooperative).
	Moved int
	// Withheld is how many claimed partitions of subscribed topics nobody
	// holds after this round, and claims outside the metadata the round
	// kept from their claimer for a member it could not assign: the
	// follow-up round hands them over.
	Withheld int
	// GivenBack is how many claims outside the leader's metadata (a topic or
	// partition it does not know yet) the round returns to their claimer.
	GivenBack int
	// IgnoredClaims is how many claimed partitions the round did not trust:
	// claims at or above the generation being balanced into.
	IgnoredClaims int
	// FollowUp reports that the plan withholds partitions, so the group
	// rebalances again (KIP-429's second round).
	FollowUp bool
	// MinAssigned and MaxAssigned are the fewest and most partitions a
	// member the round could assign was given: their difference is the
	// plan's count spread.
	MinAssigned, MaxAssigned int
	// Duration is the leader's time for the round: reading the members into
	// the canonical view, the assignor, and the assignments.
	Duration time.Duration
}

// count fills the figures that come from the plan: moved, withheld (taken:
// the partitions withheld for members the round could not assign, nil for
// none), given back and the count spread.
func (s *Stats) count(ix *assignor.Index, fp assignor.FlatPlan, plan assignor.Plan, taken []bool) {
	s.Partitions = ix.NumPartitions()
	s.FollowUp = fp.FollowUp
	withheld := 0
	for t := range int32(ix.NumTopics()) {
		first, end := ix.TopicRange(t)
		wanted := len(ix.Subscribers(t)) > 0
		for p := first; p < end; p++ {
			h, o := fp.Holder[p], ix.Owner(p)
			if o >= 0 && h != o {
				s.Moved++
			}
			if h < 0 && wanted && (o != assignor.Unclaimed || taken != nil && taken[p]) {
				withheld++
			}
		}
	}
	s.Withheld += withheld
	for _, given := range fp.GivenBack {
		if given {
			s.GivenBack++
		}
	}
	for i, mp := range plan.Members {
		n := mp.NumAssigned()
		if i == 0 || n < s.MinAssigned {
			s.MinAssigned = n
		}
		s.MaxAssigned = max(s.MaxAssigned, n)
	}
}

// attrs returns s as log attributes.
func (s Stats) attrs() []any {
	return []any{
		slog.Int("generation", int(s.Generation)), slog.Int("members", s.Members), slog.Int("excluded", s.Excluded), slog.Int("claims_unknown", s.ClaimsUnknown),
		slog.Int("partitions", s.Partitions), slog.Int("moved", s.Moved), slog.Int("withheld", s.Withheld),
		slog.Int("given_back", s.GivenBack), slog.Int("ignored_claims", s.IgnoredClaims), slog.Bool("follow_up", s.FollowUp),
		slog.Int("min_assigned", s.MinAssigned), slog.Int("max_assigned", s.MaxAssigned), slog.Duration("duration", s.Duration),
	}
}
