//go:build race

package groupsim_test

const raceEnabled = true
