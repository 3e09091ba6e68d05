// Package e2e runs real consumer groups (sarama v1.61.1 and franz-go
// members) against an in-process Kafka-protocol broker (franz-go's kfake,
// three brokers on 127.0.0.1) while records are produced continuously, and
// measures what each rebalance cost.
//
// # Walk-through
//
// [Start] starts the cluster, creates the topics and starts the producer.
// A script then starts and stops members ([Harness.Join], [Harness.Leave],
// [Member.Crash]), waits for the group to settle ([Harness.WaitStable]) and
// marks the measured window ([Harness.MarkStart], [Harness.MarkEnd]).
// [Harness.Finish] stops the producer, waits until every record is consumed
// and committed, stops everything and returns a [Report].
//
// What is recorded: every (member, partition) claim interval with the
// generation in which the member got it (sarama: ConsumeClaim; franz-go:
// OnPartitionsAssigned to OnPartitionsRevoked or Lost), every consumed
// offset, and every leader's SyncGroup plan (seen by a kfake control hook
// that observes without answering). From these the report counts
// rebalances, partitions moved and withheld, partition-seconds without an
// owner, each member's longest pause, duplicates, lost and uncommitted
// records, and every overlapping pair of claims, attributed to the leader of
// the generation in which the second claim began.
//
// A step of a script waits until the group is stable: every partition held
// by exactly the member the newest applied plan names, that plan naming
// every live member, unchanged for 600 ms.
//
// # Scripts and figures
//
// The scenarios of the sarama adapter's end-to-end suite are [Scripts]
// ((a)–(f) of issue 6), each run on a fresh harness by [RunScript]. [Ours]
// is sarama with this module's cooperative-sticky; [SaramaCooperativeSticky],
// [SaramaSticky] and [KgoCooperativeSticky] are the peers.
// [DefaultFigures] runs the scripts docs/sarama.md shows, scripts × kinds ×
// runs, interleaved, and returns medians ([Row]); [Markdown] renders them. The adapter's tests and `bench -group` use these.
//
// The franz-go adapter's scenarios are [FranzGoScripts]: the single-kind
// scripts, a migration from kgo's eager sticky and a mixed group of ours on
// franz-go, kgo's own cooperative-sticky, ours on sarama and sarama's own.
// [OursKgo] is franz-go with this module's cooperative-sticky through
// adapters/kgoassignor (fast re-join on; the harness passes the balancer to
// kgo.WithHooks too), [OursKgoNoFastRejoin] the same with it off, and
// [KgoSticky] kgo's eager sticky. [FranzGoFigures] runs them and
// [MarkdownSettle] renders what a rebalance cost, with each event's settle
// time ([Report.Settles]: from a join, leave or crash to the assignment the
// group then kept). [ClientDefaults] swaps the harness's short timings for
// the clients' own defaults.
//
// # The KIP-848 comparison
//
// [KIP848Kinds] are ours on franz-go (classic, fast re-join), kgo on the
// KIP-848 consumer protocol ([KgoConsumerProtocol]: kgo.ServerSideBalancer
// with kgo's sticky first, so the broker runs "uniform"), kgo's classic
// cooperative-sticky and its eager sticky; [KIP848Scripts] the scripts they
// run; [KIP848Options] the timings ([Short], [Defaults]) with consumers that
// do work ([Work]: a processing time per record, a take-over time per
// partition new to a member; every franz-go member commits on revoke).
// [RunKIP848] runs one, [RunOf] keeps its figures, [SummarizeKIP848] and
// [MarkdownKIP848] make the table (bench/kip848 is the program). A
// consumer-protocol group has no SyncGroup: a watcher polls
// ConsumerGroupDescribe and records each target assignment as the plan of
// its assignment epoch, planned by "(broker)" (the group is stable once
// that target is at the group's epoch and every partition is held where it
// says); [Report.ConsumerGroup] says the coordinator described the group so. [Report.PausedRecords] counts
// records that waited on a partition whose new holder had not yet
// processed any of its records.
//
// With [Options.Brokers] the harness runs on an external cluster (Apache
// Kafka 4.4 in bench/interop): topics get one replica, the consumer
// protocol's timings are set as group configs, and a classic group's plan
// is the one DescribeGroups shows while the group is stable (no SyncGroup
// hook there, so no leader, rebalance or move counts for classic groups).
//
// # kfake's quirks the harness handles
//
// When the leader is gone, kfake tells every member it is the leader and
// applies one plan; the applied one is told apart by what the members
// received (sarama's OnAssignment, through a wrapper that changes nothing
// else) and by the claims that began in that generation. kfake skips the
// rebalance of a restarted static member only when it is not the leader,
// its protocols are unchanged and the group is stable.
package e2e
