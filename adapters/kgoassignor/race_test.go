//go:build race

package kgoassignor

// raceEnabled is whether the race detector is on: it changes allocation
// counts.
const raceEnabled = true
