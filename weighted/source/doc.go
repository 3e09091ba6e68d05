// Package source supplies partition weights to the weighted assignor on
// the group leader: it puts a deadline and a cache in front of a fetch
// (consumer lag, or high-watermark rates, from the admin API of the
// client: sarama's ClusterAdmin, franz-go's kadm), so that
// weighted.Config.Weights answers fast between JoinGroup and SyncGroup,
// while the whole group waits.
//
// # Use
//
//	src := source.New(fetchLag, source.Config{Deadline: time.Second})
//	a, err := weighted.NewWithConfig(weighted.Config{Weights: src.Weights})
//
// # Contract
//
// [Source.Weights] answers from the cache when a topic's weights are
// younger than [Config.MaxAge]; otherwise it starts one fetch for the
// stale and missing topics (never two at once) and waits for it at most
// [Config.Deadline]. A fetch that fails, or misses the deadline, leaves the
// cache as it was: weights younger than [Config.StaleAge] still serve,
// older ones are unknown (the assignor then weighs them the mean of the
// known ones). A fetch that finishes after the deadline still fills the
// cache, for the next rebalance. Partitions a fetch leaves out, and
// negative weights, are unknown.
//
// The leader's plan depends on what the fetch returned, so two leaders
// may differ where their caches do; the assignor's hysteresis keeps small
// differences from moving anything.
package source
