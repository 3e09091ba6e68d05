// Command bench is the side-by-side comparison people run to choose an
// assignor: `go run ./bench`.
//
// # What it measures
//
// Every contender does a group leader's unit of work on the same inputs,
// as that client's leader runs it: the members' encoded JoinGroup
// metadata in, the encoded SyncGroup assignments out. The contenders are
// ours (sticky and cooperative-sticky through the sarama adapter inside
// sarama's leader code, through the franz-go adapter inside kgo's, through
// our codec directly, and Assign alone on a prebuilt Group, the "core"
// rows), franz-go v1.22.3's sticky and cooperative-sticky balancers (with
// and without the log strings kgo's leader builds), sarama v1.61.1's
// sticky, cooperative-sticky, round-robin and range strategies, and the
// floors: decoding every subscription and encoding every assignment with
// no assignment logic, with our codec and with kmsg's. When Java 17+ and
// Maven are present, Apache Kafka 4.4.0's own assignors run too (the
// broker's uniform and range, KIP-848, and the Java client's
// CooperativeStickyAssignor), assign() alone in a JVM of their own (the
// harness in bench/kafka, package internal/kafka), beside the touch floor,
// the least work of reading a Group and writing its Plan
// (internal/touchfloor); without Java or Maven the bench says so in one
// line and runs the rest (docs/kafka-assignors.md). See package
// internal/contender for how each is driven; results.md says what each
// times and splits each user path into its phases.
//
// Shapes run from 10 topics × 100 partitions with 50 members (1k
// partitions) to 100 × 1000 with 1000 members (100k); -full adds 500 × 2000
// with 2000 members (1M). Scenarios (package workload of the core, fixed seed):
// fresh, one member joins, one leaves, mixed subscriptions, racks (ours
// only). In the join and leave scenarios each contender's members carry the
// contender's own fresh plan as history, encoded as that client's members
// encode it. The multi-round scripts (a rolling restart of every member; a
// scale out and in) run through each cooperative contender round by round on
// the 1k and 10k shapes.
//
// Each repetition of each contender runs in a fresh child process (this
// binary re-executed with the hidden -child flag, the job as JSON on stdin,
// the result as JSON on stdout): a contender over the cap (sarama's on the
// larger shapes) can only be stopped by ending its process, and every
// contender is timed in the same conditions (run in one process after
// other jobs, the Go contenders measured 0 to 20% faster, unevenly, which
// would skew the ratios between contenders run one way and the other). A
// leader is a long-running process, so the child first runs
// one warm-up Lead (or the history round), then times Leads with
// testing.Benchmark (a b.Loop of -test.benchtime Nx), each on a fresh
// runner prepared and after a GC with the timer stopped: as many as fit in
// 300 ms, one to five (up to 15 while they fit in 30 ms). It reports the
// median Lead (b.ReportMetric), the bytes allocated per Lead
// (b.ReportAllocs) and the GC cycles that ended during timed Leads. It
// judges the plan (package internal/measure): validity
// by assignor.CheckPlan, balance, moves, withheld partitions and, for a
// cooperative plan that withholds, the follow-up round. A run over the cap
// (5s, 20s with -full, twice that for a script) ends its child; the row
// shows "> cap" and the contender is not run on bigger shapes of that
// scenario. Repetitions are interleaved: repetition r of every contender
// before repetition r+1.
//
// # Output
//
// Progress on stderr (a line every 10 s), then the
// tables on stdout: by default about 120 columns wide with a short legend,
// every column with -wide. -out DIR also writes
// DIR/results.md, DIR/plots/*.png and DIR/results.json: per scenario,
// time-SCENARIO.png (time against partitions on log-log axes: ours through
// each adapter, each client's own cooperative-sticky, the floor and any
// contender you registered; a shape not run leaves a gap, a run stopped at
// the cap is marked at the cap) and time-SCENARIO-variants.png (every
// other contender of the run), and moves.png (partitions moved after a
// join and a leave against the fewest possible, on a linear axis), from
// which -render DIR redraws all of it without running again; with -out or
// -render, -readme README.md rewrites the README's headline block from the
// results. -quick is the CI
// smoke test (the 1k shape, one repetition, a 2s cap, no JVM contender
// unless -contenders names it).
//
// # Other modes
//
//   - -group also runs the real-group scripts of package bench/internal/e2e
//     (rolling restart; scale out and in) with sarama members running ours,
//     sarama's cooperative-sticky and eager sticky, and franz-go members
//     running its cooperative-sticky, on an in-process kfake broker.
//   - -growth runs the controlled growth series instead (1,000 members, 100
//     topics of 100 to 10,000 partitions) for the log-log slope.
//   - -scenarios mixed-join adds one member joining a group with mixed
//     subscriptions.
//   - -list names the contenders; -contenders, -shapes, -scenarios, -reps,
//     -cap and -seed narrow a run.
//
// # The other programs of this module
//
//   - go run ./bench/e2e: the end-to-end figures of docs/sarama.md and
//     docs/franzgo.md (real groups on kfake, every script with ours and
//     the client's own assignors, medians over interleaved runs).
//   - go run ./bench/kip848: KIP-848 groups beside classic ones, on kfake
//     or Apache Kafka 4.4 (docs/kip848.md).
//   - go run ./bench/weighted: the weighted assignor on skewed loads
//     (docs/weighted-results.md).
//
// bench/kafka is not a Go program: it is the Maven project of the JVM
// harness that times Kafka's own assignors, built and run by this command
// when Java and Maven are present.
//
// # Your own assignor
//
// This command is a thin main over package bench/runner: a program that
// registers its own assignor with runner.Register and calls runner.Main
// gets the same table, plots and peers (see docs/benchmarking.md).
package main
