package cli

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/kgroup/assignor"
)

// description is what `describe` reports: the group as the broker
// describes it, each member decoded, with its lag and load. It is also the
// -json output of describe (field names are the JSON schema).
type description struct {
	Group string    `json:"group"`
	At    time.Time `json:"at"`
	// Type is "classic" or "consumer" (KIP-848).
	Type         string `json:"type"`
	State        string `json:"state"`
	ProtocolType string `json:"protocol_type,omitempty"`
	// Protocol is the assignor the group runs (classic: the protocol the
	// coordinator picked; KIP-848: the broker's assignor).
	Protocol string `json:"protocol"`
	// Generation is the classic group's generation as inferred from the
	// members' claims (the highest claim generation plus one; -1 when no
	// member claims one), or the KIP-848 group epoch (exact).
	Generation         int32 `json:"generation"`
	GenerationInferred bool  `json:"generation_inferred"`
	AssignmentEpoch    int32 `json:"assignment_epoch,omitempty"`
	// Assignments reports whether the broker returned members' metadata
	// and assignments (classic: only while Stable).
	Assignments bool             `json:"assignments"`
	Members     []memberReport   `json:"members"`
	Unassigned  []topicPartition `json:"unassigned"`
	Topics      []topicReport    `json:"topics"`
	Totals      totals           `json:"totals"`
	// WindowSeconds is the window over which loads were measured; 0 when
	// they were not.
	WindowSeconds float64  `json:"window_seconds"`
	Notes         []string `json:"notes"`
}

// memberReport is one member of a description.
type memberReport struct {
	ID         string `json:"member_id"`
	Name       string `json:"name"` // the short name tables show
	InstanceID string `json:"instance_id,omitempty"`
	ClientID   string `json:"client_id"`
	Host       string `json:"host"`
	Rack       string `json:"rack,omitempty"`

	SubscriptionVersion int16            `json:"subscription_version"` // -1: none
	Topics              []string         `json:"topics"`
	Owned               []topicPartition `json:"owned,omitempty"`
	ClaimGeneration     int32            `json:"claim_generation"`
	ClaimFrom           string           `json:"claim_from,omitempty"`
	UserData            string           `json:"user_data"`
	Assigned            []topicPartition `json:"assigned"`
	Target              []topicPartition `json:"target,omitempty"` // KIP-848
	Rejoin              bool             `json:"rejoin_marked,omitempty"`
	Count               int              `json:"partitions"`
	// Lag is the records between the committed offsets and the end of the
	// member's partitions; -1 when no partition has a committed offset.
	Lag            int64 `json:"lag"`
	LagUncommitted int   `json:"lag_uncommitted_partitions,omitempty"`
	// Measured is records/s arriving at its partitions (two end-offset
	// samples); Reported what its weighted report says (nil: no report).
	Measured float64  `json:"measured_load"`
	Reported *float64 `json:"reported_load,omitempty"`
	Problems []string `json:"problems,omitempty"`
}

// topicPartition is one topic's partitions in JSON.
type topicPartition struct {
	Topic      string  `json:"topic"`
	Partitions []int32 `json:"partitions"`
}

// topicReport is one subscribed topic: its partitions and load.
type topicReport struct {
	Topic      string  `json:"topic"`
	Partitions int     `json:"partitions"`
	Load       float64 `json:"load"`
	Lag        int64   `json:"lag"`
}

// totals are the group's figures over its members.
type totals struct {
	Partitions int     `json:"partitions"`
	Assigned   int     `json:"assigned"`
	Lag        int64   `json:"lag"`
	Load       float64 `json:"load"`
	// CountMin and CountMax are the fewest and most partitions a member
	// holds; CountSpread their difference.
	CountMin    int `json:"count_min"`
	CountMax    int `json:"count_max"`
	CountSpread int `json:"count_spread"`
	// LoadMin, LoadMax: the lightest and heaviest member's measured load
	// (records/s); LoadMean their mean; HeaviestOverMean the ratio of the
	// heaviest to the mean (0 when the mean is 0).
	LoadMin          float64 `json:"load_min"`
	LoadMax          float64 `json:"load_max"`
	LoadMean         float64 `json:"load_mean"`
	LoadSpread       float64 `json:"load_spread"`
	Heaviest         string  `json:"heaviest"`
	HeaviestOverMean float64 `json:"heaviest_over_mean"`
}

// groupView is a snapshot decoded: the members, the inferred generation,
// each partition's rate and owner. describe, whatif and watch build on it.
type groupView struct {
	snap      snapshot
	members   []member // sorted by member ID
	names     map[string]string
	gen       int32
	inferred  bool
	stable    bool // members' metadata and assignments are known
	protocol  string
	subscribe []string // every subscribed topic, sorted
}

