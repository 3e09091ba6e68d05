package cli

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/rebalance"
	"github.com/kgroup/assignor/weighted"
	"github.com/kgroup/assignor/wire"
)

// User data layouts a member's subscription user data is read as.
const (
	userDataNone        = "none"        // empty or null
	userDataCooperative = "cooperative" // the 4-byte generation of cooperative-sticky (Java, sarama, ours)
	userDataSticky      = "sticky"      // the eager sticky layout (Java, sarama, franz-go): previous assignment, generation
	userDataWeighted    = "weighted"    // package weighted's layout, version 0: the generation
	userDataReport      = "weighted+report"
	userDataUnknown     = "unknown" // bytes of no layout this command knows
)

// member is one member decoded: what it subscribes to and claims (from its
// JoinGroup metadata), what it was assigned (from its SyncGroup
// assignment), and what could not be read.
type member struct {
	ID, InstanceID, ClientID, Host, Rack string

	// SubscriptionVersion is the ConsumerProtocolSubscription's version;
	// -1 when there is none (not Stable, or a KIP-848 member).
	SubscriptionVersion int16
	Topics              []string
	// Owned are the partitions the member claimed when it joined (v1+).
	Owned []assignor.TopicPartitions
	// Claim is the generation of those claims: from the subscription
	// (v2+), else from the user data; assignor.NoGeneration when neither
	// says. For a KIP-848 member, its member epoch.
	Claim     int32
	ClaimFrom string // "subscription", "user data", "member epoch" or ""
	UserData  string // one of the userData* layouts
	// Report is the weighted report the member sent, nil if none.
	Report *weighted.Report
	// Assigned is the member's current assignment, sorted.
	Assigned []assignor.TopicPartitions
	// Rejoin: the assignment's user data is marked for fast re-join.
	Rejoin bool
	// KIP-848: the member's target assignment.
	Target []assignor.TopicPartitions
	// Problems are what could not be read, each naming the field.
	Problems []string

	rawUserData []byte
}

// decodeClassic decodes a classic member under the group's protocol
// (the assignor's name, which says which user-data layout to expect).
// It never fails: what it cannot read is a problem on the member.
func decodeClassic(r rawMember, protocol string) member {
	m := member{ID: r.MemberID, InstanceID: r.InstanceID, ClientID: r.ClientID, Host: r.ClientHost,
		SubscriptionVersion: -1, Claim: assignor.NoGeneration, UserData: userDataNone}
	if len(r.Metadata) > 0 {
		sub, err := wire.DecodeSubscription(r.Metadata)
		if err != nil {
			m.Problems = append(m.Problems, fmt.Sprintf("subscription metadata (%d bytes) does not decode: %v", len(r.Metadata), err))
		} else {
			m.SubscriptionVersion = sub.Version
			m.Topics = slices.Sorted(slices.Values(sub.Topics))
			m.Owned = assignor.NormalizeTopicPartitions(sub.Owned)
			m.Rack = sub.Rack
			m.rawUserData = sub.UserData
			ud := readUserData(sub.UserData, protocol)
			m.UserData, m.Report = ud.layout, ud.report
			if ud.err != nil {
				m.Problems = append(m.Problems, ud.err.Error())
			}
			switch {
			case sub.Version >= 2 && sub.Generation >= 0:
				m.Claim, m.ClaimFrom = sub.Generation, "subscription"
			case ud.generation >= 0:
				m.Claim, m.ClaimFrom = ud.generation, "user data"
			}
		}
	}
	if len(r.Assignment) > 0 {
		a, err := rebalance.ParseAssignment(r.Assignment)
		switch {
		case errors.Is(err, rebalance.ErrEnvelope):
			m.Problems = append(m.Problems, fmt.Sprintf("assignment user data: %v", err))
		case err != nil:
			m.Problems = append(m.Problems, fmt.Sprintf("assignment (%d bytes) does not decode: %v", len(r.Assignment), err))
		}
		if err == nil || errors.Is(err, rebalance.ErrEnvelope) {
			m.Assigned, m.Rejoin = a.Partitions, a.Rejoin
		}
	}
	return m
}

