// Package groupsim is a deterministic simulator of a Kafka consumer group on
// the classic protocol, for comparing eager and cooperative (KIP-429)
// rebalancing on the same script and for checking the cooperative safety
// rule end to end.
//
// # Walk-through
//
// A [Sim] holds an in-memory group coordinator, the cluster's topics, and
// member processes, each running a [github.com/kgroup/assignor/internal/member.Machine] with its own assignor
// instances and its own view of the metadata. Time is simulated: an event
// queue ordered by time (and by scheduling order within a time) drives
// heartbeats, request latency, metadata refreshes, session and rebalance
// timeouts. Nothing reads the clock and nothing is random, so a script gives
// the same output on every run.
//
// The coordinator follows Kafka's classic group coordinator:
//   - PreparingRebalance waits until every known member has rejoined, up to
//     the rebalance timeout; members that did not are removed.
//   - Members learn of a rebalance from their next heartbeat
//     (REBALANCE_IN_PROGRESS); members that revoked partitions rejoin at
//     once, and so do members whose assignment carries the leader's fast
//     re-join mark (a plan that withheld partitions: see
//     [github.com/kgroup/assignor/cooperative.MarksRejoin]), unless they
//     take no part in it (MemberConfig.DisableFastRejoin).
//   - A follower that rejoins a stable group with unchanged metadata gets the
//     current generation back, without a rebalance (Kafka's rule).
//   - Dynamic members first get MEMBER_ID_REQUIRED (KIP-394).
//   - Static members (KIP-345): a restart within the session timeout takes
//     over the member's place, fences the old member ID and causes no
//     rebalance; a restarted static leader does not reassign (KIP-814).
//   - The protocol is chosen by Kafka's vote among the protocols every member
//     lists; the leader runs its assignor of that name with its own metadata.
//
// A member follows the cooperative protocol only if every assignor it lists
// supports it ([github.com/kgroup/assignor.Supports]), as Java's consumer
// decides. Members' heartbeats are spread over the interval (a deterministic
// phase per process), and Config.Jitter adds a deterministic per-message
// delay so that answers sent together arrive in varying order.
//
// Not modelled: fetching and periodic offset commits (a member's final
// commits of revoked partitions are counted, not sent, so the coordinator
// never answers an OffsetCommit), the initial rebalance delay of an empty
// group, and request loss (a disconnected member's traffic is held, not
// dropped).
//
// One deviation from Kafka: a static member that restarts with different
// subscribed topics makes a stable group rebalance (Kafka's coordinator only
// checks that the chosen protocol remains, so the new topics would go
// unassigned).
//
// # Invariants and figures
//
// After every event the simulator checks that no partition is owned by two
// members of the current generation (processes the coordinator knows under
// their member ID). A process that was evicted or fenced but has not yet
// heard of it still owns its partitions: that window is built into the
// classic protocol, so it is reported as partition-time in [Stats], not as a
// failure. Once the group is settled ([Sim.Settle]) every subscribed
// partition must be owned exactly once, except in two gaps of Kafka's
// protocol that Settle reports instead of failing: a restarted static leader
// that skipped the assignment (KIP-814) and missed a topic change, and a
// partition withheld from a static member that was replaced before it
// synced, among members that take no part in fast re-join (nobody revokes
// it, nobody rejoins, and the released wire has no NEEDS_REJOIN). The
// leader's plans are checked with [github.com/kgroup/assignor.CheckPlan]
// under the protocol the assignor declares.
//
// [Stats] reports rebalances, partitions moved, withheld, revoked and lost,
// partition-time without an owner, and each member's longest pause (time
// without processing anything after it first had work: the stop-the-world
// cost).
//
// # Scripts
//
// [Sim.Exec] runs one command; the golden scripts in testdata/ are lists of
// commands, each followed by "----" and its expected output (rewrite them
// with go test -rewrite). Durations use Go syntax (500ms, 3s, 1m). Member
// lists are comma separated and may use a range (m0..m9), "leader" (the
// current leader's process) or "all" (every running member).
//
//	config [heartbeat=3s] [session=45s] [rebalance=5m] [latency=5ms] [jitter=0s] [metadata=5s]
//	    Set the timings; only before anything else. Prints them.
//	topic create NAME partitions=N
//	topic delete NAME
//	topic grow NAME partitions=N
//	    Change the cluster; members see it after the metadata delay and
//	    rejoin if a subscribed topic changed.
//	join MEMBERS topics=T1,T2 assignors=A1,A2 [static] [no-fast-rejoin]
//	    Start member processes now, assignors in preference order; static
//	    members use their name as instance ID; no-fast-rejoin members
//	    neither mark nor honour fast re-join (as Java's, sarama's and
//	    kgo's own members).
//	leave MEMBERS
//	    Close gracefully: revoke, commit, LeaveGroup (dynamic members only).
//	crash MEMBERS
//	    Kill without a word; the session timeout removes the member.
//	restart MEMBERS [down=0s] [crash] [assignors=A1,A2]
//	    Stop (gracefully, or as a crash) and start again after down,
//	    optionally with a new assignor list.
//	rolling-restart [down=0s] [every=0s] [crash] [assignors=A1,A2]
//	    Restart every running member in start order, one every `every`;
//	    with assignors, a deploy of that list (the eager to cooperative
//	    migration is two such deploys).
//	subscribe MEMBERS topics=T1,T2
//	    Change the subscription.
//	disconnect MEMBERS for=D
//	    Hold the member's coordinator traffic for D: it misses a rebalance,
//	    keeps processing and learns of its eviction afterwards.
//	stale MEMBERS on|off
//	    Freeze or thaw the member's metadata (a leader with stale metadata).
//	failover for=D
//	    The coordinator moves to a broker that takes D to load the group:
//	    requests it holds, and every request for D, get NOT_COORDINATOR;
//	    members look it up again with backoff (FindCoordinator answers
//	    COORDINATOR_NOT_AVAILABLE meanwhile), keep what they own, and
//	    rejoin if they were joining; then every session timer restarts.
//	run for=D
//	    Advance simulated time.
//	settle [max=10m]
//	    Run until the group is settled and check that every subscribed
//	    partition is owned once. Prints how long it took.
//	assignment
//	    What every running member owns, with its generation.
//	leader
//	    The leader's member name.
//	stats [reset]
//	    The figures since the start or the last reset; reset starts anew.
//	trace on|off
//	    Print protocol events as they happen.
//
// Every command's output ends with a FAILURE line for each invariant
// violation seen while it ran.
//
// # KIPs
//
// KIP-429 (incremental cooperative rebalancing), KIP-345 (static members),
// KIP-394 (MEMBER_ID_REQUIRED), KIP-814 (static leader rejoin), KIP-792
// (generations of claims).
package groupsim