// newView decodes s. Pure.
func newView(s snapshot) groupView {
	v := groupView{snap: s, names: map[string]string{}, gen: -1}
	for _, r := range s.Members {
		var m member
		if s.Type == typeConsumer {
			m = decodeConsumer(r)
		} else {
			m = decodeClassic(r, s.Protocol)
		}
		v.members = append(v.members, m)
	}
	slices.SortFunc(v.members, func(a, b member) int { return cmp.Compare(a.ID, b.ID) })
	if s.Type == typeConsumer {
		v.gen, v.protocol, v.stable = s.Epoch, s.AssignorName, true
	} else {
		v.protocol = s.Protocol
		v.inferred = true
		for _, m := range v.members {
			v.stable = v.stable || m.SubscriptionVersion >= 0 || len(m.Assigned) > 0
			if m.Claim >= 0 {
				v.gen = max(v.gen, m.Claim+1)
			}
		}
	}
	topics := map[string]bool{}
	for _, m := range v.members {
		for _, t := range m.Topics {
			topics[t] = true
		}
	}
	for t := range topics {
		v.subscribe = append(v.subscribe, t)
	}
	slices.Sort(v.subscribe)
	v.names = shortNames(v.members)
	return v
}

// shortNames names each member for tables: its client ID when no other
// member shares it, else the client ID and the end of its member ID.
func shortNames(ms []member) map[string]string {
	count := map[string]int{}
	for _, m := range ms {
		count[m.ClientID]++
	}
	out := map[string]string{}
	for _, m := range ms {
		switch {
		case m.ClientID == "":
			out[m.ID] = m.ID
		case count[m.ClientID] == 1:
			out[m.ID] = m.ClientID
		default:
			tail := m.ID
			if len(tail) > 6 {
				tail = tail[len(tail)-6:]
			}
			out[m.ID] = m.ClientID + "/" + tail
		}
	}
	return out
}

// rate is partition p's measured records/s (0 when not measured).
func (v *groupView) rate(p tp) float64 { return v.snap.Rates[p] }

// load is the measured load of tps.
func (v *groupView) load(tps []assignor.TopicPartitions) float64 {
	var sum float64
	for _, t := range tps {
		for _, p := range t.Partitions {
			sum += v.rate(tp{t.Topic, p})
		}
	}
	return sum
}

// lag is the lag of tps and how many of them have no committed offset
// (they count 0). It is -1 when none has one.
func (v *groupView) lag(tps []assignor.TopicPartitions) (int64, int) {
	var sum int64
	known, unknown := 0, 0
	for _, t := range tps {
		for _, p := range t.Partitions {
			k := tp{t.Topic, p}
			c, ok := v.snap.Committed[k]
			if !ok {
				unknown++
				continue
			}
			known++
			sum += max(0, v.snap.End[k]-c)
		}
	}
	if known == 0 && unknown > 0 {
		return -1, unknown
	}
	return sum, unknown
}

// assignment returns each member's assigned partitions, by member ID.
func (v *groupView) assignment() map[string][]assignor.TopicPartitions {
	out := make(map[string][]assignor.TopicPartitions, len(v.members))
	for _, m := range v.members {
		out[m.ID] = m.Assigned
	}
	return out
}

// subscribedPartitions returns every partition of a subscribed topic that
// the metadata knows, as topic-partitions.
func (v *groupView) subscribedPartitions() []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for _, name := range v.subscribe {
		if t, ok := v.snap.topic(name); ok && len(t.Partitions) > 0 {
			out = append(out, assignor.TopicPartitions{Topic: name, Partitions: slices.Clone(t.Partitions)})
		}
	}
	return assignor.NormalizeTopicPartitions(out)
}

// unassigned returns the subscribed partitions no member is assigned.
func (v *groupView) unassigned() []assignor.TopicPartitions {
	var held []assignor.TopicPartitions
	for _, m := range v.members {
		held = assignor.MergeTopicPartitions(held, m.Assigned)
	}
	return assignor.SubtractTopicPartitions(v.subscribedPartitions(), held)
}

