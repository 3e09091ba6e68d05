// Package cooperative makes any eager assignor cooperative: KIP-429's
// incremental cooperative rebalancing, done on the group leader, around
// whatever assignor decides who should own what.
//
// [Wrap] turns an [assignor.Assignor] into one named "cooperative-" + its
// name that declares the cooperative protocol (and eager, for upgrades), so
// Wrap(sticky.New()) is "cooperative-sticky", the protocol Java, sarama and
// franz-go members use, and Wrap(roundrobin.New()) is a safe
// "cooperative-roundrobin". [Split] runs the same rebalance and also returns
// the design's three sets, for tools and tests. The member-side state
// machine lives in package cooperative/member and the group simulator in
// cooperative/groupsim.
//
// # One rebalance, on the leader
//
// Every member's subscription carries the partitions it owns and the
// generation in which it got them. The leader:
//
//  1. classifies the claims ([assignor.NewIndex]): a partition's valid owner
//     is its unique highest-generation claimant (KIP-792); a tie at the
//     highest generation makes it contested; lower claims are stale; claims
//     outside the leader's metadata are kept apart;
//  2. asks the inner assignor for its plan of the same group (the
//     assigned partitions);
//  3. splits the partitions into three exclusive sets: maybe-revoking =
//     owned ∩ assigned, ready-to-migrate = assigned − owned,
//     unknown-but-owned = owned − assigned ([Sets]);
//  4. applies the safety rule and the give-back rule below, records per
//     member what it must revoke ([assignor.MemberPlan].Revoked) and whether
//     a follow-up rebalance is needed ([assignor.Plan].FollowUp);
//  5. checks its own plan against the rule over every member's claims, and
//     returns an error rather than an unsafe plan.
//
// A worked example: m0 (generation 4) owns t0p0 and t0p1, m1 has just
// joined, and the inner assignor answers m0: t0p0, m1: t0p1.
//
//	before          inner plan        this round              next round
//	m0: t0[0 1]     m0: t0[0]         m0: t0[0]  revoke t0[1]  m0: t0[0]
//	m1: -           m1: t0[1]         m1: -      (withheld)    m1: t0[1]
//
// t0p1 is maybe-revoking and changes owner, so m1 does not get it yet: m0
// revokes it (it stops processing it and commits its offsets), rejoins at
// once, and in the follow-up rebalance nobody claims t0p1, so it is
// ready-to-migrate and goes to m1. m0 never stops processing t0p0.
//
// # The safety rule
//
// A partition appears in member X's plan this round only if no member claims
// it at all, or X is its valid owner. Every other assignment of a claimed
// partition, to a new member or to a stale or contested claimant, is
// withheld this round: no plan contains it, so each claimant revokes it, and
// the group rebalances again. This is stronger than Java's
// ConsumerCoordinator.validateCooperativeAssignment, which compares added
// and revoked partitions and so misses a stale claimant being handed a
// partition its valid owner still holds (the claimant "adds" nothing, as it
// claims the partition already); sarama's cooperative-sticky, with no
// generation check, makes exactly that mistake.
//
// # Give-back
//
// An unknown-but-owned partition is one a member claims that the inner
// assignor did not assign. It goes back to its claimer (KIP-429's design)
// only when the claimer is its valid owner, still subscribes to the topic,
// and the partition could exist:
//   - its topic is missing from the leader's metadata: a topic created after
//     the leader's last metadata refresh, or a deleted one;
//   - its number is at or beyond the count the leader knows: a partition
//     expansion the leader has not seen yet;
//   - it is a known partition that the inner assignor left out.
//
// A negative partition, or one in a gap of a known topic's partition list,
// is never given back. The cost: a deleted topic's partition stays with its
// claimer until the member stops claiming it (it subscribes to another
// topic list, or leaves). [Config.RevokeUnknown] revokes these partitions
// instead, as Java does.
//
// # Settling
//
// Call an inner assignor stable if, given ownership equal to its previous
// plan minus any subset of partitions, it returns that previous plan
// (round-robin and sticky are). With a stable inner assignor the follow-up
// round hands every withheld partition to the member the inner assignor
// chose, and the group settles within two rebalances of the last event.
//
// # KIPs
//
// KIP-429 (incremental cooperative rebalancing), KIP-792 (generations of
// claims), KIP-341 (sticky user data with a generation), KIP-345 (static
// members).
package cooperative
