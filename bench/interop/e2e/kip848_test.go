package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor/adapters/kgoassignor"
	harness "github.com/kgroup/assignor/bench/internal/e2e"
	"github.com/kgroup/assignor/weighted"
	"github.com/kgroup/assignor/wire"
)

// kip848Runs numbers this process's KIP-848 groups, for unique names.
var kip848Runs atomic.Int32

// kip848Group returns a fresh group name for test t (its topics are named after it).
func kip848Group(t *testing.T) string {
	return fmt.Sprintf("kip848-%s-%d-%d", strings.NewReplacer("/", "-", " ", "-").Replace(t.Name()), kip848Runs.Add(1), time.Now().UnixNano()%1e6)
}

// TestKIP848Groups runs the KIP-848 comparison's rolling restart (package
// bench/internal/e2e, e2e.KIP848Scripts) on Apache Kafka 4.4 at the short timings, once with
// kgo members on the consumer protocol (the broker's own uniform assignor; heartbeat and session
// set as group configs, Kafka's 1 s assignment interval left as it is) and once with ours on
// franz-go (classic, fast re-join), consumers doing work (e2e.KIP848Work). Each must keep what
// both promise: no overlapping claims, every record consumed and committed; the consumer-protocol
// group must have run as one. The figures come from go run ./bench/kip848 -broker kafka.
func TestKIP848Groups(t *testing.T) {
	b := needBroker(t)
	s := kip848Script(t, "rolling-restart")
	for _, k := range []harness.Kind{harness.KgoConsumerProtocol, harness.OursKgo} {
		t.Run(k.Name, func(t *testing.T) {
			rep, err := harness.RunKIP848(s, k, harness.Short, harness.Target{Brokers: []string{b.addr}, Group: kip848Group(t), Logf: t.Logf})
			if err != nil {
				t.Fatal(err)
			}
			t.Log(rep.String())
			for _, err := range harness.CheckKIP848(k, rep) {
				t.Error(err)
			}
		})
	}
}

func kip848Script(t *testing.T, name string) harness.Script {
	t.Helper()
	for _, s := range harness.KIP848Scripts {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no KIP-848 script %q", name)
	return harness.Script{}
}

// migration is a group on the shared broker, run by the e2e harness, for the migration tests.
type migration struct {
	t     *testing.T
	b     *broker
	h     *harness.Harness
	group string
	round int
}

func newMigration(t *testing.T) *migration {
	b := needBroker(t)
	group := kip848Group(t)
	opts := harness.Options{
		Brokers: []string{b.addr}, Group: group, Topics: map[string]int32{group + "-a": 6, group + "-b": 6},
		Rate: 300, Logf: t.Logf,
	}
	h, err := harness.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	return &migration{t: t, b: b, h: h, group: group}
}

func (m *migration) topics() []string { return []string{m.group + "-a", m.group + "-b"} }

// join starts a member of kind k and, if settle, waits until the group is stable with it.
func (m *migration) join(k harness.Kind, settle bool) *harness.Member {
	m.t.Helper()
	m.round++
	mem, err := m.h.Join(fmt.Sprintf("%s-%d", k.Name, m.round), k, "")
	if err != nil {
		m.t.Fatal(err)
	}
	if settle {
		m.stable()
	}
	return mem
}

func (m *migration) stable() {
	m.t.Helper()
	if err := m.h.WaitStable(600*time.Millisecond, 30*time.Second); err != nil {
		m.t.Fatal(err)
	}
}

// roll replaces each of ms with a member of kind k, one at a time.
func (m *migration) roll(ms []*harness.Member, k harness.Kind) {
	m.t.Helper()
	for i := range ms {
		m.h.Leave(ms[i])
		ms[i] = m.join(k, true)
	}
}

// finish ends the run and checks what every group must keep through a migration: no
// overlapping claims (an evicted member's window excepted), every record consumed and
// committed.
func (m *migration) finish() harness.Report {
	m.t.Helper()
	rep, err := m.h.Finish(m.t.Name(), "migration", 30*time.Second)
	if err != nil {
		m.t.Fatal(err)
	}
	m.t.Log(rep.String())
	for _, o := range rep.Overlaps {
		if !o.Evicted {
			m.t.Errorf("overlap: %v", o)
		}
	}
	if rep.Produced == 0 || rep.Lost != 0 || len(rep.Uncommitted) > 0 {
		m.t.Errorf("produced %d, lost %d, uncommitted %v", rep.Produced, rep.Lost, rep.Uncommitted)
	}
	return rep
}

// assignmentUserData returns, for each member of the classic group, the user data of its
// current assignment (nil when null) as DescribeGroups shows it once the group is stable.
func (m *migration) assignmentUserData() map[string][]byte {
	m.t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(m.b.addr))
	if err != nil {
		m.t.Fatal(err)
	}
	defer cl.Close()
	req := kmsg.NewPtrDescribeGroupsRequest()
	req.Groups = []string{m.group}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		m.t.Fatal(err)
	}
	g := resp.Groups[0]
	if g.ErrorCode != 0 || g.State != "Stable" || g.ProtocolType != "consumer" {
		m.t.Fatalf("group %s: error %d, state %q, protocol type %q; want a stable classic consumer group", m.group, g.ErrorCode, g.State, g.ProtocolType)
	}
	out := map[string][]byte{}
	for _, mem := range g.Members {
		a, err := wire.DecodeAssignment(mem.MemberAssignment)
		if err != nil {
			m.t.Fatalf("member %s: assignment: %v", mem.MemberID, err)
		}
		out[mem.MemberID] = a.UserData
	}
	return out
}

