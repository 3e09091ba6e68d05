// Package assignor is the small contract shared by every partition assignor,
// wrapper and adapter in this module, for Kafka consumer groups on the classic
// group protocol (the one sarama, franz-go and Java's consumer use; under
// KIP-848's new protocol the broker assigns and client assignors do not
// apply).
//
// # The contract
//
// The group leader hands an [Assignor] the [Group] (every member's
// subscription and the topic metadata) and gets back a [Plan]: for each
// member, the partitions it owns after the rebalance. Assign is pure and
// deterministic; see [Assignor] for the full contract. Extra abilities are
// optional interfaces found by type assertion:
//
//   - [ProtocolAssignor]: the rebalance protocols it supports (eager,
//     cooperative); [Protocols] reads them, defaulting to eager.
//   - [BalancedAssignor], [StickyAssignor]: quality it promises, which the
//     conformance kit (package assignortest) checks.
//   - [SubscriptionUserDataAssignor], [AssignmentObserver]: member-side hooks
//     that run on every member, not on the leader.
//
// # Claims
//
// In KIP-429's cooperative protocol each member tells the leader which
// partitions it owns and in which generation it got them (subscription v1
// and v2). [NewIndex] builds the canonical, dense view of a group and
// classifies those claims in one place: the valid owner of a partition is its
// unique highest-generation claimant (KIP-792); a tie at the highest
// generation makes it contested; lower claims are stale; claims outside the
// metadata are kept apart. Every assignor in this module reads ownership from
// the [Index] and nowhere else.
//
// # Checking a plan
//
// [CheckPlan] returns every way a plan breaks the rules (double assignment,
// non-subscriber, unknown member, outside the metadata, unassigned partition,
// and for cooperative plans the safety rule), each naming the member, topic,
// partition and generation at fault.
//
// # Examples
//
// The package Example writes a range assignor on an [Index] and runs the
// conformance kit (package assignortest) on it; Example_roundRobin assigns
// a small group; [CheckPlan]'s example reads the violations of a
// cooperative plan; [NewIndex]'s walks a group's numbering and claims and
// builds a plan from holders. Package assignortest's examples show what a
// kit failure looks like.
//
// # KIPs
//
// KIP-54 (sticky), KIP-341 and KIP-792 (generations of claims), KIP-345
// (static members), KIP-429 (incremental cooperative rebalancing), KIP-881
// (rack-aware assignment).
package assignor
