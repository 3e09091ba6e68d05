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
//   - [FlatAssignor]: it answers on an [Index] in flat form ([FlatPlan]: one
//     holder per partition), the fast path of the cooperative wrapper and of
//     the adapters (package rebalance), which build the Index with an
//     [IndexBuilder] straight from their client's decoded metadata;
//     [IndexAssignor] is the same for an assignor that answers with a Plan.
//     [AssignIndex] runs any assignor on an Index through its fastest path.
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
// metadata are kept apart ([Index.Outside]). Every assignor in this module
// reads ownership from the [Index] and nowhere else, through the same
// methods a custom assignor uses.
//
// The Index is part of the contract, not a convenience: the classification
// of claims is where KIP-429's safety lives (a stale claimant must never be
// mistaken for the owner), and every assignor, wrapper and checker that
// reads it from here agrees with [CheckPlan] by construction.
//
// # Writing an assignor on the Index
//
// An [Index] numbers members (by ID), topics (by name) and partitions
// (flat, in topic then partition order), and answers with read-only slices
// and numbers: [Index.Subscribers], [Index.TopicRange], [Index.Owner],
// [Index.Claims]. An assignor that decides one holder per flat partition
// answers with a [FlatPlan] and builds its Plan with [Index.PlanOf], which
// comes out sorted and aliases nothing; the package Example writes a range
// assignor that way, and packages roundrobin, sticky and weighted are built
// on the same view.
//
// # Partition sets
//
// Plans, claims and client maps are sets of partitions. The set operations
// on []TopicPartitions are here once, for assignors and adapters alike:
// [NormalizeTopicPartitions], [MergeTopicPartitions],
// [SubtractTopicPartitions], [IntersectTopicPartitions],
// [EqualTopicPartitions], [CountPartitions], and the conversions
// [TopicPartitionsFromMap] and [TopicPartitionsMap] to and from the
// map[string][]int32 sarama and franz-go use.
//
// # Checking a plan
//
// [CheckPlan] returns every way a plan breaks the rules (double assignment,
// naming both members; non-subscriber, unknown member, outside the metadata,
// unassigned partition, and for cooperative plans the safety rule), each
// naming the member, topic, partition and generation at fault. The same
// rules, in the same code, read a plan into flat form ([Index.ReadPlan])
// and check a flat one ([Index.CheckFlat]): the cooperative wrapper applies
// them to the inner assignor's answer and to its own, the adapters to
// every plan they send.
//
// # Examples
//
// The package Example writes a range assignor on an [Index], with its flat
// fast path, and runs the conformance kit (package assignortest) on it; Example_roundRobin assigns
// a small group; [CheckPlan]'s example reads the violations of a
// cooperative plan; [NewIndex]'s walks a group's numbering and claims and
// builds a plan from a flat one. Package assignortest's examples show what a
// kit failure looks like.
//
// # KIPs
//
// KIP-54 (sticky), KIP-341 and KIP-792 (generations of claims), KIP-345
// (static members), KIP-429 (incremental cooperative rebalancing), KIP-881
// (rack-aware assignment).
package assignor
