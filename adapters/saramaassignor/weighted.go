package saramaassignor

import (
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/weighted"
)

// Weighted returns this module's load-aware assignor,
// cooperative.Wrap(weighted.NewWithConfig(wcfg)) (protocol name
// "cooperative-weighted"), as a sarama strategy for one consumer group
// member. It fails only for an invalid wcfg.
//
// sarama gives the leader no per-partition load, so the weights come from
// wcfg.Weights, which runs on the leader once per rebalance (for
// instance consumer lag from a sarama.ClusterAdmin, cached); without it
// every partition weighs the same and the plan balances counts. To migrate
// a cooperative-sticky group, list it first and cooperative-sticky second:
//
//	w, err := saramaassignor.Weighted(weighted.Config{Weights: lag}, saramaassignor.Config{})
//	config.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{w, saramaassignor.CooperativeSticky()}
//
// The group keeps cooperative-sticky until every member lists
// cooperative-weighted (docs/weighted.md). Below sarama.V3_2_0_0 members
// send their generation only in the user data; the weighted layout carries
// it, only this module's leaders run cooperative-weighted and they read it
// there, so [CheckConfig] accepts that combination. As with [New], build one
// strategy per member.
func Weighted(wcfg weighted.Config, cfg Config) (Strategy, error) {
	a, err := weighted.NewWithConfig(wcfg)
	if err != nil {
		return nil, err
	}
	return build(cooperative.Wrap(a), cfg), nil
}
