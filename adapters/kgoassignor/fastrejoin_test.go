package kgoassignor

import (
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/rebalance"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/wire"
)

// withholding answers with a fixed plan for m0 and m1 that withholds
// something (FollowUp), with the assignor's own user data "inner".
func withholding(g assignor.Group) assignor.Plan {
	p := emptyPlan(g)
	p.FollowUp = true
	for i := range p.Members {
		p.Members[i].Assigned = tps("t", []int32{int32(i)})
		p.Members[i].UserData = []byte("inner")
	}
	return p
}

// TestLeaderMarksWithholdingPlans pins the leader side of fast re-join:
// every assignment of a cooperative plan that withholds is marked, around
// the assignor's own user data, and kgo's own cooperative-sticky member
// reads the same partitions from it (kgo.ParseConsumerSyncAssignment ignores
// assignment user data); never in an eager plan, nor with the switch off.
func TestLeaderMarksWithholdingPlans(t *testing.T) {
	metas := func(b *Balancer) []kmsg.JoinGroupResponseMember {
		return []kmsg.JoinGroupResponseMember{
			member("m0", b.JoinGroupMetadata([]string{"t"}, map[string][]int32{"t": {0, 1, 2, 3}}, 1)),
			member("m1", b.JoinGroupMetadata([]string{"t"}, nil, -1)),
		}
	}
	tests := []struct {
		name   string
		b      func() *Balancer
		marked bool
		inner  string // the assignor's own user data, as the member reads it
	}{
		{"our cooperative-sticky, a member joins: marked", CooperativeSticky, true, ""},
		{"the assignor's own user data rides inside", func() *Balancer {
			b, _ := New(&hooked{recorder: recorder{name: "h", protocols: coopProtocols, plan: withholding}}, Config{})
			return b
		}, true, "inner"},
		{"DisableFastRejoin: not marked", func() *Balancer {
			b, _ := New(cooperative.Wrap(sticky.New()), Config{DisableFastRejoin: true})
			return b
		}, false, ""},
		{"never in an eager plan, even one that claims a follow-up", func() *Balancer {
			b, _ := New(&hooked{recorder: recorder{name: "h", protocols: eagerProtocols, plan: withholding}}, Config{})
			return b
		}, false, "inner"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.b()
			sas := balanceInto(t, b, 2, counts("t", 4), metas(b))
			for _, sa := range sas {
				a, err := wire.DecodeAssignment(sa.MemberAssignment)
				if err != nil {
					t.Fatal(err)
				}
				own, rejoin, err := rebalance.ReadUserData(a.UserData)
				if err != nil || rejoin != tt.marked || string(own) != tt.inner {
					t.Fatalf("%s: user data % x reads %q marked=%v, %v; want marked=%v around %q", sa.MemberID, a.UserData, own, rejoin, err, tt.marked, tt.inner)
				}
				kgoRead, err := kgo.ParseConsumerSyncAssignment(sa.MemberAssignment)
				if err != nil || !assignor.EqualTopicPartitions(assignor.TopicPartitionsFromMap(kgoRead), a.Partitions) {
					t.Fatalf("%s: kgo reads %v, %v; we sent %v", sa.MemberID, kgoRead, err, a.Partitions)
				}
			}
		})
	}
}

// forces records the clients a balancer made rejoin.
type forces struct {
	mu      sync.Mutex
	clients []*kgo.Client
}

func (f *forces) record(cl *kgo.Client) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.clients = append(f.clients, cl)
}

func (f *forces) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.clients)
}

// marked and unmarked are a member's assignment with and without the fast
// re-join mark, around the assignor's own user data "inner".
var (
	marked   = rebalance.Assignment{Partitions: tps("t", []int32{0}), UserData: []byte("inner"), Rejoin: true}.AppendTo(nil)
	unmarked = wire.Assignment{Version: 3, Partitions: tps("t", []int32{0}), UserData: []byte("inner")}.AppendTo(nil)
)

