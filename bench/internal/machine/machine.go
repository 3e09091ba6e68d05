// Package machine names the computer a figure was measured on, as the
// bench's outputs state it: the CPU model (/proc/cpuinfo), the logical
// CPUs Go sees and the Go toolchain.
package machine

import (
	"fmt"
	"os"
	"runtime"
	"strings"
)

// Describe names the machine from cpuinfo, the text of /proc/cpuinfo
// ("unknown CPU" without a model name), for example
// "AMD EPYC, 2 CPUs, go1.26.8 linux/amd64".
func Describe(cpuinfo string) string {
	model := "unknown CPU"
	for _, line := range strings.Split(cpuinfo, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" && strings.TrimSpace(v) != "" {
			model = strings.TrimSpace(v)
			break
		}
	}
	return fmt.Sprintf("%s, %d CPUs, %s %s/%s", model, runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// This describes the machine running this process.
func This() string {
	b, _ := os.ReadFile("/proc/cpuinfo") // absent outside Linux: "unknown CPU"
	return Describe(string(b))
}