// decodeConsumer turns a KIP-848 member into a member: the broker gives
// its subscription, epoch and assignments directly.
func decodeConsumer(r rawMember) member {
	m := member{ID: r.MemberID, InstanceID: r.InstanceID, ClientID: r.ClientID, Host: r.ClientHost, Rack: r.Rack,
		SubscriptionVersion: -1, Claim: r.MemberEpoch, ClaimFrom: "member epoch", UserData: userDataNone,
		Topics:   slices.Sorted(slices.Values(r.SubscribedTopics)),
		Assigned: assignor.NormalizeTopicPartitions(r.Assigned),
		Target:   assignor.NormalizeTopicPartitions(r.Target),
	}
	m.Owned = m.Assigned
	if r.MemberType == 0 {
		m.Problems = append(m.Problems, "a classic member of a KIP-848 group (joined with JoinGroup during a migration)")
	}
	if r.SubscribedRegex != "" {
		m.Problems = append(m.Problems, fmt.Sprintf("subscribes by regex %q: topics are the broker's resolution", r.SubscribedRegex))
	}
	if r.UnresolvedTopicNames > 0 {
		m.Problems = append(m.Problems, fmt.Sprintf("%d assigned topic IDs the metadata does not name", r.UnresolvedTopicNames))
	}
	return m
}

// userData is what readUserData made of a member's subscription user data.
type userData struct {
	layout     string
	generation int32 // assignor.NoGeneration when the layout carries none
	report     *weighted.Report
	err        error // set when the protocol's own layout does not decode
}

// readUserData reads a member's subscription user data in the layout its
// protocol sends: the weighted layout for "weighted" and
// "cooperative-weighted", the 4-byte generation (or, as franz-go sends,
// the sticky layout) for "cooperative-sticky", the sticky layout for
// "sticky". For any other protocol it tries each layout, most specific
// first, and calls bytes none of them read "unknown" without an error
// (another assignor's own bytes). An error means bytes that do not decode
// in the layout the protocol promises: the member is marked.
func readUserData(b []byte, protocol string) userData {
	none := userData{layout: userDataNone, generation: assignor.NoGeneration}
	if len(b) == 0 {
		return none
	}
	weightedUD := func() (userData, error) {
		r, err := weighted.DecodeReport(b)
		if err != nil {
			return none, err
		}
		_, version, _ := weighted.DecodeUserData(b)
		u := userData{layout: userDataWeighted, generation: r.Generation}
		if version >= 1 {
			u.layout, u.report = userDataReport, &r
		}
		return u, nil
	}
	cooperativeUD := func() (userData, error) {
		g, err := wire.DecodeCooperativeUserData(b)
		if err != nil {
			return none, err
		}
		return userData{layout: userDataCooperative, generation: g}, nil
	}
	stickyUD := func() (userData, error) {
		s, err := wire.DecodeStickyUserData(b)
		if err != nil {
			return none, err
		}
		return userData{layout: userDataSticky, generation: s.Generation}, nil
	}
	var tries []func() (userData, error)
	switch protocol {
	case "weighted", "cooperative-weighted":
		tries = []func() (userData, error){weightedUD}
	case "cooperative-sticky":
		tries = []func() (userData, error){cooperativeUD, stickyUD}
	case "sticky":
		tries = []func() (userData, error){stickyUD}
	default:
		var out userData
		for _, try := range []func() (userData, error){cooperativeUD, weightedUD, stickyUD} {
			if u, err := try(); err == nil {
				out = u
				break
			}
		}
		if out.layout == "" {
			return userData{layout: userDataUnknown, generation: assignor.NoGeneration}
		}
		return out
	}
	var errs []error
	for _, try := range tries {
		u, err := try()
		if err == nil {
			return u
		}
		errs = append(errs, err)
	}
	return userData{layout: userDataUnknown, generation: assignor.NoGeneration,
		err: fmt.Errorf("%s user data (%d bytes, % x…) does not decode: %v", protocol, len(b), b[:min(len(b), 8)], errs[0])}
}

// reportedLoad is the load a weighted report gives: every listed
// partition's weight plus the rest at their mean.
func reportedLoad(r *weighted.Report) float64 {
	var sum int64
	for _, t := range r.Topics {
		for _, w := range t.Weights {
			sum += w
		}
		sum += int64(t.Rest) * t.RestWeight
	}
	return float64(sum)
}
