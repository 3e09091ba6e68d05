package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/kgroup/assignor/cmd/assignor/cli"
)

// inspected is the part of `assignor describe -json` this suite checks, read as a script would.
type inspected struct {
	Type               string   `json:"type"`
	State              string   `json:"state"`
	Protocol           string   `json:"protocol"`
	Generation         int32    `json:"generation"`
	GenerationInferred bool     `json:"generation_inferred"`
	Notes              []string `json:"notes"`
	Members            []struct {
		ClientID            string   `json:"client_id"`
		SubscriptionVersion int16    `json:"subscription_version"`
		ClaimGeneration     int32    `json:"claim_generation"`
		UserData            string   `json:"user_data"`
		Count               int      `json:"partitions"`
		Lag                 int64    `json:"lag"`
		Measured            float64  `json:"measured_load"`
		Problems            []string `json:"problems"`
		Assigned            []struct {
			Topic      string  `json:"topic"`
			Partitions []int32 `json:"partitions"`
		} `json:"assigned"`
	} `json:"members"`
}

// planned is the part of `assignor whatif -json` this suite checks.
type planned struct {
	Rounds  int  `json:"rounds"`
	Settled bool `json:"settled"`
	Moved   int  `json:"moved"`
	Members []struct {
		CountAfter int `json:"count_after"`
	} `json:"members"`
	After struct {
		CountSpread int `json:"count_spread"`
	} `json:"after"`
}

// runCommand runs the assignor command (cmd/assignor) against the shared broker with -json and
// decodes its output into v.
func runCommand(t *testing.T, v any, args ...string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cli.Run(context.Background(), append(args, "-json"), &out, &errb); code != 0 {
		t.Fatalf("assignor %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), v); err != nil {
		t.Fatalf("assignor %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
}

// TestMixedInspect: the assignor command on the real broker, from outside the mixed group of
// Java members and our sarama members (cooperative-sticky): describe decodes every member
// (Java's subscription v3, sarama's v2), infers the generation the members claim in, shows the
// assignment the members hold and the load the producer writes; whatif plans the group with
// every built-in assignor.
func TestMixedInspect(t *testing.T) {
	s := newScenario(t, scenarioConfig{})
	for _, id := range []string{"g1", "j1", "g2", "j2"} {
		s.start(id)
		s.settle()
	}
	var text, errb bytes.Buffer
	if code := cli.Run(context.Background(), []string{"describe", "-brokers", s.b.addr, "-group", s.group, "-window", "1s"}, &text, &errb); code != 0 {
		t.Fatalf("assignor describe: exit %d: %s", code, errb.String())
	}
	t.Logf("assignor describe -brokers %s -group %s -window 1s\n%s", s.b.addr, s.group, text.String())
	var d inspected
	runCommand(t, &d, "describe", "-brokers", s.b.addr, "-group", s.group, "-window", "2s")
	if d.Type != "classic" || d.State != "Stable" || d.Protocol != "cooperative-sticky" || !d.GenerationInferred {
		t.Errorf("type %s state %s protocol %s inferred %v", d.Type, d.State, d.Protocol, d.GenerationInferred)
	}
	// The ledger has the generation each claim began in; the last round may begin none.
	if top := s.l.maxGeneration(); d.Generation < top || d.Generation > top+1 {
		t.Errorf("generation %d inferred; the members' newest claims began in %d", d.Generation, top)
	}
	owners, _ := s.l.snapshot()
	held := map[string][]topicPartition{}
	for tp, ms := range owners {
		for _, m := range ms {
			held[m] = append(held[m], tp)
		}
	}
	var ids []string
	var load float64
	for _, m := range d.Members {
		ids = append(ids, m.ClientID)
		wantVersion := int16(2) // sarama configured for Kafka 4.0 sends v2
		if strings.HasPrefix(m.ClientID, "j") {
			wantVersion = 3 // Java 4.4 sends v3 (rack)
		}
		if m.SubscriptionVersion != wantVersion || m.UserData != "cooperative" || len(m.Problems) > 0 || m.ClaimGeneration < 0 {
			t.Errorf("%s: subscription v%d (want v%d), user data %s, claim generation %d, problems %q",
				m.ClientID, m.SubscriptionVersion, wantVersion, m.UserData, m.ClaimGeneration, m.Problems)
		}
		var got []topicPartition
		for _, a := range m.Assigned {
			for _, p := range a.Partitions {
				got = append(got, topicPartition{a.Topic, p})
			}
		}
		want := held[m.ClientID]
		cmpTP := func(a, b topicPartition) int { return strings.Compare(a.String(), b.String()) }
		slices.SortFunc(got, cmpTP)
		slices.SortFunc(want, cmpTP)
		if !slices.Equal(got, want) {
			t.Errorf("%s: described as holding %v, the ledger has it holding %v", m.ClientID, got, want)
		}
		if m.Lag < 0 {
			t.Errorf("%s: lag unknown", m.ClientID)
		}
		load += m.Measured
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"g1", "g2", "j1", "j2"}) {
		t.Errorf("members %v", ids)
	}
	// The producer writes one record per partition every 40 ms: 25 records/s on each of 12.
	if load < 240 || load > 360 {
		t.Errorf("measured loads add up to %.1f records/s, the producer writes 300", load)
	}
	for _, key := range []string{"sticky", "cooperative-sticky", "round-robin", "weighted", "cooperative-weighted"} {
		var w planned
		runCommand(t, &w, "whatif", "-brokers", s.b.addr, "-group", s.group, "-assignor", key, "-window", "1s")
		after := 0
		for _, m := range w.Members {
			after += m.CountAfter
		}
		if after != 12 || !w.Settled || len(w.Members) != 4 {
			t.Errorf("whatif %s: %d partitions after, settled %v, %d members", key, after, w.Settled, len(w.Members))
		}
		// The group is count-balanced under cooperative-sticky: sticky keeps it.
		if (key == "sticky" || key == "cooperative-sticky") && (w.Moved != 0 || w.Rounds != 1) {
			t.Errorf("whatif %s on a balanced cooperative-sticky group: %d moved in %d rounds", key, w.Moved, w.Rounds)
		}
		t.Logf("whatif %s: %d moved, %d round(s), count spread after %d", key, w.Moved, w.Rounds, w.After.CountSpread)
	}
	s.finish()
}
