package franzgo

import "testing"

// benchAfter times the phases of the adapter as it is.
func benchAfter(b *testing.B, in leaderInput) {}
