package kgoassignor

import (
	"sync"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroup/assignor/rebalance"
)

// Fast re-join (the package doc, # Fast re-join, says what it costs): the
// leader marks every assignment of a plan that withholds partitions (the
// rebalance package does), and a member whose assignment is marked makes its
// client rejoin at once.

// fastRejoin is the member side's state: the guard over marked rounds in a
// row, and what was logged.
type fastRejoin struct {
	mu            sync.Mutex
	guard         rebalance.FastRejoinGuard
	refusing      bool // the guard refused the current run of marks (logged)
	warnedUnbound bool // "no single client" was logged

	// force makes a client rejoin: (*kgo.Client).ForceRebalance. Tests
	// record the calls instead; what kgo does then is the end-to-end
	// suite's to measure (bench/internal/e2e).
	force func(*kgo.Client)
}

// rejoinIfMarked runs after every successful SyncGroup with whether the
// member's assignment carries the fast re-join mark. A marked assignment
// makes the bound client rejoin at once (kgo.Client.ForceRebalance: a
// non-blocking send that ends the session kgo is about to start; see the
// package doc for what that costs), unless fast re-join is off, the
// protocol is eager, more than [rebalance.MaxFastRejoins] marked
// assignments came in a row (an inner assignor that withholds in every
// round: the member then waits for its heartbeat), or no single client is
// bound (a balancer shared by several clients cannot tell which one the
// call is for).
func (b *Balancer) rejoinIfMarked(marked bool) {
	if !b.cooperative || b.cfg.DisableFastRejoin {
		return
	}
	f := &b.fast
	f.mu.Lock()
	honour := f.guard.Honour(marked)
	refused := marked && !honour && !f.refusing
	f.refusing = marked && !honour
	f.mu.Unlock()
	if refused {
		b.log.Warn("several marked assignments in a row; waiting for the next heartbeat instead of rejoining at once", "marked", rebalance.MaxFastRejoins+1)
	}
	if !honour {
		return
	}
	cl := b.clients.only()
	if cl == nil {
		f.mu.Lock()
		warn := !f.warnedUnbound
		f.warnedUnbound = true
		f.mu.Unlock()
		if warn {
			b.log.Warn("fast re-join skipped: no single client bound (build the client with the balancer's Opts, one balancer per client)")
		}
		return
	}
	f.force(cl)
}
