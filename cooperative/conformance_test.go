package cooperative_test

import (
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/assignortest"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
)

// TestConformance runs the conformance kit on round-robin made cooperative:
// the kit checks the safety rule on every case, runs the follow-up round,
// and checks balance on the settled plan (round-robin declares it).
func TestConformance(t *testing.T) {
	assignortest.Run(t, func() assignor.Assignor { return cooperative.Wrap(roundrobin.New()) })
}

// TestConformanceRevokeUnknown: the same with unknown-but-owned partitions
// revoked instead of given back.
func TestConformanceRevokeUnknown(t *testing.T) {
	assignortest.Run(t, func() assignor.Assignor {
		return cooperative.WrapWithConfig(roundrobin.New(), cooperative.Config{RevokeUnknown: true})
	})
}

// TestConformanceSticky runs the kit on cooperative-sticky: safety on every
// case, then balance and stickiness (forwarded from sticky) on the settled
// round.
func TestConformanceSticky(t *testing.T) {
	w := cooperative.Wrap(sticky.New())
	if w.Name() != "cooperative-sticky" {
		t.Fatalf("Name = %q, want cooperative-sticky", w.Name())
	}
	assignortest.Run(t, func() assignor.Assignor { return cooperative.Wrap(sticky.New()) })
}
