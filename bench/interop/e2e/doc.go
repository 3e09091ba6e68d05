// Package e2e is the real-broker interop suite: Apache Kafka's own broker (4.4.0, KRaft, one
// node on 127.0.0.1) and Java consumer (classic group protocol, CooperativeStickyAssignor) in
// consumer groups with sarama v1.61.1 members running our cooperative-sticky
// (adapters/saramaassignor over cooperative.Wrap(sticky.New())), franz-go v1.22.3 members and sarama's
// own strategies, while records are produced throughout.
//
// The package has no API: it is its tests. They run only with ASSIGNOR_INTEROP=1 and Java and
// Maven installed; otherwise every test skips at once, so `go test ./...` passes anywhere.
// .ci/interop.sh is how CI runs it.
//
// # Walk-through
//
// TestMain runs bench/interop/kafka.sh fetch and build (Maven resolves the broker's classpath into
// ~/.m2 once; the Java program in bench/interop/javaconsumer is built once), then kafka.sh run, which
// formats a temporary directory and execs the broker, and waits until the broker logs "Kafka
// Server started" and answers a DescribeCluster. The start time it prints covers the storage
// format too. The broker is stopped (SIGTERM, then SIGKILL) and its directory removed after the
// last test; it also dies with the test binary.
//
// Each test is one scenario on its own group and two fresh topics of 6 partitions, with a
// sarama producer writing one record to every partition every 40 ms (300 records/s). Members
// are named by kind: g (sarama, our strategy), s (sarama, its cooperative-sticky), e (sarama,
// its eager sticky), m (sarama, ours then eager sticky: the first deploy of a migration), f
// (franz-go, kgo.CooperativeStickyBalancer), k (franz-go with ours through adapters/kgoassignor, fast
// re-join on) and j (Java, one JVM hosting every Java member of the
// scenario, driven over stdin/stdout in JSON lines). After every step the scenario waits until
// the group is settled: every partition held by exactly one running member, the counts within
// one of each other, and no claim change for 700 ms.
//
// # What is recorded and checked
//
// A claim is one member's hold on one partition: sarama from ConsumeClaim's start to its
// return; Java from onPartitionsAssigned to the end of onPartitionsRevoked or onPartitionsLost
// (after the member's final commit); franz-go from OnPartitionsAssigned to the end of
// OnPartitionsRevoked or OnPartitionsLost. Every claim carries the generation in which it began,
// and every consumed offset is recorded. The leader of each generation is seen where it can be:
// a sarama member's Plan followed by its OnAssignment names the generation it led; a franz-go
// member's MemberBalancer followed by its next JoinGroupMetadata does; for ours on franz-go, the
// assignor the balancer runs, asked to plan (on the leader only) and then told its assignment
// with the generation, does; a Java member's
// coordinator logs "Finished assignment for group at generation N" on the leader only, and the
// suite reads that log. A generation whose leader was not seen (a franz-go leader that left
// before its next join, a sarama leader whose SyncGroup failed) is counted as "unseen", never as
// ours.
//
// When a scenario ends the producer stops, the suite waits until every record was consumed and
// the group's committed offsets reach the end of every partition, stops every member and reads
// the committed offsets from the broker. It fails on a record never consumed, a partition not
// committed to its end, two members holding a partition at once in a generation our assignor
// led (under another leader the overlap is logged with its evidence), and any error a member
// reported. It reports duration, records, duplicates (deliveries beyond the first), rebalances
// (generations after the first) and who led them, moves (claims that began after another
// member's claim on the partition; a restarted member is another member), partition-seconds
// without an owner, and the median and maximum over members of each member's longest pause
// between two records it processed.
//
// # Scenarios
//
// Mixed groups (Java and ours): rolling restarts with ours leading first and with Java leading
// first, so each kind leads while the other kind is restarted and leadership then moves; scale
// out 1 → 6 and back; static members restarted within the session timeout, where the test
// asserts that real Kafka does not rebalance (same generation, no other member's claims change).
// All four cooperative-sticky implementations in one group, each leading it in turn while the
// other three join; the same with ours on franz-go as a fifth; a rolling restart and a scale
// out and in led by ours on franz-go, with Java, ours on sarama and kgo's own members. The kfake suite's sarama-only scenarios on the real broker: rolling restart,
// scale out and in, static restart, a crash (connections reset, no LeaveGroup), and the
// two-deploy migration from eager sticky. A deliberately broken strategy (every partition to
// every member) shows that the checks see overlaps and duplicates on the real broker.
// TestMixedInspect runs the assignor command (cmd/assignor) from outside the mixed group of Java
// and our sarama members: describe, checked against the ledger (every member decoded, the
// generation, each member's partitions, the producer's load), and whatif with every built-in
// assignor.
//
// The KIP-848 tests (kip848_test.go) run groups with the kfake harness of bench/internal/e2e
// pointed at this broker (e2e.Options.Brokers): the KIP-848 comparison's rolling restart with kgo
// on the consumer protocol and with ours on franz-go; the online upgrade of a classic group led
// by ours to the consumer protocol (fast re-join on and off), and its refusal while the weighted
// assignor's carried weights sit in the assignment user data, with the deploy that lets it
// through; and Kafka's refusal of a static leave without an instance ID, as franz-go v1.22.3
// sends it.
// INTEROP_STRATEGY=sarama runs the g members with sarama's own cooperative-sticky instead, for
// comparison. The ledger's analysis is itself tested on synthetic histories, without a broker.
package e2e
