package saramaassignor

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// TestOnRebalanceOncePerPlan: the stats hook fires once per plan, with the
// figures of a cooperative join (withheld and follow-up set; sarama does not
// tell the generation, so it is 0), and not for a plan that fails.
func TestOnRebalanceOncePerPlan(t *testing.T) {
	var got []Stats
	s := mustNew(t, cooperative.Wrap(sticky.New()), Config{Logger: discard, OnRebalance: func(st Stats) { got = append(got, st) }})
	members := map[string]sarama.ConsumerGroupMemberMetadata{
		"a": {Version: 2, Topics: []string{"t"}, OwnedPartitions: owned("t", []int32{0, 1, 2, 3, 4, 5}), GenerationID: 4},
		"b": {Version: 2, Topics: []string{"t"}, GenerationID: -1},
		"c": {Version: 2, Topics: []string{"t"}, GenerationID: -1},
	}
	if _, err := s.Plan(members, map[string][]int32{"t": assignor.Partitions(6)}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("OnRebalance called %d times for one plan", len(got))
	}
	st := got[0]
	if st.Generation != 0 || st.Members != 3 || st.Partitions != 6 || st.Moved != 4 || st.Withheld != 4 || !st.FollowUp ||
		st.MinAssigned != 0 || st.MaxAssigned != 2 || st.Duration <= 0 || st.Excluded != 0 || st.ClaimsUnknown != 0 {
		t.Fatalf("stats %+v", st)
	}

	failing := mustNew(t, &fixed{name: "x", err: errors.New("no plan"), protocols: []assignor.Protocol{assignor.Cooperative}}, Config{Logger: discard, OnRebalance: func(st Stats) { got = append(got, st) }})
	if _, err := failing.Plan(members, map[string][]int32{"t": assignor.Partitions(6)}); err == nil || len(got) != 1 {
		t.Fatalf("a failed plan: error %v, OnRebalance called %d times in all, want an error and no call", err, len(got))
	}
}

// TestWarningsWithoutLogger: with no logger configured, a warning (here an
// empty member ID, which gets nothing) reaches slog.Default, and nothing is
// printed for a plan that works around nothing.
func TestWarningsWithoutLogger(t *testing.T) {
	var out bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&out, nil)))
	defer slog.SetDefault(old)

	s := mustNew(t, cooperative.Wrap(sticky.New()), Config{})
	topics := map[string][]int32{"t": assignor.Partitions(2)}
	honest := sarama.ConsumerGroupMemberMetadata{Version: 2, Topics: []string{"t"}, GenerationID: -1}
	if _, err := s.Plan(map[string]sarama.ConsumerGroupMemberMetadata{"a": honest}, topics); err != nil || out.Len() != 0 {
		t.Fatalf("an honest plan: error %v, printed %q", err, out.String())
	}
	plan, err := s.Plan(map[string]sarama.ConsumerGroupMemberMetadata{"a": honest, "": honest}, topics)
	if err != nil || len(plan["a"]["t"]) != 2 {
		t.Fatalf("plan %v, %v", plan, err)
	}
	if !strings.Contains(out.String(), "level=WARN") || !strings.Contains(out.String(), "empty member ID") {
		t.Fatalf("slog.Default got %q, want the empty member ID warning", out.String())
	}
}
