package e2e_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	ibm "github.com/IBM/sarama"
	"github.com/twmb/franz-go/pkg/kfake"
	"go.uber.org/goleak"

	"github.com/kgroup/assignor/adapters/saramaassignor"
	"github.com/kgroup/assignor/bench/internal/e2e"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// sarama's go-metrics meter goroutine never exits.
var ignoreMetrics = goleak.IgnoreTopFunction("github.com/rcrowley/go-metrics.(*meterArbiter).tick")

func TestMain(m *testing.M) { goleak.VerifyTestMain(m, ignoreMetrics) }

// ours is sarama with this module's cooperative-sticky, one strategy value
// per member; oursLed tells the generations it planned.
var (
	ours    = e2e.Ours
	oursLed = e2e.OursLed
)

// optionsFromEnv reads ASSIGNOR_E2E_TIMING=heartbeat,session,backoff (for
// example 300ms,3s,2s) to run the scripts with other group timings, and
// ASSIGNOR_E2E_IDLE=1 to produce no records.
func optionsFromEnv(t *testing.T) e2e.Options {
	var o e2e.Options
	if v := os.Getenv("ASSIGNOR_E2E_TIMING"); v != "" {
		parts := strings.Split(v, ",")
		ds := make([]time.Duration, len(parts))
		for i, p := range parts {
			d, err := time.ParseDuration(p)
			if err != nil || len(parts) != 3 {
				t.Fatalf("ASSIGNOR_E2E_TIMING=%q: want heartbeat,session,backoff", v)
			}
			ds[i] = d
		}
		o.Heartbeat, o.Session, o.RetryBackoff = ds[0], ds[1], ds[2]
	}
	if os.Getenv("ASSIGNOR_E2E_IDLE") != "" {
		o.Rate = -1 // no records: rebalances learnt from heartbeats only
	}
	return o
}

// check runs a script with ours and asserts what every run must hold: no
// overlapping claims in a generation our assignor planned, every produced
// record consumed and committed. Overlaps from a peer's leader are logged
// with their evidence, not failed.
func check(t *testing.T, s e2e.Script) e2e.Report {
	t.Helper()
	return checkKind(t, s, ours, optionsFromEnv(t))
}

// checkKind is check with members of kind k (one of ours) and options opts.
func checkKind(t *testing.T, s e2e.Script, k e2e.Kind, opts e2e.Options) e2e.Report {
	t.Helper()
	opts.Logf = func(f string, a ...any) { t.Logf(f, a...) }
	rep, err := e2e.RunScript(s, k, opts, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(rep.String())
	bad := rep.OverlapsLedBy(oursLed)
	for _, o := range bad {
		t.Errorf("overlap in a generation our assignor planned: %v", o)
	}
	if n := len(rep.Overlaps) - len(bad); n > 0 {
		t.Logf("%d overlaps from peer leaders or eviction windows (reported, not failed; listed above)", n)
	}
	if rep.Lost != 0 || len(rep.Uncommitted) > 0 || rep.Produced == 0 && opts.Rate >= 0 {
		t.Errorf("produced %d, lost %d, uncommitted %v", rep.Produced, rep.Lost, rep.Uncommitted)
	}
	// Every script but the static restart must rebalance with our assignor
	// planning (kfake skips the rebalance of a static rejoin unless the
	// leader restarts or the metadata changes).
	if rep.PlannedBy(oursLed) == 0 && s.Name != "static-restart" {
		t.Errorf("our assignor planned no rebalance in the window (plans by %v)", rep.LeadersByKind)
	}
	return rep
}

// TestE2EShort runs the rolling restart and the crash in plain `go test`
// (about 10 s).
func TestE2EShort(t *testing.T) {
	for _, name := range []string{"rolling-restart", "crash"} {
		t.Run(name, func(t *testing.T) {
			s, _ := e2e.ScriptNamed(name)
			check(t, s)
		})
	}
}

// TestE2E runs every scenario with ours; set ASSIGNOR_E2E=1.
func TestE2E(t *testing.T) {
	if os.Getenv("ASSIGNOR_E2E") == "" {
		t.Skip("set ASSIGNOR_E2E=1 to run every end-to-end scenario (a few minutes)")
	}
	for _, s := range e2e.Scripts {
		t.Run(s.Name, func(t *testing.T) {
			check(t, s)
		})
	}
}

// TestClientReplicaRacks reads replica racks through a real sarama client:
// kfake puts every broker in rack "krack", so each partition's replicas
// collapse to that one rack; an unknown partition has none.
func TestClientReplicaRacks(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(3), kfake.SeedTopics(2, "t"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cfg := ibm.NewConfig()
	cfg.Version = ibm.V3_2_0_0
	client, err := ibm.NewClient(c.ListenAddrs(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	racks := saramaassignor.ClientReplicaRacks(client)
	for p := range int32(2) {
		if got := racks("t", p); !slices.Equal(got, []string{"krack"}) {
			t.Errorf("t/%d: racks %v, want [krack]", p, got)
		}
	}
	if got := racks("t", 9); got != nil {
		t.Errorf("t/9: racks %v, want none", got)
	}
}

// TestSharedStrategyDetectedInAGroup shares one strategy value between two members
// of a group, which the doc forbids: the strategy must notice (two
// assignments in one generation) and say so.
func TestSharedStrategyDetectedInAGroup(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(4, "t"), kfake.GroupMinSessionTimeout(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var logs lockedBuffer
	shared, err := saramaassignor.New(cooperative.Wrap(sticky.New()), saramaassignor.Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var groups []ibm.ConsumerGroup
	var wg sync.WaitGroup
	for i := range 2 {
		cfg := ibm.NewConfig()
		cfg.Version = ibm.V3_2_0_0
		cfg.ClientID = fmt.Sprintf("m%d", i)
		cfg.Consumer.Group.Rebalance.GroupStrategies = []ibm.BalanceStrategy{shared}
		cfg.Consumer.Group.Heartbeat.Interval = 100 * time.Millisecond
		cfg.Consumer.Group.Session.Timeout = time.Second
		cfg.Consumer.Group.Rebalance.Retry.Backoff = 50 * time.Millisecond
		g, err := ibm.NewConsumerGroup(c.ListenAddrs(), "shared", cfg)
		if err != nil {
			t.Fatal(err)
		}
		groups = append(groups, g)
		wg.Go(func() {
			for ctx.Err() == nil {
				if err := g.Consume(ctx, []string{"t"}, idle{}); errors.Is(err, ibm.ErrClosedConsumerGroup) {
					return
				}
			}
		})
	}
	detected := func() bool { return strings.Contains(logs.String(), "shared by several members") }
	for ctx.Err() == nil && !detected() {
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	for _, g := range groups {
		_ = g.Close()
	}
	wg.Wait()
	if !detected() {
		t.Fatalf("sharing not detected; logs %q", logs.String())
	}
}

// idle is a handler that holds its claims and consumes nothing.
type idle struct{}

func (idle) Setup(ibm.ConsumerGroupSession) error   { return nil }
func (idle) Cleanup(ibm.ConsumerGroupSession) error { return nil }
func (idle) ConsumeClaim(sess ibm.ConsumerGroupSession, claim ibm.ConsumerGroupClaim) error {
	for {
		select {
		case _, ok := <-claim.Messages():
			if !ok {
				return nil
			}
		case <-sess.Context().Done():
			return nil
		}
	}
}

// lockedBuffer is a bytes.Buffer safe for concurrent writes and reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
