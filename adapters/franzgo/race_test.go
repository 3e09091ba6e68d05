//go:build race

package franzgo

// raceEnabled is whether the race detector is on: it changes allocation
// counts.
const raceEnabled = true
