package machine

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// Describe reads the model from /proc/cpuinfo's text and names the CPUs Go
// sees and the toolchain.
func TestDescribe(t *testing.T) {
	info := "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\nflags\t\t: fpu\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 7B13\n"
	want := fmt.Sprintf("AMD EPYC 7B13, %d CPUs, %s %s/%s", runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if got := Describe(info); got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	if got := Describe("processor\t: 0\nmodel name\t:\n"); !strings.HasPrefix(got, "unknown CPU, ") {
		t.Errorf("Describe without a model = %q", got)
	}
}
