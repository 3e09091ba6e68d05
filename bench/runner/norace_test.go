//go:build !race

package runner

// smokeReps is TestSmoke's repetitions: two, so that the repetitions
// are interleaved; one under the race detector.
const smokeReps = 2