// describe builds the description of v. Pure.
func describe(v groupView) description {
	s := v.snap
	d := description{Group: s.Group, At: s.At, Type: s.Type, State: s.State, ProtocolType: s.ProtocolType,
		Protocol: v.protocol, Generation: v.gen, GenerationInferred: v.inferred, AssignmentEpoch: s.AssignmentEpoch,
		Assignments: v.stable, WindowSeconds: s.Window.Seconds()}
	for _, m := range v.members {
		r := memberReport{ID: m.ID, Name: v.names[m.ID], InstanceID: m.InstanceID, ClientID: m.ClientID, Host: m.Host, Rack: m.Rack,
			SubscriptionVersion: m.SubscriptionVersion, Topics: m.Topics, Owned: jsonTPs(m.Owned),
			ClaimGeneration: m.Claim, ClaimFrom: m.ClaimFrom, UserData: m.UserData, Assigned: jsonTPs(m.Assigned),
			Target: jsonTPs(m.Target), Rejoin: m.Rejoin, Count: assignor.CountPartitions(m.Assigned),
			Measured: v.load(m.Assigned), Problems: m.Problems}
		if r.Topics == nil {
			r.Topics = []string{}
		}
		r.Lag, r.LagUncommitted = v.lag(m.Assigned)
		if m.Report != nil {
			l := reportedLoad(m.Report)
			r.Reported = &l
		}
		d.Members = append(d.Members, r)
	}
	d.Unassigned = jsonTPs(v.unassigned())
	if d.Unassigned == nil {
		d.Unassigned = []topicPartition{}
	}
	if d.Members == nil {
		d.Members = []memberReport{}
	}
	for _, name := range v.subscribe {
		t, ok := s.topic(name)
		if !ok {
			d.Notes = append(d.Notes, fmt.Sprintf("topic %q: members subscribe to it but the metadata does not know it", name))
			continue
		}
		tps := []assignor.TopicPartitions{{Topic: name, Partitions: t.Partitions}}
		lag, _ := v.lag(tps)
		d.Topics = append(d.Topics, topicReport{Topic: name, Partitions: len(t.Partitions), Load: v.load(tps), Lag: max(lag, 0)})
	}
	if d.Topics == nil {
		d.Topics = []topicReport{}
	}
	d.Totals = sumUp(d.Members, v.subscribedPartitions())
	d.Notes = append(d.Notes, v.notes()...)
	return d
}

// sumUp computes the totals over rows.
func sumUp(rows []memberReport, subscribed []assignor.TopicPartitions) totals {
	t := totals{Partitions: assignor.CountPartitions(subscribed)}
	if len(rows) == 0 {
		return t
	}
	t.CountMin, t.LoadMin = math.MaxInt, math.Inf(1)
	for _, r := range rows {
		t.Assigned += r.Count
		t.Lag += max(r.Lag, 0)
		t.Load += r.Measured
		t.CountMin, t.CountMax = min(t.CountMin, r.Count), max(t.CountMax, r.Count)
		t.LoadMin = min(t.LoadMin, r.Measured)
		if r.Measured > t.LoadMax || t.Heaviest == "" {
			t.LoadMax, t.Heaviest = r.Measured, r.Name
		}
	}
	t.CountSpread = t.CountMax - t.CountMin
	t.LoadMean = t.Load / float64(len(rows))
	t.LoadSpread = t.LoadMax - t.LoadMin
	if t.LoadMean > 0 {
		t.HeaviestOverMean = t.LoadMax / t.LoadMean
	}
	return t
}

// notes are what the description cannot show, said plainly.
func (v *groupView) notes() []string {
	var out []string
	if len(v.members) == 0 {
		out = append(out, fmt.Sprintf("the group has no members (state %s): nothing is assigned; its committed offsets are kept", v.snap.State))
	}
	if v.snap.Type == typeClassic {
		out = append(out, "leader: not visible from outside (DescribeGroups does not name the member that computed the assignment)")
		switch {
		case !v.stable && len(v.members) > 0:
			out = append(out, fmt.Sprintf("the group is %s: the broker returns members' subscriptions and assignments only while it is Stable; describe again", v.snap.State))
		case v.stable && v.gen < 0:
			out = append(out, "generation unknown: no member's subscription or user data carries a claim generation")
		case v.stable:
			out = append(out, "generation inferred: the highest claim generation the members sent when they joined, plus one (DescribeGroups does not return it)")
		}
	} else {
		out = append(out, fmt.Sprintf("KIP-848 group: the broker assigns (assignor %q); epochs are the broker's own", v.snap.AssignorName))
		if v.snap.AssignmentEpoch != v.snap.Epoch {
			out = append(out, fmt.Sprintf("assignment epoch %d is behind group epoch %d: the target assignment is being computed", v.snap.AssignmentEpoch, v.snap.Epoch))
		}
	}
	if v.snap.Rates == nil {
		out = append(out, "loads not measured (-window 0)")
	}
	for _, m := range v.members {
		if len(m.Problems) > 0 {
			out = append(out, fmt.Sprintf("member %s is marked: %s", v.names[m.ID], m.Problems[0]))
		}
	}
	return out
}

func jsonTPs(tps []assignor.TopicPartitions) []topicPartition {
	if tps == nil {
		return nil
	}
	out := make([]topicPartition, 0, len(tps))
	for _, t := range tps {
		if len(t.Partitions) == 0 {
			continue
		}
		out = append(out, topicPartition{Topic: t.Topic, Partitions: slices.Clone(t.Partitions)})
	}
	return out
}
