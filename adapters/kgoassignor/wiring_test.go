package kgoassignor

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// TestOptsWiresFastRejoin: a client built with the balancer's Opts is bound
// to it, so a marked assignment makes that client rejoin at once.
func TestOptsWiresFastRejoin(t *testing.T) {
	b := CooperativeSticky()
	var f forces
	b.fast.force = f.record
	cl := newClient(t, b.Opts()...)
	defer cl.Close()
	if _, err := b.ParseSyncAssignment(marked); err != nil {
		t.Fatal(err)
	}
	if f.count() != 1 || f.clients[0] != cl {
		t.Fatalf("forced %d rejoins (clients %v), want 1 of the client built with Opts", f.count(), f.clients)
	}
}

// TestUnboundWarnsWithoutLogger: a balancer never passed to kgo.WithHooks
// (kgo.Balancers alone) cannot make its client rejoin; with no logger
// configured, the warning still reaches slog.Default.
func TestUnboundWarnsWithoutLogger(t *testing.T) {
	var out bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&out, nil)))
	defer slog.SetDefault(old)

	b := CooperativeSticky()
	var f forces
	b.fast.force = f.record
	if _, err := b.ParseSyncAssignment(marked); err != nil {
		t.Fatal(err)
	}
	if f.count() != 0 {
		t.Fatalf("forced %d rejoins with no client bound", f.count())
	}
	if !strings.Contains(out.String(), "level=WARN") || !strings.Contains(out.String(), "fast re-join skipped: no single client bound") {
		t.Fatalf("slog.Default got %q, want the unbound warning", out.String())
	}
}

// TestOnRebalanceOncePerPlan: the stats hook fires once per plan, with the
// figures of a cooperative join (withheld and follow-up set), and not for a
// balance that fails.
func TestOnRebalanceOncePerPlan(t *testing.T) {
	var got []Stats
	b, err := New(cooperative.Wrap(sticky.New()), Config{Logger: discard, OnRebalance: func(s Stats) { got = append(got, s) }})
	if err != nil {
		t.Fatal(err)
	}
	members := []kmsg.JoinGroupResponseMember{
		member("a", v3([]string{"t"}, tps("t", []int32{0, 1, 2, 3, 4, 5}), 4, nil, "")),
		member("b", v3([]string{"t"}, nil, -1, nil, "")),
		member("c", v3([]string{"t"}, nil, -1, nil, "")),
	}
	balanceInto(t, b, 5, counts("t", 6), members)
	if len(got) != 1 {
		t.Fatalf("OnRebalance called %d times for one plan", len(got))
	}
	s := got[0]
	if s.Generation != 5 || s.Members != 3 || s.Partitions != 6 || s.Moved != 4 || s.Withheld != 4 || !s.FollowUp ||
		s.MinAssigned != 0 || s.MaxAssigned != 2 || s.Duration <= 0 || s.Excluded != 0 || s.ClaimsUnknown != 0 {
		t.Fatalf("stats %+v", s)
	}

	failing, _ := New(&recorder{name: "failing", protocols: coopProtocols, err: errors.New("no plan")}, Config{Logger: discard, OnRebalance: func(s Stats) { got = append(got, s) }})
	mb, _, _ := failing.MemberBalancer(members)
	mb.(kgo.GroupMemberBalancerInfo).SetBalanceInfo(kgo.BalanceInfo{Generation: 6})
	if _, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(counts("t", 6)); err == nil || len(got) != 1 {
		t.Fatalf("a failed balance: error %v, OnRebalance called %d times in all, want an error and no call", err, len(got))
	}
}
