package saramaassignor

import (
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// CooperativeSticky returns this module's cooperative-sticky assignor
// (cooperative.Wrap(sticky.New()), protocol name "cooperative-sticky") as a
// sarama strategy for one consumer group member, with the default [Config]:
//
//	config.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{saramaassignor.CooperativeSticky()}
//
// It speaks the same protocol as Java's, franz-go's and sarama's own
// cooperative-sticky, so members of all four can share a group; whose
// guarantees then hold depends on which member leads (see the package doc,
// # Mixed groups). Build one per member (see [Strategy]); use [New] for
// options such as racks.
func CooperativeSticky() Strategy {
	return build(cooperative.Wrap(sticky.New()), Config{})
}
