// Package workload builds the benchmark groups of this module: fixed shapes
// of topics, partitions and members, the rebalance scenarios measured on
// them, and multi-round scripts, all deterministic from a seed. `go run
// ./bench` measures every contender on them, and an assignor's own tests and
// benchmarks use the same groups.
//
// # Shapes
//
// A [Shape] is Topics topics of Partitions partitions each and Members
// members. [Shapes] are the default benchmark shapes (1k to 100k
// partitions), [FullShape] the one-million-partition shape, and
// [GrowthShapes] the growth series, in which only the partition count
// changes.
//
// # Scenarios
//
// [Build] turns a shape, a [Scenario] and a seed into a [Case]: the topic
// metadata, and the members of the measured rebalance (After), in the
// coordinator's JoinGroup order. A scenario with history (join, leave,
// mixed-join) also has Before, the group whose plan the members of After
// own when the measured rebalance starts. Member IDs are random hex from the
// seed, as real member IDs are random, and the JoinGroup order is shuffled
// from the seed, so no assignor benefits from sorted input. The same
// arguments always build the same Case, byte for byte.
//
// # History
//
// The plan that becomes the history is the caller's choice, passed to
// [Case.Group]:
//
//   - [Case.RoundRobin] deals each topic's partitions round-robin over its
//     subscribers, independent of any assignor: the same history for every
//     assignor under test, so a test of one assignor cannot pass because of
//     its own earlier plan.
//   - The assignor's own plan for [Case.BeforeGroup]: a group in steady state
//     under that assignor, as `go run ./bench` measures every contender.
//
// # Scripts
//
// [NewScript] builds a multi-round scenario ([Roll], a rolling restart of
// every member; [Scale], a scale out and back in), which a cooperative
// assignor runs round by round until each event settles.
package workload
