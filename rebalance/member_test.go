package rebalance

import (
	"slices"
	"testing"
)

func TestFastRejoinGuard(t *testing.T) {
	tests := []struct {
		name   string
		marked []bool
		honour []bool
	}{
		{"up to MaxFastRejoins in a row", []bool{true, true, true, true, true}, []bool{true, true, true, false, false}},
		{"unmarked never honoured, and resets", []bool{true, false, true, true, true, true}, []bool{true, false, true, true, true, false}},
		{"a long run stays refused until reset", append(slices.Repeat([]bool{true}, 100), false, true), append(append([]bool{true, true, true}, slices.Repeat([]bool{false}, 98)...), true)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g FastRejoinGuard
			for i, mark := range tt.marked {
				if got := g.Honour(mark); got != tt.honour[i] {
					t.Fatalf("assignment %d (marked %v): Honour = %v, want %v", i, mark, got, tt.honour[i])
				}
			}
		})
	}
}
