// Command kip848 measures consumer groups on the KIP-848 consumer protocol
// beside classic ones, on the same scripts, with consumers that do work,
// and writes the table docs/kip848.md quotes:
//
//	go run ./bench/kip848 -broker kfake -timings short -runs 5
//	go run ./bench/kip848 -broker kafka -timings short -scripts rolling-restart,scale-out-in
//	go run ./bench/kip848 -render docs/kip848
//
// # What it runs
//
// The contenders are package bench/internal/e2e's KIP848Kinds: ours on
// franz-go (the franz-go adapter, classic protocol, cooperative-sticky
// with fast re-join), kgo on the consumer protocol (kgo.ServerSideBalancer,
// kgo's sticky first: the broker's "uniform"), kgo's classic
// cooperative-sticky and kgo's eager sticky. The scripts are KIP848Scripts:
// a rolling restart of 4 with each replacement starting before the group
// settled without the member it replaces and one with it starting after,
// the scale 1 → 6 → 1, a crash, a static restart. Every member takes 2 ms
// per record (300 records/s over two topics of 12 partitions), 500 ms to
// take over a partition new to it, and commits on revoke (e2e.KIP848Work).
// Timings: short (every protocol heartbeats every 150 ms, 1.5 s sessions)
// and defaults (each protocol's: kgo's classic 3 s and 45 s, the consumer
// protocol's broker defaults 5 s and 45 s; each event at a random point of
// the heartbeat cycle). Runs are interleaved: run r of every script and
// contender before run r+1.
//
// -broker kfake runs each on a fresh in-process kfake (three brokers; its
// uniform assignor is kfake's own simplified implementation). -broker
// kafka starts Apache Kafka 4.4.0 once with bench/interop/kafka.sh (Java
// 17 and Maven needed; each run gets its own group and topics, the
// consumer protocol's short timings as group configs) and stops it at the
// end.
//
// # Output
//
// One progress line per run on stderr. With -out DIR (default
// docs/kip848) the runs are written to DIR/<broker>-<timing>.json
// (replacing the runs there of the scripts and contenders it ran, keeping
// the others) and DIR/results.md is rendered from every JSON file in DIR: one table per broker and timing, medians over runs with the
// range, then each of issue 25's targets (ours against kgo's eager sticky
// on settle and unowned partition-seconds, against kgo on the consumer
// protocol on unowned partition-seconds and paused records) judged by
// e2e.Compare. -render DIR renders again without running.
package main
