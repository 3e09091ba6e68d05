// Package scenario builds the benchmark and test groups shared by the
// sticky assignor's own benchmarks and the cross-peer program in bench/:
// fixed shapes (topics × partitions per topic, members) and the scenarios of
// the benchmark issue, each a deterministic [assignor.Group].
//
// # Shapes and scenarios
//
// A [Shape] is T topics of N partitions each and M members. [Build] turns a
// shape and a [Kind] into a group:
//
//   - [Fresh]: every member subscribes to every topic; nobody owns anything.
//   - [Join]: the M members own a balanced previous plan (generation 1) and
//     one more member joins with no history (M+1 members).
//   - [Leave]: the M members own a balanced previous plan and member 0
//     leaves (M-1 members).
//   - [Mixed]: odd members subscribe to the first half of the topics, even
//     members to all of them; nobody owns anything.
//   - [MixedJoin]: the mixed subscriptions with a valid previous plan, and one
//     more (even, all-topics) member joins.
//   - [Racks]: fresh, with members spread over three racks and every
//     partition replicated on two of them (KIP-881).
//
// The previous plans are built here, round-robin per subscriber set, so a
// scenario never depends on the assignor under test. Members and topics are
// shuffled with a fixed seed, so an assignor that relies on sorted input is
// caught, and two builds of one scenario are identical.
package scenario
