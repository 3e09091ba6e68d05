package kafka

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kgroup/assignor"
)

// Assignor names one of Kafka's assignors the harness runs.
type Assignor string

// The assignors.
const (
	// Uniform is the broker's UniformAssignor (KIP-848's default,
	// group.consumer.assignors "uniform"), kafka-group-coordinator 4.4.0,
	// handed the owners in the coordinator's own timeline maps.
	Uniform Assignor = "uniform"
	// UniformHashMaps is Uniform handed the owners in java.util.HashMaps, as
	// Kafka's own jmh ServerSideAssignorBenchmark builds them: the same
	// lookups without the timeline maps' snapshot bookkeeping.
	UniformHashMaps Assignor = "uniform-hashmaps"
	// Range is the broker's RangeAssignor ("range"), kafka-group-coordinator
	// 4.4.0.
	Range Assignor = "range"
	// CooperativeSticky is the Java client's CooperativeStickyAssignor
	// (classic protocol, run by the group leader), kafka-clients 4.4.0.
	CooperativeSticky Assignor = "cooperative-sticky"
)

// Assignors returns every assignor the harness runs. The slice is the
// caller's.
func Assignors() []Assignor { return []Assignor{Uniform, UniformHashMaps, Range, CooperativeSticky} }

// Cooperative reports whether a's plans follow the classic cooperative
// protocol (a partition changing owner is withheld for one round). The
// broker's assignors compute a target assignment that the broker then
// hands over member by member, so their plans are judged as eager ones.
func (a Assignor) Cooperative() bool { return a == CooperativeSticky }

// Budget bounds a series of runs: at least MinRuns, then more while their
// assign() time totals less than Spend, up to MaxRuns, and more again while
// it totals less than QuickSpend, up to QuickRuns (quick runs are noisy).
type Budget struct {
	MinRuns    int
	MaxRuns    int
	Spend      time.Duration
	QuickRuns  int
	QuickSpend time.Duration
}

// Options are one Run's settings.
type Options struct {
	// Warmup are the untimed runs before the timed ones, per group.
	Warmup Budget
	// Timed are the timed runs, each after a System.gc(); at least one.
	Timed Budget
	// Cap ends a group's runs after one run longer than Cap (the result
	// then says Capped); 0 means no cap.
	Cap time.Duration
	// HeapMB is the JVM's heap, fixed (-Xms = -Xmx) and touched before use
	// unless Untimed; 0 means HeapMB(the largest group's partitions).
	HeapMB int
	// Untimed says the runs are wanted for their plans alone: the heap is
	// not touched before use, which saves seconds of the JVM's start on
	// large heaps.
	Untimed bool
}

// DefaultOptions are the bench's settings: at least 3 warm-up runs, then
// up to 1,000 while under 2 s; then the timed runs as the bench times its
// Go contenders: one, then up to 5 while under 300 ms, up to 15 while under
// 30 ms.
func DefaultOptions() Options {
	return Options{
		Warmup: Budget{MinRuns: 3, MaxRuns: 1000, Spend: 2 * time.Second},
		Timed:  Budget{MinRuns: 1, MaxRuns: 5, Spend: 300 * time.Millisecond, QuickRuns: 15, QuickSpend: 30 * time.Millisecond},
	}
}

// PlanOnly are the settings of a run wanted for its plan alone: no
// warm-up, one run.
func PlanOnly() Options { return Options{Timed: Budget{MinRuns: 1, MaxRuns: 1}, Untimed: true} }

// HeapMB is the default heap for a group of the given number of
// partitions: 1 GiB plus 5 MiB per thousand partitions (about 6 GiB at one
// million), enough that no assignor's run fills it.
func HeapMB(partitions int) int { return 1024 + partitions/200 }

