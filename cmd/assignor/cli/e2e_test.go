package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cmd/assignor/internal/demo"
)

// syncLog records every leader's SyncGroup the demo broker sees.
type syncLog struct {
	mu    sync.Mutex
	syncs []demo.Sync
}

func (l *syncLog) add(s demo.Sync) { l.mu.Lock(); l.syncs = append(l.syncs, s); l.mu.Unlock() }

// of returns the syncs of group, in order.
func (l *syncLog) of(group string) []demo.Sync {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []demo.Sync
	for _, s := range l.syncs {
		if s.Group == group {
			out = append(out, s)
		}
	}
	return out
}

// runJSON runs the command and decodes its -json output into v.
func runJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	if err := tryJSON(v, args...); err != nil {
		t.Fatal(err)
	}
}

// tryJSON runs the command and decodes its -json output into v, or
// returns why it could not.
func tryJSON(v any, args ...string) error {
	var out, errb bytes.Buffer
	if code := Run(context.Background(), append(args, "-json"), &out, &errb); code != 0 {
		return fmt.Errorf("assignor %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), v); err != nil {
		return fmt.Errorf("assignor %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return nil
}

// TestE2E runs the command against groups on the in-process kfake broker
// of -demo: sarama members on count-based sticky (the demo's), kgo
// members on the classic protocol and on KIP-848; whatif with every
// built-in assignor; watch across a rolling restart. Set ASSIGNOR_E2E=1
// (about a minute).
func TestE2E(t *testing.T) {
	if os.Getenv("ASSIGNOR_E2E") == "" {
		t.Skip("set ASSIGNOR_E2E=1 to run the assignor command against groups on an in-process kfake broker (about a minute)")
	}
	log := &syncLog{}
	start := time.Now()
	d, err := demo.Start(context.Background(), demo.Options{OnSync: log.add, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := d.Close(); err != nil {
			t.Errorf("demo producer: %v", err)
		}
	}()
	t.Logf("demo stable after %.1fs", time.Since(start).Seconds())
	brokers := strings.Join(d.Brokers(), ",")
	t.Run("describe sarama members", func(t *testing.T) { e2eDescribeSarama(t, d, brokers, log) })
	t.Run("whatif every built-in assignor", func(t *testing.T) { e2eWhatIf(t, d, brokers) })
	t.Run("describe kgo members, classic", func(t *testing.T) { e2eDescribeKgo(t, d, brokers, log, false) })
	t.Run("describe kgo members, KIP-848", func(t *testing.T) { e2eDescribeKgo(t, d, brokers, log, true) })
	t.Run("watch a rolling restart", func(t *testing.T) { e2eWatch(t, d, brokers, log) })
	t.Run("unknown group", func(t *testing.T) {
		var out, errb bytes.Buffer
		code := Run(context.Background(), []string{"describe", "-brokers", brokers, "-group", "nope"}, &out, &errb)
		if code != 1 || !strings.Contains(errb.String(), `unknown group "nope"`) || !strings.Contains(errb.String(), "demo") {
			t.Errorf("exit %d, stderr %q: want the unknown group named, and the groups the cluster has", code, errb.String())
		}
	})
}

func e2eDescribeSarama(t *testing.T, d *demo.Cluster, brokers string, log *syncLog) {
	var desc description
	runJSON(t, &desc, "describe", "-brokers", brokers, "-group", d.Group(), "-window", "2s")
	if desc.Type != typeClassic || desc.State != "Stable" || desc.Protocol != "sticky" || !desc.Assignments {
		t.Fatalf("type %s state %s protocol %s assignments %v", desc.Type, desc.State, desc.Protocol, desc.Assignments)
	}
	syncs := log.of(d.Group())
	last := syncs[len(syncs)-1]
	// The demo starts its members one at a time: the generation is
	// inferred from the claims of those that were in the previous one.
	if desc.Generation != last.Generation || !desc.GenerationInferred {
		t.Errorf("generation %d (inferred %v), the leader synced %d", desc.Generation, desc.GenerationInferred, last.Generation)
	}
	if len(desc.Members) != d.Members() {
		t.Fatalf("%d members, want %d", len(desc.Members), d.Members())
	}
	var load float64
	for _, m := range desc.Members {
		if m.SubscriptionVersion != 2 || m.UserData != userDataSticky || len(m.Problems) > 0 {
			t.Errorf("%s: subscription v%d, user data %s, problems %q", m.Name, m.SubscriptionVersion, m.UserData, m.Problems)
		}
		got := fromJSON(m.Assigned)
		if want := last.Plan[m.ID]; !assignor.EqualTopicPartitions(got, want) {
			t.Errorf("%s: assigned %s, the leader's plan says %s", m.Name, assignor.FormatTopicPartitions(got), assignor.FormatTopicPartitions(want))
		}
		if m.Lag < 0 {
			t.Errorf("%s: lag unknown", m.Name)
		}
		load += m.Measured
	}
	if total := float64(d.Rate()); load < 0.85*total || load > 1.15*total {
		t.Errorf("measured loads add up to %.1f records/s, the producer writes %.0f", load, total)
	}
	if desc.Totals.Assigned != 24 || len(desc.Unassigned) != 0 || desc.Totals.HeaviestOverMean <= 1 {
		t.Errorf("totals %+v, unassigned %v", desc.Totals, desc.Unassigned)
	}
}

func fromJSON(ts []topicPartition) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for _, t := range ts {
		out = append(out, assignor.TopicPartitions{Topic: t.Topic, Partitions: t.Partitions})
	}
	return assignor.NormalizeTopicPartitions(out)
}

func e2eWhatIf(t *testing.T, d *demo.Cluster, brokers string) {
	plans := map[string]whatIf{}
	for _, key := range []string{"sticky", "cooperative-sticky", "round-robin", "weighted", "cooperative-weighted"} {
		var w whatIf
		runJSON(t, &w, "whatif", "-brokers", brokers, "-group", d.Group(), "-assignor", key, "-window", "1500ms")
		plans[key] = w
		var before, after int
		for _, m := range w.Members {
			before += m.CountBefore
			after += m.CountAfter
		}
		if before != 24 || after != 24 || !w.Settled {
			t.Errorf("%s: %d partitions before, %d after, settled %v", key, before, after, w.Settled)
		}
		t.Logf("%-20s rounds %d moved %2d withheld %2d heaviest %6.1f → %6.1f (count spread %d → %d)", key, w.Rounds, w.Moved, w.Withheld,
			w.Before.LoadMax, w.After.LoadMax, w.Before.CountSpread, w.After.CountSpread)
	}
	// The group runs count-based sticky: sticky keeps it as it is.
	if w := plans["sticky"]; w.Moved != 0 || w.Rounds != 1 {
		t.Errorf("sticky on a sticky group: %d moved in %d rounds", w.Moved, w.Rounds)
	}
	// The load-aware plan's heaviest member is lighter than count-sticky's.
	for _, key := range []string{"weighted", "cooperative-weighted"} {
		if w, s := plans[key], plans["sticky"]; w.After.LoadMax >= s.After.LoadMax {
			t.Errorf("%s: heaviest after %.1f records/s, count-sticky's %.1f", key, w.After.LoadMax, s.After.LoadMax)
		}
	}
	if w := plans["cooperative-weighted"]; w.Moved > 0 && (w.Rounds < 2 || w.Withheld == 0) {
		t.Errorf("cooperative-weighted moves %d partitions in %d round(s), withholding %d", w.Moved, w.Rounds, w.Withheld)
	}
	if w := plans["round-robin"]; w.After.CountSpread != 0 {
		t.Errorf("round-robin count spread %d", w.After.CountSpread)
	}
}

// kgoGroup starts n kgo members of group on the demo's topics: classic
// with kgo's cooperative-sticky, or KIP-848 (kgo.ServerSideBalancer with
// kgo's sticky balancer, the broker's "uniform" assignor).
func kgoGroup(t *testing.T, d *demo.Cluster, group string, n int, serverSide bool) {
	t.Helper()
	for i := range n {
		opts := []kgo.Opt{
			kgo.SeedBrokers(d.Brokers()...), kgo.ClientID(fmt.Sprintf("%s-%d", group, i)),
			kgo.ConsumerGroup(group), kgo.ConsumeTopics(d.Topics()...),
			kgo.SessionTimeout(3 * time.Second), kgo.HeartbeatInterval(300 * time.Millisecond),
			kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxWait(100 * time.Millisecond),
			kgo.AutoCommitInterval(200 * time.Millisecond),
		}
		if serverSide {
			opts = append(opts, kgo.ServerSideBalancer(), kgo.Balancers(kgo.StickyBalancer()))
		}
		cl, err := kgo.NewClient(opts...)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			for ctx.Err() == nil {
				cl.PollRecords(ctx, 1000)
			}
		}()
		t.Cleanup(func() { cancel(); <-done; cl.Close() })
	}
}

func e2eDescribeKgo(t *testing.T, d *demo.Cluster, brokers string, log *syncLog, serverSide bool) {
	group, n := "kgo-classic", 3
	if serverSide {
		group = "kgo-848"
	}
	kgoGroup(t, d, group, n, serverSide)
	var desc description
	deadline := time.Now().Add(30 * time.Second)
	for {
		// The group exists once its first member has joined.
		err := tryJSON(&desc, "describe", "-brokers", brokers, "-group", group, "-window", "0")
		if err != nil && !strings.Contains(err.Error(), "group") {
			t.Fatal(err)
		}
		settled := err == nil && desc.State == "Stable" && len(desc.Members) == n && desc.Totals.Assigned == 24
		if serverSide {
			for _, m := range desc.Members {
				settled = settled && slices.EqualFunc(m.Assigned, m.Target, equalJSONTP)
			}
			settled = settled && desc.AssignmentEpoch == desc.Generation
		}
		if settled {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %s not settled: state %s, %d members, %d assigned (last error: %v)", group, desc.State, len(desc.Members), desc.Totals.Assigned, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, m := range desc.Members {
		if len(m.Problems) > 0 || !strings.HasPrefix(m.ClientID, group) || len(m.Topics) != 2 {
			t.Errorf("%s: client %s topics %v problems %q", m.Name, m.ClientID, m.Topics, m.Problems)
		}
	}
	if !serverSide {
		if desc.Type != typeClassic || desc.Protocol != "cooperative-sticky" {
			t.Errorf("type %s protocol %s", desc.Type, desc.Protocol)
		}
		syncs := log.of(group)
		if last := syncs[len(syncs)-1]; desc.Generation != last.Generation {
			t.Errorf("generation %d inferred, the leader synced %d", desc.Generation, last.Generation)
		}
		for _, m := range desc.Members {
			if m.SubscriptionVersion < 1 {
				t.Errorf("%s: subscription v%d, want owned partitions (v1+)", m.Name, m.SubscriptionVersion)
			}
		}
		return
	}
	if desc.Type != typeConsumer || desc.Protocol != "uniform" || desc.GenerationInferred || desc.Generation <= 0 {
		t.Errorf("type %s assignor %s epoch %d (inferred %v)", desc.Type, desc.Protocol, desc.Generation, desc.GenerationInferred)
	}
	for _, m := range desc.Members {
		if m.ClaimGeneration <= 0 || m.ClaimFrom != "member epoch" || m.Count < 7 || m.Count > 9 {
			t.Errorf("%s: epoch %d (%s), %d partitions", m.Name, m.ClaimGeneration, m.ClaimFrom, m.Count)
		}
	}
	var w whatIf
	runJSON(t, &w, "whatif", "-brokers", brokers, "-group", group, "-assignor", "sticky", "-window", "0")
	if w.Moved != 0 || !strings.Contains(strings.Join(w.Notes, " "), "KIP-848 group") {
		t.Errorf("whatif sticky on the uniform assignment: %d moved, notes %q", w.Moved, w.Notes)
	}
}

// e2eWatch watches the demo group while its members restart one at a
// time, and checks the timeline against the leaders' SyncGroups: every
// generation between the first and the last is accounted for, each
// observed one with the leader's plan for it, seen within one poll
// interval of its sync.
func e2eWatch(t *testing.T, d *demo.Cluster, brokers string, log *syncLog) {
	const interval = 400 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	watchStart := time.Now()
	before := len(log.of(d.Group()))
	go func() {
		done <- Run(ctx, []string{"watch", "-brokers", brokers, "-group", d.Group(), "-interval", interval.String(), "-json"}, &out, &errb)
	}()
	time.Sleep(time.Second)
	if err := d.RollingRestart(context.Background(), 1500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * interval)
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("watch: exit %d\n%s", code, errb.String())
	}
	t.Logf("watched %.1fs", time.Since(watchStart).Seconds())

	var events []event
	var sum summaryLine
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"kind":"summary"`) {
			if err := json.Unmarshal(sc.Bytes(), &sum); err != nil {
				t.Fatal(err)
			}
			continue
		}
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		events = append(events, e)
	}
	syncs := log.of(d.Group())
	synced := map[int32]demo.Sync{}
	for _, s := range syncs {
		synced[s.Generation] = s
	}
	atStart := syncs[before-1].Generation
	final := syncs[len(syncs)-1].Generation
	t.Logf("generations %d to %d: observed %v, not seen %v; %d polls, %d rebalancing", sum.First, sum.Last, sum.Observed, sum.Unseen, sum.Polls, sum.Rebalance)
	if sum.First != atStart || sum.Last != final || !sum.Accounted {
		t.Errorf("watch accounted generations %d to %d (accounted %v); the leaders synced %d to %d", sum.First, sum.Last, sum.Accounted, atStart, final)
	}
	seen := map[int32]bool{}
	for _, g := range slices.Concat(sum.Observed, sum.Unseen) {
		if seen[g] {
			t.Errorf("generation %d counted twice", g)
		}
		seen[g] = true
	}
	for g := atStart; g <= final; g++ {
		if _, ok := synced[g]; !ok {
			continue // a generation whose leader never synced (a failed round)
		}
		if !seen[g] {
			t.Errorf("generation %d synced by a leader, neither observed nor counted in a jump", g)
		}
	}
	if final-atStart < int32(2*d.Members()) {
		t.Errorf("a rolling restart of %d members made only %d rebalances", d.Members(), final-atStart)
	}
	for _, e := range events {
		if e.Kind != eventStable || e.Generation < 0 {
			continue
		}
		s, ok := synced[e.Generation]
		if !ok {
			t.Errorf("stable event for generation %d, which no leader synced", e.Generation)
			continue
		}
		if late := e.At.Sub(s.At); e.At.After(watchStart.Add(interval)) && late > interval+300*time.Millisecond {
			t.Errorf("generation %d seen %v after its sync, more than the poll interval %v", e.Generation, late, interval)
		}
	}
	// The assignment each stable event shows is the leader's plan.
	checkPlans(t, events, synced)
}

// checkPlans replays the stable events' moves from the first assignment
// and compares each with the leader's plan of its generation.
func checkPlans(t *testing.T, events []event, synced map[int32]demo.Sync) {
	t.Helper()
	var cur map[tp]string
	for _, e := range events {
		if e.Kind != eventStable || e.Generation < 0 {
			continue
		}
		s := synced[e.Generation]
		if e.First {
			cur = holders(s.Plan)
			continue
		}
		for _, m := range e.Moves {
			if m.To == "" {
				delete(cur, tp{m.Topic, m.Partition})
			} else {
				cur[tp{m.Topic, m.Partition}] = m.To
			}
		}
		want := holders(s.Plan)
		var wrong []string
		for _, k := range slices.SortedFunc(maps.Keys(want), func(a, b tp) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) }) {
			if cur[k] != want[k] {
				wrong = append(wrong, fmt.Sprintf("%s[%d] at %q, plan %q", k.Topic, k.Partition, cur[k], want[k]))
			}
		}
		if len(wrong) > 0 || len(cur) != len(want) {
			t.Errorf("generation %d: the timeline's moves differ from the leader's plan on %d partitions (%d held, %d planned): %s",
				e.Generation, len(wrong), len(cur), len(want), strings.Join(wrong[:min(3, len(wrong))], "; "))
			cur = want
		}
	}
}
