package weighted_test

import (
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/assignortest"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/weighted"
)

// TestConformance runs the conformance kit: weighted is eager and declares
// itself sticky (not balanced: counts may be skewed by design), so every
// case but the balanced ones applies. The kit's groups carry no weights,
// so every partition weighs the default.
func TestConformance(t *testing.T) {
	assignortest.Run(t, func() assignor.Assignor { return weighted.New() })
}

// TestConformanceCooperative runs the kit on cooperative-weighted, where
// the cooperative rules apply in every case.
func TestConformanceCooperative(t *testing.T) {
	assignortest.Run(t, func() assignor.Assignor { return cooperative.Wrap(weighted.New()) })
}
