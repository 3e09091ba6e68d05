// Package cooperative makes any eager assignor cooperative: KIP-429's
// incremental cooperative rebalancing, done on the group leader around
// whatever assignor decides who should own what.
//
// [Wrap] turns an [assignor.Assignor] into one named "cooperative-" + its
// name that declares the cooperative protocol (and eager, for upgrades), so
// Wrap(sticky.New()) is "cooperative-sticky", the protocol Java, sarama and
// franz-go members use, and Wrap(roundrobin.New()) is a safe
// "cooperative-roundrobin". [Split] runs the same rebalance and also returns
// the design's three sets ([Sets]), for tools and tests. What a client
// adapter does around the wrapper (the leader's round, the members' side,
// fast re-join) lives in package rebalance.
//
// # One rebalance, on the leader
//
// Every member's subscription carries the partitions it owns and the
// generation in which it got them. The leader:
//
//  1. classifies the claims with [assignor.NewIndex]: a partition's valid
//     owner is its unique highest-generation claimant (KIP-792); a tie at
//     the highest generation makes it contested; lower claims are stale;
//     claims outside the leader's metadata are kept apart;
//  2. asks the inner assignor for its plan of the same group: the assigned
//     partitions;
//  3. splits the partitions into three exclusive sets: maybe-revoking =
//     owned ∩ assigned, ready-to-migrate = assigned − owned,
//     unknown-but-owned = owned − assigned;
//  4. applies the safety rule and the give-back rule below, and checks the
//     round it decided against the rules of [assignor.CheckPlan] for the
//     cooperative protocol, over every member's claims, returning an
//     [*Error] rather than an unsafe plan;
//  5. writes the plan: for each member, what it holds and what it must
//     revoke ([assignor.MemberPlan].Revoked: its claims minus its
//     assignment), and whether a follow-up rebalance is needed
//     ([assignor.Plan].FollowUp: something was withheld).
//
// A worked example: m0 (generation 7) owns orders 0 to 3, m1 has just
// joined, and round-robin wants two partitions each.
//
//	     owned (gen 7)     inner plan     plan, gen 8                 plan, gen 9
//	m0   orders[0 1 2 3]   orders[0 2]    orders[0 2] revoke [1 3]    orders[0 2]
//	m1   -                 orders[1 3]    - (1 and 3 withheld)        orders[1 3]
//
// orders 1 and 3 are maybe-revoking and change owner, so m1 does not get
// them yet: m0 revokes them (stops processing them, commits their offsets)
// and rejoins at once; in the follow-up rebalance nobody claims them, so
// they are ready-to-migrate and go to m1. m0 never stops processing orders
// 0 and 2; under the eager protocol both members would have stopped
// everything.
//
// # The safety rule
//
// A partition appears in member X's plan this round only if no member claims
// it at all, or X is its valid owner. Every other assignment of a claimed
// partition, to a new member or to a stale or contested claimant, is
// withheld this round: no plan contains it, so every claimant revokes it,
// and the group rebalances again. This is stronger than Java's
// ConsumerCoordinator.validateCooperativeAssignment, which compares the
// partitions added and revoked across members and so misses a stale
// claimant being handed a partition that its valid owner still holds (the
// stale claimant "adds" nothing: it claims the partition already). sarama's
// cooperative-sticky, which ignores generations, makes exactly that
// mistake; franz-go guards against it with a generation check.
//
// # Give-back
//
// An unknown-but-owned partition is one a member claims that the inner
// assignor did not assign. It goes back to its claimer, as KIP-429's design
// says, only when the claimer is its valid owner, still subscribes to the
// topic, and the partition could exist:
//   - its topic is missing from the leader's metadata: created after the
//     leader's last metadata refresh, or deleted;
//   - its number is at or beyond the partition count the leader knows: an
//     expansion the leader has not seen yet;
//   - it is a known partition the inner assignor left out.
//
// A negative partition, or one in a gap of a known topic's partition list,
// is never given back. Give-back is safe: nobody else is given the
// partition this round (the inner assignor did not assign it, or the
// leader does not know it). It saves the claimer a pointless stop, commit
// and restart when the leader's metadata is merely behind (the next
// metadata-triggered rebalance would hand the partition straight back). Its
// cost: a deleted topic's partition stays with its claimer until the member
// stops claiming it (it unsubscribes or leaves). [Config.RevokeUnknown]
// revokes these partitions instead, as Java does.
//
// # Settling
//
// Call an inner assignor stable if, given ownership equal to its previous
// plan minus any subset of partitions, it returns that previous plan.
// Round-robin ignores ownership, so it is; sticky is when subscriptions are
// identical (otherwise its follow-up round still withholds nothing, but may
// place a withheld partition elsewhere than its first plan did). With a
// stable inner assignor the follow-up round hands every withheld partition
// to the member the inner assignor chose, and the group settles within two
// rebalances of the last event. An unstable inner assignor stays safe, but
// may withhold again in the follow-up round.
//
// # Member side
//
// The wrapper implements [assignor.SubscriptionUserDataAssignor] with the
// user data of Java's cooperative-sticky (the generation as a big-endian
// int32; [Config.InnerUserData] sends the inner assignor's instead, and a
// [GenerationCarrier] sends its own layout with the generation inside), and
// forwards [assignor.AssignmentObserver] when the inner assignor has it.
// The Kafka wire carries neither Revoked nor FollowUp: members derive
// revoked = owned − assigned, the members that revoked something rejoin at
// once, and the others learn of the follow-up rebalance from their next
// heartbeat.
//
// # Fast re-join
//
// The design (step 2.6) sets NEEDS_REJOIN for all the members when a plan
// withholds something, "for fast re-join and rebalance"; the released
// protocol dropped the field. This module's adapters put that mark in the
// assignment's user data instead (package rebalance, around the assignor's
// own user data, when the plan's FollowUp is set), so that their members
// rejoin at once and the follow-up
// round starts as soon as the revoking members have committed, rather
// than at the slowest member's next heartbeat. Java's, sarama's and
// franz-go's members ignore assignment user data under cooperative-sticky,
// so the mark costs them nothing. The mark changes when members rejoin,
// never what they are assigned. The member side
// ([rebalance.FastRejoinGuard]) stops honouring it after a few marked
// rounds in a row, for an inner assignor that withholds in every round.
//
// # Cost
//
// Beyond the inner assignor, a rebalance costs one [assignor.NewIndex] and
// O(P + C + R log T) for P partitions, C claims, R runs of one topic in one
// member's lists and T topics, over flat arrays without maps; BenchmarkWrap
// measures it next to the wire floor. This module's sticky assignor answers
// on the wrapper's index instead of building its own (an internal fast
// path); any other inner assignor is called through Assign and its plan is
// read back, checked by the same rules as [assignor.CheckPlan].
//
// # Examples
//
// ExampleWrap (a member joins; what is withheld and handed
// over), ExampleSplit (the three sets), ExampleWrapWithConfig (giving
// unknown-but-owned partitions back or revoking them).
//
// # KIPs
//
// KIP-429 (incremental cooperative rebalancing), KIP-792 (generations of
// claims), KIP-341 (sticky user data with a generation), KIP-345 (static
// members).
package cooperative
