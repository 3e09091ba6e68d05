package cooperative_test

import (
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/assignortest"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
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
