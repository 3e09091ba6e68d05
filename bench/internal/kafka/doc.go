// Package kafka runs Apache Kafka's own assignors on our groups: the broker's
// KIP-848 UniformAssignor and RangeAssignor (kafka-group-coordinator 4.4.0)
// and the Java client's CooperativeStickyAssignor (kafka-clients 4.4.0),
// through the Java harness in bench/kafka, each call in a JVM of its own.
//
// # Building the harness
//
// [Build] needs Java 17 or newer and Maven on PATH. It packages bench/kafka
// (mvn package and its runtime classpath, offline first, then online, so a
// machine downloads from Maven Central once) into bench/kafka/target and
// reuses that jar while no source is newer. Without Java or Maven it returns
// an error wrapping [ErrUnavailable] that says what is missing. A child
// process finds the harness a parent built through [ClasspathEnv]
// ([FromEnv]).
//
// # Running an assignor
//
// [Harness.Run] hands groups ([assignor.Group]: topics with partitions
// 0..n-1; members with topics, rack, owned partitions and generation) to one
// JVM in a plain text form, and returns per group every timed run of the
// assignor's public assign() and the plan of the last one, as an
// [assignor.Plan]. The JVM's heap is fixed and touched before use (-Xms equal
// to -Xmx, -XX:+AlwaysPreTouch, G1 as Kafka's brokers run it); it warms the
// assignor up on the group before timing it ([Options]), and each timed run
// follows a System.gc(), as the bench's Go contenders each follow a
// runtime.GC().
//
// # What the timed section holds
//
// assign() alone, on what Kafka hands its assignor:
//
//   - uniform, range: ConsumerGroupPartitionAssignor.assign(GroupSpec,
//     SubscribedTopicDescriber). Kept between rebalances and built once per
//     group, as the group coordinator keeps them: the KRaft metadata image,
//     each member's target assignment and the inverted target assignment
//     (topic ID → partition → member), in the coordinator's timeline maps.
//     Built before each run, untimed, as TargetAssignmentBuilder builds them
//     for every rebalance: the member specs (subscriptions as lazily resolved
//     topic IDs), the GroupSpecImpl and the SubscribedTopicDescriberImpl. The
//     owned partitions of a member are its previous target assignment; the
//     subscription type is homogeneous when every member subscribes to the
//     same topics, heterogeneous otherwise.
//   - cooperative-sticky: ConsumerPartitionAssignor.assign(Cluster,
//     GroupSubscription), the call the classic protocol's group leader makes
//     once it has decoded the members' JoinGroup metadata. Built before each
//     run, untimed: the members' Subscriptions (topics, owned partitions,
//     generation, and the user data each member's own assignor makes).
//
// Our Assign, by contrast, takes a whole [assignor.Group] (names, lists)
// afresh every time and keeps nothing between calls; see
// docs/kafka-assignors.md for the comparison.
package kafka