// isConsumerGroup reports whether the coordinator describes the group as a consumer-protocol
// group (ConsumerGroupDescribe answers for it).
func (m *migration) isConsumerGroup() bool {
	cl, err := kgo.NewClient(kgo.SeedBrokers(m.b.addr))
	if err != nil {
		m.t.Fatal(err)
	}
	defer cl.Close()
	req := kmsg.NewPtrConsumerGroupDescribeRequest()
	req.Groups = []string{m.group}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := req.RequestWith(ctx, cl)
	return err == nil && len(resp.Groups) == 1 && resp.Groups[0].ErrorCode == 0
}

// brokerLogged returns the broker log's lines about upgrading this group.
func (m *migration) brokerLogged() []string {
	data, err := os.ReadFile(filepath.Join(m.b.dir, "broker.log"))
	if err != nil {
		m.t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, m.group) && strings.Contains(l, "upgrade") {
			out = append(out, l)
		}
	}
	return out
}

// TestKIP848MigrationFromOurs performs the online upgrade of a classic group led by ours on
// franz-go (cooperative-sticky) to the KIP-848 consumer protocol on Kafka 4.4, with fast re-join
// on (the adapter's default) and off (kgoassignor.Config.DisableFastRejoin): two members, a third
// joins (a join moves partitions, so the first round withholds them; with fast re-join on, that
// round's assignments carry the re-join mark and the second round's do not), the settled group's
// assignments carry null user data (what the adapter writes when it has nothing to say), a kgo
// member on the consumer protocol joins and the broker converts the group, and the classic
// members are replaced by consumer-protocol ones one at a time. Kafka refuses the conversion
// while any member's assignment carries user data (KAFKA-18134; null and empty both pass), so
// with fast re-join on this works from a settled group: the mark lives only in a withholding
// round's assignments, which the next round replaces at once.
func TestKIP848MigrationFromOurs(t *testing.T) {
	for _, k := range []harness.Kind{harness.OursKgo, harness.OursKgoNoFastRejoin} {
		t.Run(k.Name, func(t *testing.T) {
			m := newMigration(t)
			ms := []*harness.Member{m.join(k, true), m.join(k, true)}
			m.h.MarkStart()
			ms = append(ms, m.join(k, true))
			for id, ud := range m.assignmentUserData() {
				if ud != nil {
					t.Fatalf("member %s: the settled group's assignment carries user data %q, want null", id, ud)
				}
			}
			m.join(harness.KgoConsumerProtocol, true)
			if !m.isConsumerGroup() {
				t.Fatalf("a consumer-protocol member joined and the group settled, but it is not a consumer group; broker log: %q", m.brokerLogged())
			}
			m.roll(ms, harness.KgoConsumerProtocol)
			m.h.MarkEnd()
			if rep := m.finish(); !rep.ConsumerGroup {
				t.Error("the report never saw a consumer group")
			}
		})
	}
}

// meteredWeighted returns a kind of franz-go members running this module's weighted assignor
// (kgoassignor.Weighted, protocol cooperative-weighted) with a Meter that has measured every
// partition of topics at 25 records/s, so that the leader carries the weights of the partitions
// it moves in the receivers' assignment user data. With sticky, the members list
// cooperative-sticky (ours) first and cooperative-weighted second: the first deploy away from
// the weighted assignor.
func meteredWeighted(name string, topics []string, partitions int32, sticky bool) harness.Kind {
	return harness.Kind{Name: name, Kgo: func() []kgo.GroupBalancer {
		meter := weighted.NewMeter(weighted.MeterConfig{})
		now := time.Now()
		for _, topic := range topics {
			for p := range partitions {
				meter.Observe(topic, p, 0, now.Add(-2*time.Second))
				meter.Observe(topic, p, 50, now)
			}
		}
		w, err := kgoassignor.Weighted(weighted.Config{Meter: meter}, kgoassignor.Config{})
		if err != nil {
			panic(err) // unreachable: a valid configuration
		}
		if sticky {
			return []kgo.GroupBalancer{kgoassignor.CooperativeSticky(), w}
		}
		return []kgo.GroupBalancer{w}
	}}
}

