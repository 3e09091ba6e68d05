// Package saramaassignor runs any [assignor.Assignor] in a github.com/IBM/sarama
// (v1.61+) consumer group, wire-compatible with Java and franz-go members of
// the same group.
//
// # Plugging in
//
// The common case is one line per consumer group member:
//
//	config.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{saramaassignor.CooperativeSticky()}
//
// with config.Version at least sarama.V3_2_0_0, so that members send their
// owned partitions and the generation of that ownership (subscription v2). Any
// other assignor goes through [New]. Each member needs its own [Strategy]
// value: sarama's member-side hooks carry no member identity, so the strategy
// remembers its member's last assignment and generation (see [Strategy]).
// Set GroupStrategies rather than append to it (sarama.NewConfig puts range
// there).
//
// [CheckConfig] reports that mistake and the others sarama's own
// Config.Validate lets through, each with its fix: a strategy list that makes
// the group run eager, a Version below V3_2_0_0 with user data that does not
// carry the generation, and settings that make cooperative second rounds
// slow (Rebalance.Retry.Backoff, 2 s by default; the heartbeat interval;
// Consumer.MaxWaitTime, since sarama sends fetches and group requests over
// one connection per broker), two strategies with one protocol name (ours
// beside sarama's own cooperative-sticky: sarama plans with the first, and
// the broker hands the leader the first member entry of that name) and a
// strategy listed twice. Call it where the config is built:
//
//	if err := saramaassignor.CheckConfig(config); err != nil {
//		log.Print(err) // or fail: each finding names its field, severity and fix
//	}
//
// The findings are typed ([ConfigError] holds them, each a [Finding]: field,
// [Severity], problem, fix), for a program to act on. The first of KIP-429's
// two rolling deploys lists the cooperative strategy with an eager one on
// purpose: acknowledge it with [CheckConfigWith] and
// CheckOptions{Migrating: true}.
//
// # What sarama does before Plan
//
// On the leader, before [Strategy.Plan] runs, sarama (v1.61.1):
//
//   - decodes every member's JoinGroup metadata itself
//     (JoinGroupResponse.GetMembers) and fails the whole join if one member's
//     bytes do not decode; the adapter never sees those bytes;
//   - drops each member's static instance ID, so a sarama leader cannot order
//     static members as Java's round-robin does (Plan sees member IDs only;
//     see [RackByPrefix] for how to recover a client or instance ID);
//   - refreshes metadata for every subscribed topic and fails the rebalance
//     on a topic the brokers do not know, or creates it when the brokers
//     auto-create topics (Metadata.AllowAutoTopicCreation, the default);
//   - passes each topic's partition IDs from its metadata cache, which Plan
//     maps faithfully (any IDs, any order).
//
// What does reach Plan, user data above all, is handled so that one member's
// malformed bytes cost that member its history, never a panic and never a
// failed rebalance for the group: an empty member ID gets nothing, an empty
// topic name is ignored, each with a warning ([Config.Logger]).
//
// # Unreadable metadata
//
// One unreadable case reaches Plan: a subscription cut short before its
// owned partitions, which sarama's decoder reads as a member that owns
// nothing (at version 2 or above its generation then reads 0, which no
// member sends; at version 1 the cut cannot be told from a member that lost
// everything, so a v1 member that names a generation in its user data and
// claims nothing counts too). Such a member may still hold partitions, so
// under the cooperative protocol the leader treats its claims as unknown.
// The strategy keeps its last plan between rebalances (it lives as long as
// the consumer group) and learns that it was delivered when its own member
// receives that generation's assignment (OnAssignment); in the round right
// after it, it reads the member's claims from that plan: what it assigned
// the member, as ordinary claims, and what it withheld from it, kept from
// everyone else one round more in case it missed that plan. Without such a
// plan (this member did not lead the last generation, or it restarted) the
// round withholds every partition no readable member claims. A sarama
// member cannot make itself rejoin, so when nobody revokes anything in such
// a round the leader also takes one partition from a member that holds it,
// which then revokes it and rejoins at once, bringing the second round;
// when nobody holds anything yet (a group forming with such a member and no
// member acting on the fast re-join mark) the withheld partitions wait for
// the next rebalance. Stats.ClaimsUnknown counts such members.
//
// # Impossible generations
//
// A claim at or above the generation being balanced into cannot be true,
// and the franz-go adapter drops it. sarama does not tell Plan that
// generation, so the strategy bounds it from the newest generation its own
// member synced (OnAssignment): a claim more than 16 generations past it is
// dropped (the member loses its claims, generation and user data, with a
// warning), so that a member cannot outrank true owners with an impossible
// generation. Before its member's first sync (a new process that leads at
// once) the strategy has no bound, and such a claim wins, as it does under
// sarama's own leader.
//
// After Plan, sarama asks [Strategy.AssignmentData] for each member of the
// plan and sends an empty assignment to any member the plan leaves out (Plan
// leaves none out). On each member, after SyncGroup, it calls OnAssignment
// (when the assignor has member-side hooks) and then, in cooperative mode,
// stops the handlers of revoked partitions, commits them and rejoins at once
// if anything was revoked.
//
// # What the assignor sees
//
// Plan hands the assignor what it reads from sarama's input: an
// [assignor.Index], built straight from sarama's decoded metadata, on the
// assignor's fastest path ([assignor.FlatAssignor]: this module's sticky,
// round-robin and weighted assignors and its cooperative wrapper; else
// [assignor.IndexAssignor]), or an [assignor.Group] to any other assignor.
// Both describe the same group, as follows.
//
// For each member: the topics of its subscription; the partitions it owns
// (subscription v1+); the generation of that ownership, from the subscription
// (v2+) or else, for a cooperative assignor, from the user data (v0–v1): the
// 4-byte cooperative user data Java and sarama members below Kafka 3.2 send,
// or the eager sticky layout this module's wrapper sends with
// cooperative.Config.InnerUserData; its rack
// from the subscription (v3) or else from [Config.MemberRack]; and its user
// data. User data of neither layout leaves the member's claims at
// [assignor.NoGeneration] (they still count as claims, so the cooperative
// safety rule still protects them) and is logged. Instance IDs are unknown:
// sarama drops them before Plan.
//
// For each topic: its partition IDs exactly as sarama gave them (any order,
// any IDs), and replica racks from [Config.ReplicaRacks]. Members and topics
// are sorted by ID and name, so the same input always yields the same group.
// The Group aliases nothing of sarama's input; the Index reads sarama's own
// slices in place, which nothing changes while Plan runs (an IndexAssignor
// must not keep it). To look at the Group, wrap the assignor in one that
// records its argument (and has no AssignIndex).
//
// # Racks
//
// A sarama leader learns a member's rack only from a subscription v3, which
// Java and franz-go members send (client.rack) and sarama members never do,
// or from [Config.MemberRack] (for instance [RackByPrefix] over client or
// instance IDs). It learns partition replica racks only from broker metadata,
// through [Config.ReplicaRacks] ([ClientReplicaRacks] reads a sarama.Client).
// A Java leader reads member racks from v3 subscriptions and replica racks
// from its own metadata; a franz-go leader reads neither for its sticky
// balancers.
//
// # Fast re-join
//
// When a cooperative plan withholds partitions, the leader marks every
// member's assignment user data (an envelope around the assignor's own;
// see the rebalance package), so that members
// running the franz-go adapter rejoin at once for the second round instead
// of at their next heartbeat (the KIP-429 design's NEEDS_REJOIN, step 2.6).
// Only cooperative assignors that build their members' subscription user
// data are marked: for a strategy without a SubscriptionUserData hook,
// sarama copies the assignment's user data into the member's next
// subscription. A member of this adapter strips the envelope before the
// assignor's OnAssignment sees its user data. [Config.DisableFastRejoin]
// stops the marking.
//
// A sarama member cannot act on the mark: sarama v1.61.1 has no public way
// to make a member rejoin (its consumerGroupSession.triggerRebalance is
// unexported; ConsumerGroup and ConsumerGroupSession offer nothing that
// rejoins). It learns of the second round from its next heartbeat, so the
// recipe there is a shorter Consumer.Group.Heartbeat.Interval (it shortens
// the first round's wait too), with Session.Timeout at least three times
// as long; docs/sarama.md has the simulator's figures.
//
// # Mixed groups
//
// Members of this adapter, Java, franz-go and sarama's own cooperative-sticky
// share a group on the wire and follow whatever plan they are sent, so a
// rebalance is as safe as its leader (docs/compatibility.md has the table):
//
//   - this adapter with a cooperative assignor: a claimed partition goes only
//     to its valid owner (KIP-792's highest generation), with generations
//     read from subscription v2+ or, below it, from either user data layout
//     cooperative members send (see "What the assignor sees");
//   - sarama's NewBalanceStrategyCooperativeSticky (v1.61.1): a member that
//     rejoins with a stale claim gets the partition at once, while its valid
//     owner still holds it, at any version (its withholding ignores
//     generations);
//   - franz-go's kgo.CooperativeStickyBalancer (v1.22.3): the same for
//     members on subscription v1 (Version below V3_2_0_0); withheld from
//     v2 on;
//   - Java's CooperativeStickyAssignor: generations from v2, or from the
//     first 4 bytes of a v1 member's user data, which with
//     cooperative.Config{InnerUserData: true} are sticky's topic count;
//     [CheckConfig] flags that combination.
//
// # Examples
//
// [CooperativeSticky]'s example is the one-line setup; [New]'s runs the
// leader's side of a join through Plan, round by round; [CheckConfig]'s
// finds the appended strategy; [RackByPrefix]'s maps member IDs to racks;
// [ClientReplicaRacks]'s wires racks into a consumer group (it needs
// brokers, so it only compiles). The program examples/sarama-consumer runs
// a group on an embedded broker while records flow.
//
// # KIPs
//
// KIP-429 (cooperative rebalancing: owned partitions, subscription v1),
// KIP-792 (generation in subscription v2), KIP-881 (racks, subscription v3),
// KIP-345 (static membership, which sarama's leader cannot see).
package saramaassignor
