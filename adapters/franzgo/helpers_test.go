package franzgo

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// recorder is a test assignor: it records every group it is given and
// answers with plan(group), or err.
type recorder struct {
	name      string
	protocols []assignor.Protocol
	plan      func(assignor.Group) assignor.Plan
	err       error

	mu  sync.Mutex
	got []assignor.Group
}

func (r *recorder) Name() string                   { return r.name }
func (r *recorder) Protocols() []assignor.Protocol { return r.protocols }

func (r *recorder) Assign(g assignor.Group) (assignor.Plan, error) {
	r.mu.Lock()
	r.got = append(r.got, g.Clone())
	r.mu.Unlock()
	if r.err != nil {
		return assignor.Plan{}, r.err
	}
	if r.plan == nil {
		return emptyPlan(g), nil
	}
	return r.plan(g), nil
}

func (r *recorder) last(t *testing.T) assignor.Group {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.got) == 0 {
		t.Fatal("the assignor was never called")
	}
	return r.got[len(r.got)-1]
}

// emptyPlan gives every member of g nothing.
func emptyPlan(g assignor.Group) assignor.Plan {
	var p assignor.Plan
	for _, m := range g.Members {
		p.Members = append(p.Members, assignor.MemberPlan{Member: m.ID})
	}
	slices.SortFunc(p.Members, func(a, b assignor.MemberPlan) int { return strings.Compare(a.Member, b.Member) })
	return p
}

// logs collects Config.Logf lines.
type logs struct {
	mu    sync.Mutex
	lines []string
}

func (l *logs) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logs) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lines)
}

// count returns how many lines contain s.
func (l *logs) count(s string) int {
	n := 0
	for _, line := range l.all() {
		if strings.Contains(line, s) {
			n++
		}
	}
	return n
}

func tps(args ...any) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for i := 0; i < len(args); i += 2 {
		out = append(out, assignor.TopicPartitions{Topic: args[i].(string), Partitions: args[i+1].([]int32)})
	}
	return out
}

// member builds a JoinGroup response member from its metadata.
func member(id string, meta []byte) kmsg.JoinGroupResponseMember {
	m := kmsg.NewJoinGroupResponseMember()
	m.MemberID = id
	m.ProtocolMetadata = meta
	return m
}

// static adds an instance ID.
func static(m kmsg.JoinGroupResponseMember, instanceID string) kmsg.JoinGroupResponseMember {
	m.InstanceID = &instanceID
	return m
}

// v3 encodes a subscription v3 as kgo and Java members send it.
func v3(topics []string, owned []assignor.TopicPartitions, gen int32, userData []byte, rack string) []byte {
	return wire.Subscription{Version: 3, Topics: topics, Owned: owned, Generation: gen, UserData: userData, Rack: rack}.AppendTo(nil)
}

// balanceInto runs the leader side as kgo does: MemberBalancer, then
// SetBalanceInfo with the generation, then BalanceOrError.
func balanceInto(t *testing.T, b *Balancer, gen int32, counts map[string]int32, members []kmsg.JoinGroupResponseMember) []kmsg.SyncGroupRequestGroupAssignment {
	t.Helper()
	mb, _, err := b.MemberBalancer(members)
	if err != nil {
		t.Fatalf("MemberBalancer: %v", err)
	}
	mb.(kgo.GroupMemberBalancerInfo).SetBalanceInfo(kgo.BalanceInfo{Generation: gen})
	into, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(counts)
	if err != nil {
		t.Fatalf("BalanceOrError: %v", err)
	}
	return into.IntoSyncAssignment()
}

// decoded is a SyncGroup assignment list decoded with our codec, by member.
func decoded(t *testing.T, sas []kmsg.SyncGroupRequestGroupAssignment) map[string]wire.Assignment {
	t.Helper()
	out := make(map[string]wire.Assignment, len(sas))
	for _, sa := range sas {
		if _, dup := out[sa.MemberID]; dup {
			t.Fatalf("two assignments for member %q", sa.MemberID)
		}
		a, err := wire.DecodeAssignment(sa.MemberAssignment)
		if err != nil {
			t.Fatalf("member %q: %v", sa.MemberID, err)
		}
		out[sa.MemberID] = a
	}
	return out
}

// render shows decoded assignments one member a line, sorted by member.
func render(as map[string]wire.Assignment) string {
	var lines []string
	for id, a := range as {
		line := id + ":"
		if s := assignor.FormatTopicPartitions(a.Partitions); s != "" {
			line += " " + s
		}
		lines = append(lines, line)
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// counts is a topic → partition count map.
func counts(args ...any) map[string]int32 {
	m := make(map[string]int32)
	for i := 0; i < len(args); i += 2 {
		m[args[i].(string)] = int32(args[i+1].(int))
	}
	return m
}

// decodeFull is decodeMember with the owned partitions decoded into the
// member's Owned, as the assignor sees them.
func decodeFull(b *Balancer, km *kmsg.JoinGroupResponseMember) (assignor.Member, bool) {
	m, claims, ok := b.decodeMember(new(wire.SubscriptionDecoder), km)
	if ok {
		m.Owned = claims.Materialize().Owned
	}
	return m, ok
}
