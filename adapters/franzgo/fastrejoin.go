package franzgo

import (
	"sync"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	cmember "github.com/kgroup/assignor/cooperative/member"
	"github.com/kgroup/assignor/wire"
)

// Fast re-join (the package doc, # Fast re-join, says what it costs): the
// leader marks every assignment of a plan that withholds partitions, and a
// member whose assignment is marked makes its client rejoin at once.

// assignmentUserData returns the user data of member mp's assignment in
// plan: the assignor's own, marked for fast re-join when the plan withholds
// partitions (cooperative.AssignmentUserData). It is a pure function of the
// plan: kgo compares the assignment bytes a restarted static leader
// recomputes with the broker's copy (KIP-814), so the same plan must always
// give the same bytes.
func (b *Balancer) assignmentUserData(plan assignor.Plan, mp assignor.MemberPlan) []byte {
	return cooperative.AssignmentUserData(b.a, plan, mp, !b.cfg.DisableFastRejoin)
}

// marksRejoin reports whether the assignments of plan carry the fast
// re-join mark: assignmentUserData's decision
// (cooperative.MarksRejoin and the adapter's switch), made once per plan
// from what build found out about the assignor.
func (b *Balancer) marksRejoin(plan assignor.Plan) bool {
	return !b.cfg.DisableFastRejoin && plan.FollowUp && b.sub != nil && b.cooperative
}

// envelopeRoom is room for the fast re-join envelope's header around one
// member's user data (12 bytes; more is only spare capacity).
const envelopeRoom = 16

// appendAssignmentUserData appends to buf (non-nil) the bytes
// assignmentUserData returns for a member whose own user data is
// userData, in a plan that marks (or not) every assignment, and returns
// them (nil when they are null) and the extended buffer.
func appendAssignmentUserData(buf []byte, mark bool, userData []byte) ([]byte, []byte) {
	start := len(buf)
	buf = wire.RejoinEnvelope{Rejoin: mark, UserData: userData}.AppendTo(buf)
	if len(buf) == start && userData == nil {
		return nil, buf
	}
	return buf[start:len(buf):len(buf)], buf
}

// fastRejoin is the member side's state: the guard over marked rounds in a
// row, and what was logged.
type fastRejoin struct {
	mu            sync.Mutex
	guard         cmember.FastRejoinGuard
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
// protocol is eager, more than [cmember.MaxFastRejoins] marked assignments
// came in a row (an inner assignor that withholds in every round: the
// member then waits for its heartbeat), or no single client is bound (a
// balancer shared by several clients cannot tell which one the call is
// for).
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
		b.logf("franzgo: %s: %d marked assignments in a row; waiting for the next heartbeat instead of rejoining at once", b.name, cmember.MaxFastRejoins+1)
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
			b.logf("franzgo: %s: fast re-join skipped: no single client bound (pass the balancer to kgo.WithHooks as well as kgo.Balancers, one balancer per client)", b.name)
		}
		return
	}
	f.force(cl)
}
