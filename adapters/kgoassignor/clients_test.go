package kgoassignor

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// newClient builds a kgo consumer-group client that never reaches a broker
// (nothing listens on port 1): enough for kgo to run its hooks.
func newClient(t *testing.T, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	opts = append([]kgo.Opt{kgo.SeedBrokers("127.0.0.1:1"), kgo.ConsumerGroup("g"), kgo.ConsumeTopics("t")}, opts...)
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// kgoLogger records what a client's logger receives.
type kgoLogger struct {
	mu    sync.Mutex
	lines []string
}

func (l *kgoLogger) Level() kgo.LogLevel { return kgo.LogLevelDebug }

func (l *kgoLogger) Log(level kgo.LogLevel, msg string, _ ...any) {
	if !strings.HasPrefix(msg, "kgoassignor: ") {
		return // kgo's own lines
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf("%s %s", level, msg))
}

func (l *kgoLogger) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

func TestBindsItsClient(t *testing.T) {
	b := CooperativeSticky()
	cl := newClient(t, kgo.Balancers(b), kgo.WithHooks(b))
	if b.clients.only() != cl {
		t.Fatal("the balancer is not bound to the client built with it")
	}
	cl.Close()
	if b.clients.only() != nil {
		t.Fatal("still bound after the client closed")
	}
	// The same balancer may serve a new client once the old one closed.
	cl2 := newClient(t, kgo.Balancers(b), kgo.WithHooks(b))
	defer cl2.Close()
	if b.clients.only() != cl2 {
		t.Fatal("not bound to the next client")
	}
}

func TestSharedBalancerLogged(t *testing.T) {
	var l logs
	b, _ := New(CooperativeSticky().Assignor(), Config{Logger: l.logger()})
	cl1 := newClient(t, kgo.Balancers(b), kgo.WithHooks(b))
	cl2 := newClient(t, kgo.Balancers(b), kgo.WithHooks(b))
	if got := l.count("one balancer serves several open clients"); got != 1 {
		t.Fatalf("sharing logged %d times: %q", got, l.all())
	}
	if b.clients.only() != nil {
		t.Fatal("a shared balancer still reads one client's generation")
	}
	cl1.Close()
	if b.clients.only() != cl2 {
		t.Fatal("once one client closed, the other is not the balancer's")
	}
	cl2.Close()
}

func TestHookedIntoAnotherBalancersClient(t *testing.T) {
	var l logs
	b, _ := New(CooperativeSticky().Assignor(), Config{Logger: l.logger()})
	cl := newClient(t, kgo.Balancers(kgo.RangeBalancer()), kgo.WithHooks(b))
	defer cl.Close()
	if b.clients.only() != nil || l.count("hooked into a client that does not balance with it") != 1 {
		t.Fatalf("bound to a client that does not use it; logs %q", l.all())
	}
}

func TestDefaultLogsGoToTheClientsLogger(t *testing.T) {
	var kl kgoLogger
	b := CooperativeSticky()
	cl := newClient(t, kgo.Balancers(b), kgo.WithHooks(b), kgo.WithLogger(&kl))
	defer cl.Close()
	b.MemberBalancer([]kmsg.JoinGroupResponseMember{member("", nil)})
	got := kl.all()
	if !slices.Contains(got, "WARN kgoassignor: a member has an empty member ID; assigned nothing") {
		t.Fatalf("client logger got %q", got)
	}
}

func TestObserverWithoutClient(t *testing.T) {
	var l logs
	h := &hooked{recorder: recorder{name: "h"}}
	b, _ := New(h, Config{Logger: l.logger()})
	for range 2 {
		if _, err := b.ParseSyncAssignment(nil); err != nil {
			t.Fatal(err)
		}
	}
	if l.count("no client bound") != 1 {
		t.Fatalf("want the missing hook logged once, got %q", l.all())
	}
	if len(h.observed) != 2 || !strings.HasPrefix(h.observed[0], "g-1 ") {
		t.Fatalf("observed %q", h.observed)
	}
}

// Every method is safe for concurrent use (run with -race): kgo calls the
// member side from its group goroutine while Close runs the hook from
// another, and a shared balancer is called from several clients. (kgo
// hands the hook its client before the client is initialised, and calls
// the member side only from the client's own goroutines, started later; so
// the client is built before the calls here start.)
func TestConcurrentUse(t *testing.T) {
	h := &hooked{recorder: recorder{name: "h", protocols: coopProtocols}}
	b, _ := New(h, Config{Logger: discard})
	cl := newClient(t, kgo.Balancers(b), kgo.WithHooks(b))
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for gen := range int32(20) {
				meta := b.JoinGroupMetadata([]string{"t"}, map[string][]int32{"t": {int32(i)}}, gen)
				sas := balanceInto(t, b, gen+1, counts("t", 4), []kmsg.JoinGroupResponseMember{member(fmt.Sprint("m", i), meta), member("", meta)})
				if _, err := b.ParseSyncAssignment(sas[0].MemberAssignment); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Go(cl.Close)
	wg.Wait()
}
