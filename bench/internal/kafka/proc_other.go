//go:build !linux

package kafka

import "os/exec"

// dieWithParent does nothing outside Linux: a JVM whose parent ends early
// runs until its input is done.
func dieWithParent(*exec.Cmd) {}
