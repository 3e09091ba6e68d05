package cli

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/rebalance"
	"github.com/kgroup/assignor/weighted"
	"github.com/kgroup/assignor/wire"
)

func tps(s string) []assignor.TopicPartitions {
	// "a:0,1 b:2" → a[0 1] b[2]
	var out []assignor.TopicPartitions
	for _, f := range strings.Fields(s) {
		name, ps, _ := strings.Cut(f, ":")
		t := assignor.TopicPartitions{Topic: name}
		for _, p := range strings.Split(ps, ",") {
			var n int32
			for _, c := range p {
				n = n*10 + int32(c-'0')
			}
			t.Partitions = append(t.Partitions, n)
		}
		out = append(out, t)
	}
	return out
}

func subscription(version int16, gen int32, userData []byte, owned string) []byte {
	return wire.Subscription{Version: version, Topics: []string{"a", "b"}, UserData: userData, Owned: tps(owned), Generation: gen}.AppendTo(nil)
}

func assignment(assigned string, userData []byte) []byte {
	return wire.Assignment{Partitions: tps(assigned), UserData: userData}.AppendTo(nil)
}

// reportUserData is the user data of a weighted member whose meter saw
// a[0] grow by 30 records/s and a[1] by 10.
func reportUserData(t *testing.T, gen int32) []byte {
	t.Helper()
	m := weighted.NewMeter(weighted.MeterConfig{})
	at := time.Unix(100, 0)
	m.Observe("a", 0, 0, at)
	m.Observe("a", 1, 0, at)
	m.Observe("a", 0, 60, at.Add(2*time.Second))
	m.Observe("a", 1, 20, at.Add(2*time.Second))
	a, err := weighted.NewWithConfig(weighted.Config{Meter: m})
	if err != nil {
		t.Fatal(err)
	}
	b, err := a.SubscriptionUserData(assignor.MemberState{Topics: []string{"a"}, Owned: tps("a:0,1"), Generation: gen})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeClassic(t *testing.T) {
	weightedV0, err := weighted.New().SubscriptionUserData(assignor.MemberState{Generation: 6})
	if err != nil {
		t.Fatal(err)
	}
	sticky := wire.StickyUserData{Owned: tps("a:1"), Generation: 8}.AppendTo(nil)
	for _, tc := range []struct {
		name       string
		protocol   string
		raw        rawMember
		version    int16
		claim      int32
		claimFrom  string
		layout     string
		assigned   string
		rejoin     bool
		reported   float64 // -1: no report
		problem    string  // a substring of the first problem, or ""
		noTopicsOK bool
	}{
		{name: "v2 generation wins over user data", protocol: "cooperative-sticky",
			raw:     rawMember{Metadata: subscription(2, 7, wire.CooperativeUserData(3), "a:0"), Assignment: assignment("a:0 b:1", nil)},
			version: 2, claim: 7, claimFrom: "subscription", layout: userDataCooperative, assigned: "a:0 b:1", reported: -1},
		{name: "v1 cooperative user data carries the generation (KIP-429 before KIP-792)", protocol: "cooperative-sticky",
			raw:     rawMember{Metadata: subscription(1, -1, wire.CooperativeUserData(5), "a:0")},
			version: 1, claim: 5, claimFrom: "user data", layout: userDataCooperative, reported: -1},
		{name: "franz-go sends the sticky layout under cooperative-sticky", protocol: "cooperative-sticky",
			raw:     rawMember{Metadata: subscription(1, -1, sticky, "a:1")},
			version: 1, claim: 8, claimFrom: "user data", layout: userDataSticky, reported: -1},
		{name: "eager sticky at v2 with generation -1 reads the user data", protocol: "sticky",
			raw:     rawMember{Metadata: subscription(2, -1, sticky, "")},
			version: 2, claim: 8, claimFrom: "user data", layout: userDataSticky, reported: -1},
		{name: "weighted version 0", protocol: "cooperative-weighted",
			raw:     rawMember{Metadata: subscription(1, -1, weightedV0, "")},
			version: 1, claim: 6, claimFrom: "user data", layout: userDataWeighted, reported: -1},
		{name: "weighted report: the member's measured load", protocol: "weighted",
			raw:     rawMember{Metadata: subscription(2, 4, reportUserData(t, 4), "a:0,1")},
			version: 2, claim: 4, claimFrom: "subscription", layout: userDataReport, reported: 40},
		{name: "unknown protocol, unknown bytes: no problem", protocol: "range",
			raw:     rawMember{Metadata: subscription(0, -1, []byte("hello world"), "")},
			version: 0, claim: -1, layout: userDataUnknown, reported: -1},
		{name: "unknown protocol, weighted bytes read", protocol: "mine",
			raw:     rawMember{Metadata: subscription(0, -1, weightedV0, "")},
			version: 0, claim: 6, claimFrom: "user data", layout: userDataWeighted, reported: -1},
		{name: "cooperative-sticky user data of no layout is marked", protocol: "cooperative-sticky",
			raw:     rawMember{Metadata: subscription(1, -1, []byte{1, 2, 3, 4, 5, 6, 7}, ""), Assignment: assignment("b:0", nil)},
			version: 1, claim: -1, layout: userDataUnknown, assigned: "b:0", reported: -1, problem: "cooperative-sticky user data (7 bytes"},
		{name: "weighted protocol with sticky bytes is marked", protocol: "weighted",
			raw:     rawMember{Metadata: subscription(2, 3, sticky, "")},
			version: 2, claim: 3, claimFrom: "subscription", layout: userDataUnknown, reported: -1, problem: "weighted user data"},
		{name: "a subscription that does not decode: described anyway, marked", protocol: "sticky",
			raw:     rawMember{Metadata: []byte{0, 1, 0, 0, 0, 9}, Assignment: assignment("a:2", nil)},
			version: -1, claim: -1, layout: userDataNone, assigned: "a:2", reported: -1, problem: "subscription metadata (6 bytes) does not decode", noTopicsOK: true},
		{name: "an assignment that does not decode is marked", protocol: "sticky",
			raw:     rawMember{Metadata: subscription(2, 1, nil, ""), Assignment: []byte{0, 0, 0, 0, 0, 1}},
			version: 2, claim: 1, claimFrom: "subscription", layout: userDataNone, reported: -1, problem: "assignment (6 bytes) does not decode"},
		{name: "fast re-join mark in the assignment user data", protocol: "cooperative-sticky",
			raw:     rawMember{Metadata: subscription(2, 1, nil, ""), Assignment: assignment("a:1", rebalance.Assignment{Rejoin: true}.AppendUserData(nil))},
			version: 2, claim: 1, claimFrom: "subscription", layout: userDataNone, assigned: "a:1", rejoin: true, reported: -1},
		{name: "not Stable: no metadata, identity only", protocol: "",
			raw:     rawMember{MemberID: "m"},
			version: -1, claim: -1, layout: userDataNone, reported: -1, noTopicsOK: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.raw.MemberID, tc.raw.ClientID = "m-1", "c"
			m := decodeClassic(tc.raw, tc.protocol)
			if m.ID != "m-1" || m.ClientID != "c" {
				t.Errorf("identity lost: %+v", m)
			}
			if m.SubscriptionVersion != tc.version || m.Claim != tc.claim || m.ClaimFrom != tc.claimFrom || m.UserData != tc.layout {
				t.Errorf("version %d claim %d from %q layout %q, want %d %d %q %q", m.SubscriptionVersion, m.Claim, m.ClaimFrom, m.UserData,
					tc.version, tc.claim, tc.claimFrom, tc.layout)
			}
			if !tc.noTopicsOK && !slices.Equal(m.Topics, []string{"a", "b"}) {
				t.Errorf("topics %v", m.Topics)
			}
			if got := assignor.FormatTopicPartitions(m.Assigned); got != assignor.FormatTopicPartitions(tps(tc.assigned)) {
				t.Errorf("assigned %q, want %q", got, assignor.FormatTopicPartitions(tps(tc.assigned)))
			}
			if m.Rejoin != tc.rejoin {
				t.Errorf("rejoin %v", m.Rejoin)
			}
			switch {
			case tc.reported < 0 && m.Report != nil:
				t.Errorf("unexpected report %+v", m.Report)
			case tc.reported >= 0 && (m.Report == nil || reportedLoad(m.Report) != tc.reported):
				t.Errorf("report %+v, want load %v", m.Report, tc.reported)
			}
			switch {
			case tc.problem == "" && len(m.Problems) > 0:
				t.Errorf("unexpected problems %q", m.Problems)
			case tc.problem != "" && (len(m.Problems) == 0 || !strings.Contains(m.Problems[0], tc.problem)):
				t.Errorf("problems %q, want one containing %q", m.Problems, tc.problem)
			}
		})
	}
}

func TestDecodeConsumer(t *testing.T) {
	m := decodeConsumer(rawMember{MemberID: "x", ClientID: "c", Rack: "r1", MemberEpoch: 9, MemberType: 1,
		SubscribedTopics: []string{"b", "a"}, Assigned: tps("b:1 a:0"), Target: tps("a:0,2")})
	if m.Claim != 9 || m.ClaimFrom != "member epoch" || m.Rack != "r1" || !slices.Equal(m.Topics, []string{"a", "b"}) {
		t.Errorf("%+v", m)
	}
	if got := assignor.FormatTopicPartitions(m.Assigned); got != "a[0] b[1]" {
		t.Errorf("assigned %q", got)
	}
	if got := assignor.FormatTopicPartitions(m.Target); got != "a[0 2]" {
		t.Errorf("target %q", got)
	}
	if len(m.Problems) != 0 {
		t.Errorf("problems %q", m.Problems)
	}
	classic := decodeConsumer(rawMember{MemberID: "y", MemberType: 0, UnresolvedTopicNames: 2})
	if len(classic.Problems) != 2 {
		t.Errorf("a classic member in a KIP-848 group with unnamed topics: problems %q", classic.Problems)
	}
}
