// Package cli is the `assignor` command as a library: it looks at a live
// Kafka consumer group from outside and shows its assignment, lag and
// load, and what another assignor would do to it, before you deploy that
// assignor. `go run ./cmd/assignor` is this package's [Main]; a program of
// a few lines adds assignors of its own:
//
//	package main
//
//	import (
//		"log"
//
//		"github.com/kgroup/assignor/cmd/assignor/cli"
//		"example.com/mypkg"
//	)
//
//	func main() {
//		if err := cli.Register(cli.Assignor("mine", "my assignor", mypkg.New)); err != nil {
//			log.Fatal(err)
//		}
//		cli.Main()
//	}
//
// then `go run . whatif -brokers localhost:9092 -group billing -assignor
// mine`. [Assignor] takes a constructor of any concrete type that
// implements assignor.Assignor (mypkg.New may return *mypkg.Assignor).
//
// # Commands
//
// The command is read-only: it sends admin requests only (ListGroups,
// DescribeGroups, ConsumerGroupDescribe, Metadata, OffsetFetch,
// ListOffsets, through franz-go's kgo, kadm and kmsg). It never joins
// the group and never commits offsets.
//
//   - describe: the group's state, protocol type and assignor, its members
//     with client ID, host and instance ID, and, while it is Stable, each
//     member's subscription (version, topics, owned partitions, the claim
//     generation and the user-data layout, decoded with package wire), its
//     assignment, its lag (committed against end offsets), its load as
//     measured (records/s arriving at its partitions, from two end-offset
//     samples -window apart: what weighted.Meter measures) and as reported
//     (a weighted member's report, read with weighted.DecodeReport); then
//     the count and load spreads and the heaviest member against the mean.
//     A KIP-848 group is described through ConsumerGroupDescribe: epochs,
//     and each member's current and target assignment.
//   - whatif -assignor NAME: builds the assignor.Group the next rebalance
//     would see (subscriptions; each member's assignment as owned at the
//     current generation; racks where the brokers report them; the
//     measured rates as weights, in milli-records/s) and runs the assignor
//     round by round until its plan asks for no follow-up, checking each
//     plan (assignor.CheckPlan). It prints the partitions moved and
//     withheld, the rounds to settle, each member's count and load before
//     and after, and the heaviest member before and after; -plot draws the
//     loads side by side. NAME is sticky, cooperative-sticky, round-robin,
//     weighted, cooperative-weighted, or one [Register] added.
//   - watch: polls the group every -interval and prints a timeline: state
//     changes, members joining and leaving, each Stable assignment not seen
//     before and what moved since the last one, partitions in no
//     assignment, generations that came and went between two polls (a
//     jump), lag per member; then the accounting, in which every
//     generation from the first seen to the last is either observed or
//     counted in a jump. -plot draws lag per member over time.
//
// Every command takes -json (describe and whatif print one document,
// watch one event per line and a summary line) and -demo, which starts an
// embedded broker (kfake) with a skewed producer and a group of sarama
// members on count-based sticky, and looks at that (watch -demo restarts
// the members one at a time while it watches).
//
// # What it cannot see
//
// From outside a group some things are invisible, and the output says so
// where it matters:
//
//   - the leader of a classic group: DescribeGroups does not name the
//     member that computed the assignment;
//   - the generation of a classic group: DescribeGroups does not return it.
//     It is inferred from the members' claims (the highest claim generation
//     a member sent when it joined, plus one), and said to be inferred; a
//     group whose members send no generation has none;
//   - anything while the group is rebalancing: the broker returns members'
//     subscriptions and assignments only while the group is Stable;
//   - the members' own revoke and assign timing: when each one stopped and
//     started its partitions;
//   - a rebalance round that starts and ends between two polls, such as a
//     fast re-join round shorter than the poll interval: watch counts it in
//     a jump, never as observed;
//   - lag between commits: lag moves at the members' commit interval.
//
// A member whose bytes do not decode (subscription, assignment, or user
// data in the layout its protocol promises) is described anyway, with
// what could not be read, and marked.
//
// # KIPs
//
// KIP-429 and KIP-792 (owned partitions and their generation, read from
// subscriptions v1 and v2), KIP-881 (racks, subscription v3), KIP-345
// (static members, matched by instance ID across restarts), KIP-848 (the
// broker-assigned consumer groups, described through
// ConsumerGroupDescribe).
package cli
