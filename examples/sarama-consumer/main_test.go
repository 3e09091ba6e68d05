package main

import (
	"context"
	"testing"
	"time"
)

// TestRun runs the example's script against its embedded cluster with two
// members, cooperative and eager: records flow throughout, every member
// consumes some, and every record produced is consumed.
func TestRun(t *testing.T) {
	for _, tt := range []struct {
		name  string
		eager bool
	}{
		{"cooperative-sticky", false},
		{"eager sticky", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
			defer cancel()
			o := defaults()
			o.partitions, o.members, o.group, o.eager, o.hold = 4, 2, "example-test", tt.eager, 500*time.Millisecond
			s, err := run(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			if s.produced == 0 || s.lost != 0 {
				t.Errorf("produced %d records, %d never consumed", s.produced, s.lost)
			}
			for _, m := range s.members {
				if _, ok := s.longestGap[m]; !ok {
					t.Errorf("%s consumed fewer than two records", m)
				}
			}
		})
	}
}
