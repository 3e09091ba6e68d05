// Package weighted is the load-aware (weighted) assignor: it balances
// partitions by their weight (records/s, bytes/s, lag: any integer the
// caller measures), within a bound on each member's partition count,
// without churn.
//
// # Use
//
// [New] returns the eager assignor, named "weighted"; wrap it with package
// cooperative for "cooperative-weighted" (KIP-429), which is how it is
// meant to run. The leader reads each partition's weight from
// [assignor.Topic.Weights]: 0 for an idle partition, [assignor.UnknownWeight]
// for one whose load is unknown, which weighs [Config.DefaultWeight] or by
// default the mean of the known weights (every partition weighs 1 when none
// is known, and the plan then balances counts as sticky does). Weights are
// integers so that two leaders on different machines compute the same
// plan. It is a package of its own rather than a mode of sticky because
// its objective is another (loads, with counts only bounded), and so are
// its protocol name, its user data and its solver.
//
// # Where weights come from
//
// In order of precedence, for each partition: the Group's own
// [assignor.Topic.Weights]; the report of the member that owns it,
// measured by a [Meter] and sent in the subscription user data (see
// [Assignor.SubscriptionUserData]: bounded, quantised, frozen per
// generation, the weight carried to the new holder of a moved partition in
// its assignment user data; a report ahead of its member's claims or
// without a generation is dropped and every weight clamped to
// [MaxReportedWeight], so that no member's report fails or skews the
// group, and [CheckReports] says what was dropped or clamped); the leader's
// own [Config.Weights] (package weighted/source puts a deadline and a cache
// in front of a fetch); the default. [Assignor.Drift] tells whether the
// weights have drifted enough for a rebalance to move anything.
//
// # Protocol name and migration
//
// The protocol names are "weighted" and "cooperative-weighted" (the
// wrapper prefixes the inner name, as for sticky and cooperative-sticky).
// The name must differ from cooperative-sticky's for two reasons: the
// subscription user data is another layout (see
// [Assignor.SubscriptionUserData]), which a Java or kgo cooperative-sticky
// leader would misread, and any leader with a count objective would undo
// the weighted plan whenever it led. The coordinator picks a protocol that
// every member lists, so a group migrates by listing cooperative-weighted
// first and cooperative-sticky second: it stays on cooperative-sticky
// while any member lacks cooperative-weighted (one Java member is enough)
// and switches at the rebalance after the last member lists it; both are
// cooperative, so the switch revokes only what the weighted plan moves.
// With franz-go, a custom name costs kgo's work-around for a static
// leader that restarts (KIP-814): the broker tells such a leader to skip
// the assignment and hands it its old one; for its built-in names
// (cooperative-sticky among them) kgo balances anyway and rejoins if its
// own assignment differs, but for any other name it skips the balance, so
// a static leader that restarts with other topics keeps its old
// assignment until something else triggers a rebalance.
//
// # The solver's input and output
//
// Assign reads the group through [assignor.Index] and hands the solver,
// solve(group, config), dense input: it takes P partitions numbered 0..P-1 with a topic and
// an integer weight each (>= 0, defaults applied, 0 for an idle partition),
// M members numbered 0..M-1, each topic's subscribers, each partition's
// current valid owner (or -1), and optionally member racks and replica rack
// sets. It returns holder[p], the member partition p goes to, or -1 exactly
// when nobody subscribes to its topic. Invalid input is an error naming the
// culprit (wrapping errInput), never a panic. Integer arithmetic only (sums
// of squares in 128 bits), no clock, no randomness, no goroutines: two
// leaders on any machines compute the same plan. Ties are broken by member
// and partition number, so the plan is the same for any order of the lists
// that are sets (subscribers, rack sets) but may change if members or
// partitions are renumbered: the caller numbers them canonically (member ID
// order, topic then partition order), as assignor.Index does.
//
// # What it optimises
//
// In this order:
//
//  1. Counts: every member's partition count is within [Config.CountTolerance] (by
//     default one partition) of its band in the count-balanced plans, and
//     at least 1 where that band is. The count-balanced plans are sticky's: those minimising the
//     sum of squared counts over all valid plans. With identical
//     subscriptions every member has ⌊N/k⌋ or ⌈N/k⌉; with different ones, no
//     chain of subscribers can pass a partition from a member to one with
//     two fewer. Member m's counts over those plans form a band [lo, hi],
//     hi <= lo+1, so it may hold [max(lo − skew, min(lo, 1)), hi + skew].
//     The bound is hard: it is what keeps idle partitions from piling onto
//     one member, and memory per member bounded.
//  2. The heaviest member's load, as small as possible;
//  3. then the sum of squared loads. Both are compared within a band
//     ([Config.TiePercent], default 1%): heaviest loads within 1% of each other,
//     and sums of squares within 1%, count as equal, so that
//  4. racks (a member in a rack holding a replica of the partition, as
//     sticky and KIP-881 do them), and then
//  5. moves (partitions leaving their valid owner, then their weight)
//     decide; then
//  6. a deterministic tie-break (member and partition numbers).
//
// Hysteresis ([Config.HysteresisPercent], default 10%): unless a member
// joined, the solver places what nobody owns, repairs counts the group's
// change broke, passes what it placed around if that is needed to bring
// the heaviest load within the margin, and moves nothing an owner holds
// while the heaviest load is within the margin of the best it can reach.
// With the same members and subscriptions nothing moves at all. After a
// member leaves, only its partitions are placed; in the follow-up round of
// a cooperative rebalance, only the withheld ones. A member that holds
// nothing though its band is at least 1, and that what nobody owns does
// not bring to its minimum count, has joined (the solver never leaves such
// a member empty), and then partitions move, fewest first, until the
// newcomer has its share and the loads are within the band of the best;
// the plan from scratch replaces that settled plan only if its heaviest
// load is more than the margin better. When at least half the partitions,
// and more than eight per member, have no owner (the follow-up round of a
// switch from another assignor's plan), what the owners kept never moves
// unless counts force it.
//
// # Two rounds
//
// Under the cooperative protocol (KIP-429) a partition the plan moves from
// its owner is withheld for a round, and the follow-up round solves again
// from what the members kept. That round's input is known in advance, so
// the solver computes the follow-up's plan before it answers, and answers
// with a plan whose follow-up moves nothing the members kept and places
// only the withheld partitions, none back to the member that revoked it:
// the group settles in two rounds. When the follow-up's plan does not pass,
// it becomes the answer and is checked in turn, at most four times. Two
// cases stop the checks with a plan whose follow-up still keeps everything
// kept (two rounds) but hands withheld partitions back to the members that
// revoked them: two plans trading a partition back and forth (measured: 10
// in 127,412 random events), and a plan that withholds most of the group (a
// switch from another assignor's plan), where about one withheld partition
// in M lands back on its revoker whatever the plan.
//
// # How
//
// The problem is NP-hard (it contains makespan scheduling), so the solver
// is a heuristic: a longest-processing-time start under the count limits,
// improved by local search; from owners, the owners' plan improved with
// the fewest moves.
//
// Count limits. The count-balanced bands are sticky's, computed by the
// same code (internal/balance.CountBands): members subscribed to the same
// sets are interchangeable for counts, so the count balance is solved over
// those classes (a handful in real groups): each set is dealt to its
// classes in proportion to their sizes, then partitions are passed along
// chains of classes from the fullest to the emptiest until no chain
// improves; the bands come from which classes can trade a partition at no
// cost.
//
// Placement. The weighted partitions, by weight descending (an LSD radix
// sort), each go to the least-loaded subscriber with room, picked from a
// winner tree (fan-out four) per subscriber set, refreshed lazily; with
// racks, to the least-loaded subscriber in a replica's rack instead when
// that one is within the band of the least loaded. With one set, the
// lightest partitions are kept for the members below their minimum (those
// that took a heavy partition early): once the partitions left are no more
// than the counts those members lack, they go to them. Idle partitions then
// go to the member with the fewest partitions against its band (ties: the
// fewest subscriber sets). O(P log M).
//
// Count repair. A member still below its minimum takes the lightest
// partition it may from a member that can spare one, directly, through a
// member that cannot (a relay of two), or along a chain of the exchange
// graph (the breadth-first walk sticky's count balance uses,
// internal/balance.Walk); a member above its maximum passes one to the
// lightest subscriber with room, or along a chain. From owners, each step
// first tries what costs no move: a partition not with its owner, directly
// or along a chain of such partitions.
//
// Local search. The heaviest member a tries the lightest members that
// share a set with it and takes the best move (a partition to b) or swap
// (one each way) passing a weight d with 0 < d < load[a] − load[b], nearest
// half the gap: each such operation lowers the pair's larger load and the
// sum of squares, so the search cannot cycle. When a has none, a two-step
// chain (a passes to b, b moves or swaps with c) may lower it where no
// single operation does. Then sweeps go down the members, each trying the
// two lightest that share a set with it, to lower the squares, until the
// squares are within the band of their lower bound or the sweep budget is
// spent. Everything runs on a budget linear in P + M.
//
// From owners. The owners' plan, with what nobody owns placed and counts
// repaired, is checked against the lower bound first: the heaviest load is
// at least max(⌈total/active⌉, heaviest partition plus the c−1 lightest, c
// the least minimum count) and the sum of squares at least that of the k
// heaviest partitions alone and the rest spread evenly (every plan's load
// vector majorizes that one). Within the margin of the bound (hysteresis)
// or within the band of it (settled), the answer is certified without a
// plan from scratch. Otherwise the plan from scratch gives the best loads,
// and the owners' plan is settled toward them: while the heaviest member
// is above the target it passes weight to the lightest, preferring
// operations that move no owned partition, then that finish the job, then
// the least weight; then the squares are brought into the band the same
// way. The settled plan wins unless the plan from scratch beats it by more
// than the band. Before that, unless a member joined, the partitions placed
// (nobody owned them) are passed around by the same searches restricted to
// operations that move no owned partition, when that brings the heaviest
// load within the margin: hysteresis needs no owned partition moved. A
// settle checks its pace sixteen times in its budget and
// stops when, at the rate the weight above the target has fallen so far,
// the budget left cannot clear it (an owners' plan far off balance, made by
// a count-balancing assignor, would take many times the budget): the plan
// from scratch is then the answer, as it would have been.
//
// # Example
//
// Three members A, B, C subscribe to t0, whose six partitions weigh 90,
// 40, 30, 20, 10 and 10 (count band 2, so counts 1 to 3). Placement gives
// 90 to A, 40 to B, 30 and 20 to C and both 10s to B:
//
//	A: t0[0]              load 90 (the heaviest partition: optimal)
//	B: t0[1] t0[4] t0[5]  load 60
//	C: t0[2] t0[3]        load 50
//
// A count-balanced plan gives A two partitions (t0[0] t0[3]: 110). With the
// weights drifting by up to 5% the plan stays as it is. D joins: its band
// is 1 or 2, so it must take one; the heaviest donor B gives it t0[1] (40),
// and C gives B t0[3] (20), which brings the squares into the band: two
// moves, 60 of weight moved, loads 90, 40, 30, 40.
//
// # Guarantees
//
// Always: a valid plan within the count limits (some chain of subscribers
// always repairs a count, because the count-balanced plan satisfies every
// limit); determinism; no panic; time and memory linear in the input up to
// logarithmic factors. Not guaranteed: the optimal heaviest load (no
// constant ratio holds for restricted assignment with count limits), the
// optimal squares, racks or moves. Measured instead (tests): the oracle
// (TestOracle: every valid plan of up to 4 members and 8 partitions), the
// large groups (TestLargeGroups, TestLargeJoin: within 1% of lower bounds
// that account for counts and subscriptions), the stability rates
// (TestStabilityRates) and the hysteresis of large groups.
//
// # Cost
//
// For P partitions, M members, S subscription entries, C member classes and
// T distinct subscriber sets: O(P + S) to read the input, O(P) to sort the
// weights (O(P log P) when a weight reaches 2^32), O(C·E) for the count
// bands (E class-set pairs), O(P log M) to place, and a search budget of
// 4P + 256M + 2^16 partition visits. From owners, the plan from scratch is
// computed only when the lower bounds do not settle the question. Memory is
// O(P + M + S), two plans when owners need the plan from scratch. The
// benchmarks (BenchmarkSolve, and BenchmarkVersusSticky beside sticky in the
// same binary) give the times.
//
// # KIPs
//
// KIP-54 (sticky assignment), KIP-429 (cooperative rebalancing: the
// follow-up round), KIP-881 (rack-aware assignment).
package weighted
