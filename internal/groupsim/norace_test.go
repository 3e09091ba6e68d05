//go:build !race

package groupsim_test

const raceEnabled = false