// TestKIP848MigrationRefusedWithUserData shows the refusal and the way around it on Kafka 4.4:
// a classic group led by this module's weighted assignor, whose assignments carry the weights
// of moved partitions to their new holders (assignment user data), cannot be upgraded: a
// consumer-protocol member that joins gets nothing, the group stays classic and keeps
// consuming, and the broker logs why. After a rolling deploy to members that list ours
// (cooperative-sticky) first and cooperative-weighted second, the group runs cooperative-sticky,
// whose settled assignments carry nothing, and the upgrade goes through.
func TestKIP848MigrationRefusedWithUserData(t *testing.T) {
	m := newMigration(t)
	w := meteredWeighted("weighted", m.topics(), 6, false)
	ms := []*harness.Member{m.join(w, true), m.join(w, true)}
	m.h.MarkStart()
	ms = append(ms, m.join(w, true))
	carrying := 0
	for id, ud := range m.assignmentUserData() {
		if len(ud) > 0 {
			carrying++
			t.Logf("member %s: assignment user data %d bytes (carried weights)", id, len(ud))
		}
	}
	if carrying == 0 {
		t.Fatal("no assignment of the weighted group carries user data: nothing to show")
	}

	refused := m.join(harness.KgoConsumerProtocol, false)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && len(m.brokerLogged()) == 0 {
		time.Sleep(100 * time.Millisecond)
	}
	logged := m.brokerLogged()
	if len(logged) == 0 || !strings.Contains(strings.Join(logged, "\n"), "Cannot upgrade classic group") {
		t.Errorf("the broker logged nothing about refusing the upgrade: %q", logged)
	}
	for _, l := range logged {
		t.Logf("broker: %s", l)
	}
	if m.isConsumerGroup() {
		t.Fatal("the broker converted a group whose assignments carry user data")
	}
	m.h.Leave(refused)
	m.stable()

	m.roll(ms, meteredWeighted("sticky+weighted", m.topics(), 6, true))
	for id, ud := range m.assignmentUserData() {
		if len(ud) > 0 {
			t.Fatalf("member %s: after the deploy to cooperative-sticky the assignment carries %d bytes", id, len(ud))
		}
	}
	m.join(harness.KgoConsumerProtocol, true)
	if !m.isConsumerGroup() {
		t.Fatalf("the upgrade did not go through after the deploy; broker log: %q", m.brokerLogged())
	}
	m.h.MarkEnd()
	m.finish()
}

// TestKIP848StaticLeaveNeedsInstanceID pins why a static kgo member's restart on the consumer
// protocol costs a session timeout on Kafka 4.4 (the static-restart rows of
// docs/kip848/results.md): franz-go v1.22.3 leaves with MemberEpoch -2 but no InstanceID
// (kgo/consumer_group_848.go, leave848), and Kafka refuses that request as invalid, so the member
// stays until its session expires and its restarted process gets UNRELEASED_INSTANCE_ID until
// then. The same leave with the instance ID is accepted (here: the group does not exist).
func TestKIP848StaticLeaveNeedsInstanceID(t *testing.T) {
	b := needBroker(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(b.addr))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for _, tc := range []struct {
		name     string
		instance *string
		want     int16
	}{
		{"as franz-go v1.22.3 sends it: no instance ID", nil, 42}, // INVALID_REQUEST
		{"with the instance ID", kmsg.StringPtr("static-0"), 69},  // GROUP_ID_NOT_FOUND
	} {
		req := kmsg.NewPtrConsumerGroupHeartbeatRequest()
		req.Group, req.MemberID, req.MemberEpoch, req.InstanceID = kip848Group(t), "AAAAAAAAAAAAAAAAAAAAAA", -2, tc.instance
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		resp, err := req.RequestWith(ctx, cl)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if resp.ErrorCode != tc.want {
			msg := ""
			if resp.ErrorMessage != nil {
				msg = *resp.ErrorMessage
			}
			t.Errorf("%s: error code %d (%s), want %d", tc.name, resp.ErrorCode, msg, tc.want)
		}
	}
}
