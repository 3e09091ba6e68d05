// Package measure judges one plan: validity (through assignor.CheckPlan),
// balance against the group's optimum, moves against the fewest possible,
// withheld partitions and rack locality.
//
// # Definitions
//
//   - Valid: assignor.CheckPlan finds nothing, checked as the contender's
//     protocol (eager plans must assign every subscribed partition;
//     cooperative plans may withhold claimed ones but never hand a claimed
//     partition to anyone but its valid owner).
//   - Spread: the most partitions any member got minus the fewest.
//   - SumSq: the sum of squared member loads. [Optimum] computes, exactly,
//     the least SumSq and the least spread any complete plan reaches for
//     the group (not a bound, and never the best some contender happened
//     to find): a plan is optimally balanced when its SumSq is the
//     optimum's. With identical subscriptions the least spread is 0 or 1
//     (⌈P/M⌉ and ⌊P/M⌋ partitions per member); with mixed ones it is what
//     the subscriptions force.
//   - Moves: partitions a member owned before (its own previous plan) and
//     is not given now, withheld ones included; a departed member's
//     partitions do not count.
//   - MinMoves: with identical subscriptions, the fewest moves any
//     optimally balanced plan needs, given what each member owned: each
//     member keeps at most its share, the largest owners the larger shares
//     (a join of one member into a balanced group of M owning P partitions
//     needs ⌊P/(M+1)⌋ moves at least); -1 when not computed.
//   - Withheld: subscribed partitions no member is given (cooperative
//     plans: handed over in the follow-up rebalance).
package measure
