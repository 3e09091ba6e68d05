package e2e

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// envSwitch turns the suite on; without it every test skips at once.
const envSwitch = "ASSIGNOR_INTEROP"

var (
	theBroker *broker
	skipWhy   string // why the suite skips; empty when it runs

	reportsMu sync.Mutex
	reports   []report
)

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if os.Getenv(envSwitch) != "1" {
		skipWhy = envSwitch + "=1 is not set"
		return m.Run()
	}
	for _, tool := range []string{"java", "mvn"} {
		if _, err := exec.LookPath(tool); err != nil {
			skipWhy = tool + " is not installed"
			return m.Run()
		}
	}
	ctx := context.Background()
	// Cheap when bench/interop/kafka.sh fetch and build already ran: both check what is there first.
	for _, step := range []string{"fetch", "build"} {
		if _, err := runScript(ctx, step); err != nil {
			fmt.Fprintln(os.Stderr, "interop:", err)
			return 1
		}
	}
	b, err := startBroker(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "interop:", err)
		return 1
	}
	theBroker = b
	fmt.Printf("interop: Apache Kafka %s broker on %s ready in %.1fs (storage format included)\n",
		kafkaVersion, b.addr, b.startTook.Seconds())
	code := m.Run()
	start := time.Now()
	if err := b.stop(); err != nil {
		fmt.Fprintln(os.Stderr, "interop: stopping the broker:", err)
	}
	fmt.Printf("interop: broker stopped in %.1fs\n", time.Since(start).Seconds())
	printSummary(b)
	return code
}

// kafkaVersion is the broker and Java client version the Maven projects pin.
const kafkaVersion = "4.4.0"

func needBroker(t *testing.T) *broker {
	t.Helper()
	if skipWhy != "" {
		t.Skip("real-Kafka interop suite skipped: " + skipWhy)
	}
	return theBroker
}

func addReport(r report) {
	reportsMu.Lock()
	defer reportsMu.Unlock()
	reports = append(reports, r)
}

// printSummary prints one line per scenario or, when INTEROP_REPORT names a file, writes them
// there (the CI script prints it; docs/compatibility.md quotes it).
func printSummary(b *broker) {
	reportsMu.Lock()
	defer reportsMu.Unlock()
	var sb strings.Builder
	fmt.Fprintf(&sb, "broker: Apache Kafka %s (KRaft, 1 node) start %.1fs; strategy under test: %s\n",
		kafkaVersion, b.startTook.Seconds(), strategyUnderTest)
	for _, r := range reports {
		fmt.Fprintln(&sb, r.String())
	}
	path := os.Getenv("INTEROP_REPORT")
	if path == "" {
		fmt.Print(sb.String())
		return
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "interop: writing the report:", err)
	}
}
