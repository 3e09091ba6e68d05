// Command e2e runs the end-to-end scripts of package bench/internal/e2e
// on franz-go's in-process broker (kfake) with real sarama or franz-go
// consumer groups, every contender several times, interleaved, and prints
// the table of medians that docs/sarama.md and docs/franzgo.md quote:
//
//	go run ./bench/e2e -client sarama -runs 3                       # docs/sarama.md (about ten minutes)
//	go run ./bench/e2e -client franzgo -runs 5                      # docs/franzgo.md, the harness's short timings
//	go run ./bench/e2e -client franzgo -timing defaults -jitter \
//	    -only rolling-restart,scale-out-in                           # each client's default timings (about an hour)
//
// # What it runs
//
// -client sarama: every single-kind script with ours (the sarama adapter's
// cooperative-sticky), sarama's cooperative-sticky and sarama's eager
// sticky; the migration from sarama's eager sticky to ours and to
// sarama's cooperative-sticky; the mixed group with ours
// (e2e.DefaultFigures). -client franzgo: every franz-go script with ours on
// franz-go with and without fast re-join, kgo's cooperative-sticky and
// kgo's eager sticky; the migration with ours; the mixed group with ours
// (e2e.FranzGoFigures; -only keeps the scripts and kinds it names).
//
// -timing short is the harness's (heartbeat 150 ms, session 1.5 s);
// defaults is each client's own (e2e.ClientDefaults); HEARTBEAT,SESSION,BACKOFF
// (for example 300ms,3s,2s) sets the classic group's timings. -jitter
// starts each event at a random point of the heartbeat cycle. -idle
// produces no records.
//
// # Output
//
// One progress line per run on stderr; on stdout the machine, the
// settings and the Markdown table of medians. The exit status is 1 when a
// run failed, when two members held a partition at once in a generation
// our assignor planned, or when a record was lost: the figures are only
// printed for runs that keep the guarantees.
package main
