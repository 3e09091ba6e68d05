package kgoassignor

import (
	"slices"
	"sync"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroup/assignor"
)

// OnNewClient binds the balancer to a client built with it (kgo.HookNewClient;
// kgo calls it from kgo.NewClient when the balancer is passed to
// kgo.WithHooks). A client whose kgo.Balancers do not include this balancer
// is logged and ignored. A second client while the first is open is logged
// once; see [Balancer] for what sharing costs.
//
// kgo calls it inside NewClient, before the client's consumer is set up;
// the balancer reads the client's group generation only later, from the
// member-side calls that client's own goroutines make.
func (b *Balancer) OnNewClient(cl *kgo.Client) {
	if cl == nil {
		return
	}
	balancers, _ := cl.OptValue(kgo.Balancers).([]kgo.GroupBalancer)
	if !slices.ContainsFunc(balancers, func(g kgo.GroupBalancer) bool { return g == kgo.GroupBalancer(b) }) {
		b.log.Warn("hooked into a client that does not balance with it (kgo.Balancers); ignored")
		return
	}
	logger, _ := cl.OptValue(kgo.WithLogger).(kgo.Logger)
	if n := b.clients.add(cl, logger); n == 2 {
		b.log.Warn("one balancer serves several open clients; build one per client (while more than one is open, assignment observers see no generation and fast re-join is off)", "clients", n)
	}
}

// OnClientClosed unbinds a closed client (kgo.HookClientClosed), so a
// balancer may serve a new client after its previous one closed.
func (b *Balancer) OnClientClosed(cl *kgo.Client) { b.clients.remove(cl) }

// clients is the set of open clients bound to one Balancer.
type clients struct {
	mu        sync.Mutex
	open      []boundClient
	warnedOff bool // "no client bound" was logged
}

type boundClient struct {
	cl     *kgo.Client
	logger kgo.Logger // nil if the client has none
}

// add binds cl and returns how many clients are then open.
func (c *clients) add(cl *kgo.Client, logger kgo.Logger) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !slices.ContainsFunc(c.open, func(bc boundClient) bool { return bc.cl == cl }) {
		c.open = append(c.open, boundClient{cl: cl, logger: logger})
	}
	return len(c.open)
}

func (c *clients) remove(cl *kgo.Client) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.open = slices.DeleteFunc(c.open, func(bc boundClient) bool { return bc.cl == cl })
}

// only returns the one open client, or nil when none or several are open.
func (c *clients) only() *kgo.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.open) != 1 {
		return nil
	}
	return c.open[0].cl
}

// logger returns the logger of the first open client, or nil.
func (c *clients) logger() kgo.Logger {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.open) == 0 {
		return nil
	}
	return c.open[0].logger
}

// firstUnbound reports, once per Balancer, that no client is bound.
func (c *clients) firstUnbound() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.open) > 0 || c.warnedOff {
		return false
	}
	c.warnedOff = true
	return true
}

// generation returns the generation of the one open client's group
// membership, the generation of the assignment it is parsing, or
// [assignor.NoGeneration] when no client or several are bound.
func (b *Balancer) generation() int32 {
	gen, bound := b.boundGeneration()
	if !bound && b.clients.firstUnbound() {
		b.log.Warn("no client bound (build the client with the balancer's Opts); the assignor's OnAssignment sees no generation")
	}
	return gen
}

// boundGeneration is generation without the warning, and whether one
// client is bound.
func (b *Balancer) boundGeneration() (int32, bool) {
	cl := b.clients.only()
	if cl == nil {
		return assignor.NoGeneration, false
	}
	_, gen := cl.GroupMetadata()
	return max(gen, assignor.NoGeneration), true
}
