// Package member is the member side of the classic consumer-group protocol,
// eager and cooperative (KIP-429), as a pure state machine.
//
// # Walk-through
//
// A [Machine] has no clock, no goroutines and no I/O; like etcd raft's
// node, events go in and actions come out. The caller (a client adapter, or
// the group simulator in package groupsim) sends the requests the actions
// ask for, runs the callbacks, and feeds the coordinator's answers back:
//
//	m := member.New(member.Config{Topics: []string{"t0"}, Protocol: assignor.Cooperative})
//	acts := m.Step(member.Start{})             // [SendJoin member="" owned=[] gen=-1]
//	acts = m.Step(member.JoinResponse{MemberID: "m1", Generation: 1})  // [SendSync]
//	acts = m.Step(member.SyncResponse{Generation: 1, Assigned: ...})
//	// [OnAssignment, OnAssigned, StartDelivery]
//
// The caller heartbeats while [Machine.Phase] is [Stable] and
// [Machine.FindingCoordinator] is false, with [Machine.MemberID] and
// [Machine.Generation], and steps every answer.
//
// # The rules
//
// Before a JoinGroup caused by a subscription or metadata change,
// REBALANCE_IN_PROGRESS (heartbeat, commit or sync) or MEMBER_ID_REQUIRED, a
// cooperative member keeps what it owns and claims it, with the generation
// in which it got it; an eager member revokes everything first. A
// subscription change first revokes the partitions of topics no longer
// subscribed and keeps the rest.
//
// UNKNOWN_MEMBER_ID resets the generation and the member ID;
// ILLEGAL_GENERATION resets the generation and keeps the ID. In both cases
// every owned partition is lost ([OnLost], no commit) and the member rejoins
// owning none. FENCED_INSTANCE_ID (a static member replaced by a newer
// instance) loses everything and stops for good. A heartbeat or commit error
// that answers an older generation than the member's current one is
// ignored, and so is one that arrives while a JoinGroup or SyncGroup is in
// flight (that answer carries the coordinator's verdict).
//
// NOT_COORDINATOR and COORDINATOR_NOT_AVAILABLE (the coordinator moved, or
// is being elected) make the member look its coordinator up again after a
// backoff ([FindCoordinator], then [FindCoordinatorResponse]), sending
// nothing to the group meanwhile: from a JoinGroup or SyncGroup answer it
// then rejoins; from a heartbeat or commit answer while stable it goes on
// as before, without rejoining. COORDINATOR_LOAD_IN_PROGRESS (the right
// coordinator, still loading the group) on a JoinGroup or SyncGroup rejoins
// after a backoff ([SendJoin].Backoff); on a heartbeat it waits for the
// next one. The member keeps and claims what it owns throughout, and
// retries without limit, as Java does. sarama gives up after
// Consumer.Group.Rebalance.Retry.Max retries and releases every partition,
// so a coordinator moving during a rolling restart of the brokers costs
// each member all it owns; a member that retries keeps its claims, and the
// group still bounds how long it trusts them (the session timeout evicts a
// member it does not hear from). [FindCoordinator] carries the attempt
// count for a caller that wants a limit.
//
// On a SyncGroup answer, revoked = owned − assigned and added = assigned −
// owned. The member stops delivering the revoked partitions, runs the
// revoked callback and commits their final offsets, all before it rejoins;
// then it runs the assignor's on-assignment hook, then the assigned callback
// (always, even with nothing added, as Java does), then starts delivering
// the added partitions. A cooperative member that revoked anything rejoins
// at once, which is how the group learns that a follow-up rebalance is due
// (the released wire carries no NEEDS_REJOIN).
//
// # Fast re-join
//
// The other members would learn of that follow-up rebalance from their
// next heartbeat. This module's leaders mark every assignment of a plan
// that withholds partitions (the design's NEEDS_REJOIN, step 2.6, carried
// in the assignment's user data: see package rebalance), and a cooperative
// member whose assignment is marked ([SyncResponse].Rejoin) rejoins at
// once too, so the follow-up round starts as soon as the revoking members
// have committed. The mark changes when members rejoin, never what they
// own. A member ignores it with [Config.DisableFastRejoin], in eager mode,
// and past [rebalance.MaxFastRejoins] marked assignments in a row
// ([rebalance.FastRejoinGuard]: an inner assignor that withholds in every round
// falls back to heartbeat pace).
//
// # Deviations from the KIP-429 design text
//
// Both follow Java's consumer (ConsumerCoordinator), the reference
// implementation:
//   - On a subscription change the design revokes nothing before the
//     JoinGroup; Java (onJoinPrepare) revokes the partitions of topics no
//     longer subscribed, so the leader never sees claims the member does not
//     want. So do we.
//   - After SyncGroup the design calls the assigned callback before the
//     revoked one; Java revokes first, then calls the assignor's
//     onAssignment, then onPartitionsAssigned, so an application never holds
//     a partition it is told to give up while it starts new ones. So do we.
//
// Further choices where the design is silent: the generation of the owned
// partitions changes only on a successful SyncGroup (a claim carries the
// generation in which it was received, as KIP-792 intends); a subscription or
// metadata change during a rebalance makes the member rejoin once that
// rebalance completes; any JoinGroup error the rules do not name stops the
// member with [ErrJoinRejected], reporting the generation it had.
//
// # KIPs
//
// KIP-429 (incremental cooperative rebalancing), KIP-345 (static members),
// KIP-394 (MEMBER_ID_REQUIRED), KIP-792 (generation of owned partitions).
package member