// TestMemberRejoinsWhenMarked pins the member side: a marked assignment
// makes the bound client rejoin at once (kgo.Client.ForceRebalance; what kgo
// then does is measured end to end in bench/internal/e2e), at most
// rebalance.MaxFastRejoins times in a row, never with the switch off, in
// eager mode, or without one bound client; the assignor sees its own user
// data.
func TestMemberRejoinsWhenMarked(t *testing.T) {
	m, u := marked, unmarked
	tests := []struct {
		name    string
		cfg     Config
		eager   bool
		clients int // bound clients
		parse   [][]byte
		forced  int
		logged  string
	}{
		{name: "marked: the bound client rejoins", clients: 1, parse: [][]byte{m}, forced: 1},
		{name: "unmarked: nothing", clients: 1, parse: [][]byte{u, nil}, forced: 0},
		{name: "DisableFastRejoin: the mark is ignored", cfg: Config{DisableFastRejoin: true}, clients: 1, parse: [][]byte{m}, forced: 0},
		{name: "eager: the mark is ignored", eager: true, clients: 1, parse: [][]byte{m}, forced: 0},
		{name: "the guard: MaxFastRejoins in a row, then the heartbeat", clients: 1,
			parse: [][]byte{m, m, m, m, m}, forced: rebalance.MaxFastRejoins, logged: "several marked assignments in a row; waiting for the next heartbeat"},
		{name: "an unmarked assignment resets the guard", clients: 1,
			parse: [][]byte{m, m, m, u, m, nil, m}, forced: 5},
		{name: "no client bound: skipped, logged", clients: 0, parse: [][]byte{m, m}, forced: 0, logged: "fast re-join skipped: no single client bound"},
		{name: "a balancer shared by two clients: skipped, logged", clients: 2, parse: [][]byte{m}, forced: 0, logged: "fast re-join skipped: no single client bound"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l logs
			tt.cfg.Logger = l.logger()
			protocols := coopProtocols
			if tt.eager {
				protocols = eagerProtocols
			}
			h := &hooked{recorder: recorder{name: "h", protocols: protocols}}
			b, _ := New(h, tt.cfg)
			var f forces
			b.fast.force = f.record
			var bound []*kgo.Client
			for range tt.clients {
				cl := newClient(t, kgo.Balancers(b), kgo.WithHooks(b))
				defer cl.Close()
				bound = append(bound, cl)
			}
			for _, in := range tt.parse {
				if _, err := b.ParseSyncAssignment(in); err != nil {
					t.Fatal(err)
				}
			}
			if f.count() != tt.forced {
				t.Fatalf("forced %d rejoins, want %d; logs %q", f.count(), tt.forced, l.all())
			}
			for _, cl := range f.clients {
				if cl != bound[0] {
					t.Fatal("forced a client the balancer is not bound to")
				}
			}
			if tt.logged != "" && l.count(tt.logged) != 1 {
				t.Fatalf("want %q logged once, got %q", tt.logged, l.all())
			}
			for _, o := range h.observed {
				if strings.Contains(o, "FRJ") || !strings.HasSuffix(o, `ud="inner"`) && !strings.HasSuffix(o, `ud=""`) {
					t.Fatalf("the assignor saw %q, not its own user data", o)
				}
			}
		})
	}
}

// TestMalformedEnvelopeHandedOnAsIs: bytes that begin with the envelope's
// magic but are not a whole envelope are the assignor's own user data, as
// they are: logged, not marked, never an error for kgo.
func TestMalformedEnvelopeHandedOnAsIs(t *testing.T) {
	var l logs
	h := &hooked{recorder: recorder{name: "h", protocols: coopProtocols}}
	b, _ := New(h, Config{Logger: l.logger()})
	var f forces
	b.fast.force = f.record
	cl := newClient(t, kgo.Balancers(b), kgo.WithHooks(b))
	defer cl.Close()
	bad := []byte{0xFE, 'F', 'R', 'J', 0, 0, 0, 1, 0x7f}
	got, err := b.ParseSyncAssignment(wire.Assignment{Partitions: tps("t", []int32{2}), UserData: bad}.AppendTo(nil))
	if err != nil || !reflect.DeepEqual(got, map[string][]int32{"t": {2}}) {
		t.Fatalf("ParseSyncAssignment = %v, %v", got, err)
	}
	if f.count() != 0 || l.count("assignment user data unreadable; handed to the assignor as it is") != 1 || l.count("rejoin envelope user_data at byte 8") != 1 {
		t.Fatalf("forced %d; logs %q", f.count(), l.all())
	}
	if len(h.observed) != 1 || !strings.HasSuffix(h.observed[0], `ud="\xfeFRJ\x00\x00\x00\x01\x7f"`) {
		t.Fatalf("observed %q", h.observed)
	}
}
