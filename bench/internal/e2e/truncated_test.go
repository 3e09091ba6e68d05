package e2e_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor/bench/internal/e2e"
	"github.com/kgroup/assignor/wire"
)

// TestTruncatedKgoMetadata: the test kind sends what it says, a v3
// subscription that ends after its user data, which no leader can read
// owned partitions from.
func TestTruncatedKgoMetadata(t *testing.T) {
	b := e2e.TruncatedKgo.Kgo()[0]
	meta := b.JoinGroupMetadata([]string{"orders"}, map[string][]int32{"orders": {1, 2}}, 7)
	var d wire.SubscriptionDecoder
	v, err := d.Decode(meta)
	if err != nil || v.Version != 3 || !v.OwnedAbsent() || len(v.UserData) == 0 || len(v.Topics) != 1 {
		t.Fatalf("metadata % x: version %d, owned absent %v, user data %d bytes, topics %v, error %v; want v3 without owned partitions",
			meta, v.Version, v.OwnedAbsent(), len(v.UserData), v.Topics, err)
	}
	if b.ProtocolName() != "cooperative-sticky" || !b.IsCooperative() {
		t.Fatalf("protocol %q, cooperative %v: want ours, cooperative-sticky", b.ProtocolName(), b.IsCooperative())
	}
}

// TestE2ETruncatedMember runs the truncated-member script (a franz-go group
// of ours with a member whose JoinGroup metadata is cut short, through a
// join, a leave and the leader leaving) in plain `go test` (about 10 s):
// besides what every run must hold (no overlapping claims in a generation
// our assignor planned, every record consumed and committed), the
// truncated member is given partitions and consumes, some plan withholds
// partitions, and the last plan withholds none (the group settled: a
// second round came after every withholding plan).
func TestE2ETruncatedMember(t *testing.T) {
	rep := checkKind(t, e2e.TruncatedMember, e2e.OursKgo, optionsFromEnv(t))
	consumed := false
	for name := range rep.LongestPause {
		consumed = consumed || strings.HasPrefix(name, e2e.TruncatedKgo.Name)
	}
	if !consumed {
		t.Errorf("the truncated member consumed nothing: pauses %v", rep.LongestPause)
	}
	if rep.Withheld == 0 {
		t.Errorf("no plan withheld anything (plans %q): the leaders did not protect the truncated member's partitions", rep.Plans)
	}
	if n := len(rep.Plans); n == 0 || withheldIn(t, rep.Plans[n-1]) != 0 {
		t.Errorf("the last plan withholds partitions: %q", rep.Plans)
	}
	if rep.MaxSettle() > 10*time.Second {
		t.Errorf("an event took %v to settle", rep.MaxSettle())
	}
}

// withheldIn reads the count a plan line of a report ends with ("…
// withheld 3").
func withheldIn(t *testing.T, plan string) int {
	t.Helper()
	_, count, ok := strings.Cut(plan, " withheld ")
	n, err := strconv.Atoi(count)
	if !ok || err != nil {
		t.Fatalf("plan line %q does not end with its withheld count", plan)
	}
	return n
}
