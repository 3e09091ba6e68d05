package kgoassignor

import (
	"log/slog"
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

// discard is a logger that drops everything.
var discard = slog.New(slog.DiscardHandler)

// logs collects a logger's records, one line each: level, message and
// attributes, "WARN member ID listed several times; assigned nothing
// adapter=kgoassignor assignor=x member=m times=2".
type logs struct {
	mu    sync.Mutex
	lines []string
}

// logger returns a logger, at warning level, whose records l collects.
func (l *logs) logger() *slog.Logger { return l.loggerAt(slog.LevelWarn) }

// loggerAt returns a logger at level whose records l collects.
func (l *logs) loggerAt(level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(logWriter{l}, &slog.HandlerOptions{
		Level: level,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			switch {
			case len(groups) > 0:
			case a.Key == slog.TimeKey:
				return slog.Attr{}
			case a.Key == slog.LevelKey, a.Key == slog.MessageKey:
				return slog.String(a.Key, a.Value.String())
			}
			return a
		},
	}))
}

// logWriter appends each line a text handler writes to the logs.
type logWriter struct{ l *logs }

func (w logWriter) Write(p []byte) (int, error) {
	line := strings.TrimSuffix(string(p), "\n")
	line = strings.Replace(strings.TrimPrefix(line, "level="), " msg=", " ", 1)
	w.l.mu.Lock()
	defer w.l.mu.Unlock()
	w.l.lines = append(w.l.lines, line)
	return len(p), nil
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

// decodeFull is how the leader reads one member's metadata, as the
// assignor sees it: the member of the group a plain assignor is given.
// It reports false when the member is not in that group (assigned
// nothing).
func decodeFull(b *Balancer, km *kmsg.JoinGroupResponseMember) (assignor.Member, bool) {
	rec := &recorder{name: b.name, protocols: assignor.Protocols(b.a)}
	mb, _, _ := build(rec, b.cfg).MemberBalancer([]kmsg.JoinGroupResponseMember{*km})
	if _, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(nil); err != nil || len(rec.got) != 1 || len(rec.got[0].Members) != 1 {
		return assignor.Member{}, false
	}
	return rec.got[0].Members[0], true
}
