// Package contender wraps every assignor the benchmark compares behind one
// interface, each doing a group leader's unit of work: the members' encoded
// JoinGroup metadata in, the encoded SyncGroup assignments out.
//
// # The unit of work
//
// [Runner.Prepare] is untimed: it plays the members, encoding what each
// member of that client would send in JoinGroup given its history (the
// partitions it was last given, the generation, the last assignment's user
// data). [Runner.Lead] is the timed part, the leader's work from the raw
// member metadata to the raw assignment bytes, through the contender's own
// codec: our codec (package wire), franz-go's kmsg, sarama's
// encoder/decoder. [Runner.Result] (untimed) decodes the assignment bytes
// with franz-go's kmsg, a codec that is not ours, so every contender's output
// is read the same way.
//
// The core contenders are the exception: their Lead is Assign alone on a
// prebuilt [assignor.Group], to show our assignment time on its own.
//
// # Members' history
//
// A member of an eager client revokes everything before it rejoins, so it
// sends no owned partitions; its history travels in user data (Java,
// sarama and franz-go's sticky layout). A cooperative member sends the
// partitions it owns and their generation. Each runner encodes this the way
// its client does; see the runner's doc.
//
// # Contenders
//
// Each contender's Timed field says exactly what its Lead contains;
// results.md prints them.
//
//   - ours-coop, ours-sticky: cooperative.Wrap(sticky.New()) and sticky.New()
//     through package wire (oursRunner).
//   - ours-sarama-coop, ours-sarama-sticky: the same through the sarama
//     adapter inside sarama's own leader path (saramaRunner); the eager row's
//     members send what sarama v1.61 eager members send (no owned
//     partitions, generation -1, history in the sticky user data). In the
//     racks scenario the leader's adapter gets the member racks (MemberRack)
//     and replica racks (ReplicaRacks) through its options, as a sarama
//     application would.
//   - ours-franz-coop, ours-franz-sticky: the same through the franz-go
//     adapter, run as kgo's leader runs any balancer (franzRunner).
//   - ours-coop-core, ours-sticky-core: Assign alone on a decoded Group.
//   - franz-coop, franz-sticky: franz-go v1.22.3's CooperativeStickyBalancer
//     and StickyBalancer as kgo's leader runs them, without the log strings
//     kgo builds; franz-coop-log, franz-sticky-log: with them.
//   - sarama-coop, sarama-sticky, sarama-roundrobin, sarama-range: sarama
//     v1.61.1's strategies as sarama's leader runs them.
//   - ours-sticky-owned-core: sticky.New()'s Assign alone on a Group whose
//     members send their owned partitions (no user data), the input closest
//     to what Kafka's coordinator hands its assignor.
//   - kafka-uniform, kafka-uniform-hashmaps, kafka-range, java-coop-sticky:
//     Kafka 4.4.0's broker assignors (uniform with the owners in the
//     coordinator's timeline maps or in HashMaps, range) and the Java
//     client's CooperativeStickyAssignor, assign() alone in a JVM of their
//     own (package bench/internal/kafka; kafkaRunner). They time themselves
//     ([SelfTimed]) and need Java 17+ and Maven: their Setup builds the
//     harness once, and the bench runs without them, saying so, when it
//     cannot.
//   - touch-floor, touch-floor-perlist: package touchfloor's Plan, the
//     least work of an Assign on the core contenders' Group (read it, write
//     sticky's plan decided beforehand), in its two layouts (touchRunner).
//   - floor: decode every subscription and encode every assignment, nothing
//     else: the assignment is decided in Prepare (one member per partition)
//     and Lead groups it into each member's topic lists and writes the bytes.
//     floor-kmsg and floor-kmsg-unsafe do the same work with kmsg's codec
//     (ReadFrom; UnsafeReadFrom, which aliases the input).
//
// # Phases
//
// The sarama and franz-go runners time the steps of each Lead (decode,
// plan, encode) and, for our adapters, time apart the core and, for
// sarama, the least cost of filling its plan maps ([Phased]), for the
// per-path breakdown of results.md.
//
// No peer takes racks through a public API (franz-go's rack-aware path is
// set only by its client; sarama's strategies never read RackID), so only
// ours and the floor run the racks scenario.
package contender
