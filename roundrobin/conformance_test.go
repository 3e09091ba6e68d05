package roundrobin_test

import (
	"testing"

	"github.com/kgroup/assignor/assignortest"
	"github.com/kgroup/assignor/roundrobin"
)

// TestConformance runs the conformance kit: round-robin is eager and
// declares itself balanced, so every case but the sticky ones applies.
func TestConformance(t *testing.T) {
	assignortest.Run(t, roundrobin.New)
}