// Result is one group's outcome.
type Result struct {
	// Plan is the last timed run's plan: every member of the group, sorted
	// by ID, each with the partitions Kafka's assignor gave it (none for a
	// member it left out).
	Plan assignor.Plan
	// Times are the timed runs' assign() wall times, in run order.
	Times []time.Duration
	// AllocBytes and GCs are, per timed run, the bytes the JVM's running
	// thread allocated during assign() and the garbage collections that ran
	// meanwhile.
	AllocBytes []uint64
	GCs        []uint32
	// WarmupRuns and Warmup are the warm-up runs and their total time.
	WarmupRuns int
	Warmup     time.Duration
	// Subscription is the subscription type the broker's assignor was
	// given ("homogeneous", "heterogeneous"), or "-" for the client's.
	Subscription string
	// Capped reports that a run outlasted Options.Cap; Times ends with it.
	Capped bool
	// JVM describes the JVM: version, VM, garbage collectors and command
	// line options (heap settings included).
	JVM string
}

// Median returns the median of r.Times (the mean of the middle two for an
// even count), or 0 if there are none.
func (r Result) Median() time.Duration {
	ts := slices.Clone(r.Times)
	slices.Sort(ts)
	switch n := len(ts); {
	case n == 0:
		return 0
	case n%2 == 1:
		return ts[n/2]
	default:
		return (ts[n/2-1] + ts[n/2]) / 2
	}
}

// Run runs a on each group in one new JVM, in order, and returns one
// Result per group. It fails if a group cannot be handed over (see the
// package documentation), if the JVM fails (the error quotes the end of
// its stderr) or if ctx ends, which kills the JVM.
func (h *Harness) Run(ctx context.Context, a Assignor, groups []assignor.Group, opt Options) ([]Result, error) {
	if !slices.Contains(Assignors(), a) {
		return nil, fmt.Errorf("kafka: unknown assignor %q", a)
	}
	if opt.Timed.MinRuns < 1 {
		return nil, errors.New("kafka: Options.Timed.MinRuns must be at least 1")
	}
	var in []byte
	partitions := 0
	for i, g := range groups {
		var err error
		if in, err = encodeGroup(in, fmt.Sprint(i), g); err != nil {
			return nil, fmt.Errorf("kafka: group %d: %w", i, err)
		}
		n := 0
		for _, t := range g.Topics {
			n += len(t.Partitions)
		}
		partitions = max(partitions, n)
	}
	heap := opt.HeapMB
	if heap <= 0 {
		heap = HeapMB(partitions)
	}
	capMS := int64(opt.Cap / time.Millisecond)
	if opt.Cap <= 0 {
		capMS = 1 << 40
	}
	budget := func(b Budget) string {
		return fmt.Sprintf("%d,%d,%d,%d,%d", b.MinRuns, max(b.MaxRuns, b.MinRuns), b.Spend.Microseconds(),
			max(b.QuickRuns, b.MinRuns), b.QuickSpend.Microseconds())
	}
	args := []string{fmt.Sprintf("-Xms%dm", heap), fmt.Sprintf("-Xmx%dm", heap), "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"}
	if opt.Untimed {
		args = slices.Delete(args, 2, 3)
	}
	args = append(args, "-cp", h.Classpath, mainClass, string(a), budget(opt.Warmup), budget(opt.Timed), fmt.Sprint(capMS))
	cmd := exec.CommandContext(ctx, h.Java, args...)
	dieWithParent(cmd)
	cmd.Stdin = bytes.NewReader(in)
	stderr := &tail{max: 64 << 10}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("kafka: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("kafka: starting %s: %w", h.Java, err)
	}
	_, results, derr := decodeResults(stdout, groups)
	if derr != nil {
		// Drain what is left so the JVM is not blocked writing.
		_, _ = bytes.NewBuffer(nil).ReadFrom(stdout)
	}
	werr := cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("kafka: %s: %w", a, ctx.Err())
	case werr != nil:
		return nil, fmt.Errorf("kafka: %s: JVM failed: %v: %s", a, werr, stderr.relevant())
	case derr != nil:
		return nil, fmt.Errorf("kafka: %s: reading the harness's output: %w (stderr: %s)", a, derr, stderr.relevant())
	}
	return results, nil
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = t.buf[over:]
	}
	return len(p), nil
}

// relevant returns the last lines of what was written, without SLF4J's
// notice that it has no logger binding.
func (t *tail) relevant() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var keep []string
	for _, l := range strings.Split(string(t.buf), "\n") {
		if l != "" && !strings.HasPrefix(l, "SLF4J: ") {
			keep = append(keep, l)
		}
	}
	return lastLines(strings.Join(keep, "\n"), 8)
}
