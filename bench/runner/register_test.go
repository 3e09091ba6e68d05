package runner_test

import (
	"strings"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/runner"
	"github.com/kgroup/assignor/sticky"
)

// TestRegisterRejects: a bad key, a key taken (built in, or by an earlier
// Register) and a missing or nil constructor each fail with an error
// naming the key.
func TestRegisterRejects(t *testing.T) {
	newSticky := func() assignor.Assignor { return sticky.New() }
	tests := []struct {
		name string
		a    runner.Assignor
		want string
	}{
		{"empty key", runner.Assignor{New: newSticky}, `key ""`},
		{"key with a space", runner.Assignor{Key: "my assignor", New: newSticky}, `key "my assignor"`},
		{"built-in key", runner.Assignor{Key: "ours-coop", New: newSticky}, `"ours-coop" is taken`},
		{"built-in core key", runner.Assignor{Key: "ours-coop-core", New: newSticky}, `"ours-coop-core" is taken`},
		{"key of the example's Register", runner.Assignor{Key: "rotate", New: newSticky}, `"rotate" is taken`},
		{"no constructor", runner.Assignor{Key: "no-new"}, `"no-new": New is nil`},
		{"constructor returns nil", runner.Assignor{Key: "nil-new", New: func() assignor.Assignor { return nil }}, `"nil-new": New returned nil`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := runner.Register(tt.a)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Register: %v, want an error containing %s", err, tt.want)
			}
		})
	}
}
