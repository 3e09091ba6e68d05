//go:build unix

package saramaassignor

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) the process has used,
// every goroutine and the garbage collector's included.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
