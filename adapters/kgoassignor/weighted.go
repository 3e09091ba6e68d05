package kgoassignor

import (
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/weighted"
)

// Weighted returns this module's load-aware assignor,
// cooperative.Wrap(weighted.NewWithConfig(wcfg)) (protocol name
// "cooperative-weighted"), as a balancer for one client. It fails only for
// an invalid wcfg.
//
// kgo gives the leader no per-partition load, so the weights come from
// wcfg.Weights, which runs on the leader once per rebalance (for
// instance consumer lag from kadm, cached); without it every partition
// weighs the same and the plan balances counts. To migrate a
// cooperative-sticky group, list it first and cooperative-sticky second;
// the group keeps cooperative-sticky until every member lists
// cooperative-weighted (docs/weighted.md):
//
//	w, err := kgoassignor.Weighted(weighted.Config{Weights: lag}, kgoassignor.Config{})
//	s := kgoassignor.CooperativeSticky()
//	cl, err := kgo.NewClient(..., kgo.Balancers(w, s), kgo.WithHooks(w, s))
//
// kgo's work-around for a static leader that restarts (KIP-814) covers
// only its built-in names: see the package doc, # Static members and
// KIP-814.
func Weighted(wcfg weighted.Config, cfg Config) (*Balancer, error) {
	a, err := weighted.NewWithConfig(wcfg)
	if err != nil {
		return nil, err
	}
	return build(cooperative.Wrap(a), cfg), nil
}
