package member

import "time"

// The defaults of Config.RetryBackoff and Config.RetryBackoffMax: Java's
// retry.backoff.ms and retry.backoff.max.ms.
const (
	DefaultRetryBackoff    = 100 * time.Millisecond
	DefaultRetryBackoffMax = time.Second
)

// FindingCoordinator reports whether the member waits for the answer to a
// [FindCoordinator] action. Meanwhile the caller sends nothing to the
// group: no heartbeat, no commit, no JoinGroup.
func (m *Machine) FindingCoordinator() bool { return m.finding }

// coordinatorError handles the coordinator errors of a JoinGroup or
// SyncGroup answer, Java's way (AbstractCoordinator's JoinGroup and
// SyncGroup response handlers): NOT_COORDINATOR and
// COORDINATOR_NOT_AVAILABLE look the coordinator up again, after a backoff,
// and then rejoin; COORDINATOR_LOAD_IN_PROGRESS (the coordinator is right
// but still loading the group) rejoins after a backoff. Either way the
// member keeps, and claims, what it owns. ok is false for any other code.
//
// Retries are unbounded, as in Java. sarama gives up after
// Consumer.Group.Rebalance.Retry.Max retries (4 by default, 2 s apart) and
// its Consume returns, releasing every partition: a coordinator moving
// during a rolling restart of the brokers would then cost every member
// everything it owns, which is what cooperative rebalancing exists to
// avoid. A member that keeps retrying keeps its claims, and the group
// still bounds how long it trusts them: the coordinator evicts a member
// that has not been heard from for a session timeout, and the member
// learns it (UNKNOWN_MEMBER_ID) at its next request. [FindCoordinator]
// carries the attempt count for a caller that wants a limit anyway.
func (m *Machine) coordinatorError(code ErrorCode) (acts []Action, ok bool) {
	switch code {
	case NotCoordinator, CoordinatorNotAvailable:
		return m.rediscover(true), true
	case CoordinatorLoadInProgress:
		return m.joinAfter(nil, m.nextBackoff()), true
	}
	return nil, false
}

// rediscover asks for the coordinator to be looked up again. With rejoin
// the member rejoins once it is found; without, a stable member goes on as
// it was (Java: a heartbeat's NOT_COORDINATOR marks the coordinator
// unknown and does not rejoin).
func (m *Machine) rediscover(rejoin bool) []Action {
	if rejoin {
		m.phase = Joining
	}
	m.finding = true
	return []Action{FindCoordinator{Backoff: m.nextBackoff(), Attempt: m.attempts}}
}

// coordinatorFound handles the answer to a FindCoordinator: not found, look
// again after a longer backoff; found, send the JoinGroup a joining member
// waits to send (keeping what it owns), or nothing for a stable member,
// which resumes heartbeating.
func (m *Machine) coordinatorFound(code ErrorCode) []Action {
	if !m.finding {
		return nil
	}
	if code != None {
		return []Action{FindCoordinator{Backoff: m.nextBackoff(), Attempt: m.attempts}}
	}
	m.finding = false
	if m.phase == Joining {
		return m.join(nil)
	}
	return nil
}

// nextBackoff counts one more coordinator error and returns the wait before
// the next retry: RetryBackoff doubled for each attempt after the first,
// at most RetryBackoffMax.
//
//	100ms, 200ms, 400ms, 800ms, 1s, 1s, ...
func (m *Machine) nextBackoff() time.Duration {
	m.attempts++
	d := m.backoff
	for i := 1; i < m.attempts && d < m.backoffMax; i++ {
		if d > m.backoffMax/2 {
			return m.backoffMax
		}
		d *= 2
	}
	return min(d, m.backoffMax)
}
