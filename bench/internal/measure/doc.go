// Package measure judges one plan: validity (through assignor.CheckPlan),
// balance, moves against the member's history, withheld partitions and rack
// locality.
//
// # Definitions
//
//   - Valid: assignor.CheckPlan finds nothing, checked as the contender's
//     protocol (eager plans must assign every subscribed partition;
//     cooperative plans may withhold claimed ones but never hand a claimed
//     partition to anyone but its valid owner).
//   - Spread: the most partitions any member got minus the fewest.
//   - SumSq: the sum of squared member loads. LowerSumSq is its least
//     possible value, every subscribed partition spread as evenly as
//     possible over all members; a plan reaching it is optimal. (It is a
//     bound: with subscriptions that forbid an even spread, the harness
//     compares with the best plan any contender found.)
//   - Moves: partitions a member owned before (its own previous plan) and
//     is not given now, withheld ones included; a departed member's
//     partitions do not count.
//   - MinMoves: with identical subscriptions, the fewest moves any
//     optimally balanced plan needs; -1 when not computed.
//   - Withheld: subscribed partitions no member is given (cooperative
//     plans: handed over in the follow-up rebalance).
package measure
