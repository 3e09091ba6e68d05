package sticky_test

import (
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/assignortest"
	"github.com/kgroup/assignor/sticky"
)

// TestConformance runs the conformance kit: sticky is eager and declares
// itself balanced and sticky, so every non-cooperative case applies.
func TestConformance(t *testing.T) {
	assignortest.Run(t, func() assignor.Assignor { return sticky.New() })
}
