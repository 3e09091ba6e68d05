// Command weighted measures load-aware assignment: `go run ./bench/weighted`
// from the repository root writes docs/weighted-results.md and
// docs/plots/weighted-ratio.png.
//
// # The assignment benchmark
//
// On skewed workloads (package workload: Zipf rates with s = 1.1 and 1.5,
// 5% of the partitions carrying half the load, idle topics, and Zipf 1.1 on
// mixed subscriptions) and on the shapes of [workload.SkewShapes] (1k to 1M
// partitions, 5 to 500 partitions per member), each contender plans the
// group fresh, then again after one member joins, its members owning its
// own fresh plan. For each plan: the heaviest member's load over the lower
// bound max(⌈total ÷ members⌉, heaviest partition), validity, the
// partitions and the weight the join moved, the median time of up to five
// Leads after a warm-up, and allocations per Lead.
//
// The contenders: ours weighted and ours count-sticky (Assign on a Group
// built beforehand, as the main bench's core rows), franz-go v1.22's and
// sarama v1.61's sticky (a leader's whole work, decode to encode, driven as
// the main bench drives them). The peers balance counts and ignore weights,
// and their plans depend on Go's map order: their ratios vary a little from
// run to run. sarama's sticky runs only up to 10k partitions and 200
// members (1k on mixed subscriptions): beyond, one rebalance takes tens of
// seconds.
//
// -quick runs the two 1k-partition shapes with one timed Lead each and no
// warm-up (a few seconds: the CI smoke test); -max-partitions N skips the
// larger shapes. The full run takes a few minutes on a quiet machine.
//
// # The real group
//
// -real runs two consumer groups of sarama members on an in-process kfake
// broker, one planned by count-sticky and one by weighted, side by side on
// the same traffic: a producer writing skewed per-partition rates, members
// that process one record at a time at a fixed cost (bounded capacity, the
// total load fitting the group with headroom). The weighted group's leader
// gets each partition's weight from the producer's configured rates, through
// a sarama BalanceStrategy that calls the assignor with the weights in the
// Group. It samples each member's lag and throughput every second, plots
// them (docs/plots/weighted-real.png) and counts overlapping claims, lost
// and duplicated records; its section of the results page is kept when the
// assignment benchmark rewrites the page. TestRealGroup runs it for 15 s
// when ASSIGNOR_WEIGHTED_REAL is set.
package main
