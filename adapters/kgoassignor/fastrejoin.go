package kgoassignor

import (
	"sync"
	"sync/atomic"
	"time"

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

	// followUp is the generation this balancer led with a plan that
	// withheld partitions for members whose claims it could not read
	// (0: none pending): its own member rejoins once it has that
	// generation's assignment, since no member may ever revoke them.
	followUp atomic.Int32

	// after runs f after d (time.AfterFunc; tests run it at once).
	after func(d time.Duration, f func())

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
func (b *Balancer) rejoinIfMarked(marked bool) (forced bool) {
	if !b.cooperative || b.cfg.DisableFastRejoin {
		return false
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
		return false
	}
	return b.forceRejoin("fast re-join")
}

// forceRejoin makes the bound client rejoin at once, and reports whether it
// did: not without one bound client (logged once).
func (b *Balancer) forceRejoin(why string) bool {
	f := &b.fast
	cl := b.clients.only()
	if cl == nil {
		f.mu.Lock()
		warn := !f.warnedUnbound
		f.warnedUnbound = true
		f.mu.Unlock()
		if warn {
			b.log.Warn(why + " skipped: no single client bound (build the client with the balancer's Opts, one balancer per client)")
		}
		return false
	}
	f.force(cl)
	return true
}

// synced runs on every member after a successful SyncGroup, with whether
// its assignment is marked: it tells the leader side that the plan of the
// generation (if this member led it) was delivered, rejoins for the mark,
// and rejoins anyway after leading a plan that withheld partitions for
// members whose claims it could not read: at once when the plan was marked
// (everyone rejoins at once then), else one heartbeat interval later, so
// that a member slow to sync, which the plan waits for, is not cut short by
// the leader's own rejoin.
func (b *Balancer) synced(marked bool) {
	gen, bound := b.boundGeneration()
	if !b.cooperative {
		return
	}
	if bound && gen > 0 {
		b.leader.Delivered(gen)
	}
	forced := b.rejoinIfMarked(marked)
	if !bound || gen <= 0 || !b.fast.followUp.CompareAndSwap(gen, 0) || forced {
		return
	}
	if marked {
		b.log.Info("rejoining for the follow-up round of a plan that withheld partitions for members whose claims are unknown", "generation", gen)
		b.forceRejoin("follow-up re-join")
		return
	}
	wait := b.heartbeatInterval()
	b.log.Info("rejoining after a heartbeat interval for the follow-up round of a plan that withheld partitions for members whose claims are unknown", "generation", gen, "after", wait)
	b.fast.after(wait, func() {
		if g, ok := b.boundGeneration(); ok && g == gen { // no rebalance meanwhile
			b.forceRejoin("follow-up re-join")
		}
	})
}

// heartbeatInterval returns the bound client's heartbeat interval (kgo's
// default, 3 s, when it cannot be read).
func (b *Balancer) heartbeatInterval() time.Duration {
	if cl := b.clients.only(); cl != nil {
		if d, ok := cl.OptValue(kgo.HeartbeatInterval).(time.Duration); ok && d > 0 {
			return d
		}
	}
	return 3 * time.Second
}
