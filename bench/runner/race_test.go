//go:build race

package runner

// smokeReps is TestSmoke's repetitions: one under the race detector,
// which makes every contender several times slower.
const smokeReps = 1
