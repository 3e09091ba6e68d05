//go:build !unix

package kgoassignor

import "time"

// processCPU is 0 where getrusage is not available: BenchmarkLeader then
// reports no cpu-ns/op.
func processCPU() time.Duration { return 0 }
