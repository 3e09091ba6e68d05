package cooperative

import (
	"errors"

	"github.com/kgroup/assignor"
)

// verify checks the decided round (r.final and r.back, from which the plan
// is built) against the rules of [assignor.CheckPlan] for the cooperative
// protocol, over ix.Owner, the classification of every member's claims:
//   - a claimed partition is held only by its valid owner
//     ([assignor.ErrNotOwner]): the safety rule;
//   - a partition is held only by a subscriber of its topic
//     ([assignor.ErrNotSubscribed]);
//   - a partition outside the metadata is held only by the valid owner of
//     its claim, which still subscribes ([assignor.ErrOutsideMetadata]);
//   - every unclaimed partition of a subscribed topic is held
//     ([assignor.ErrUnassigned]).
//
// The other rules of CheckPlan (one entry per member, sorted lists, no
// partition held twice) hold by construction of r.final, an array with one
// holder per partition. A test holds verify to CheckPlan on the plans built
// from arbitrary r.final and r.back, violation for violation. It returns
// every violation, joined, or nil. O(P + S + C) for P partitions, S
// subscriptions and C claims outside the metadata; no maps.
func (r *rebalance) verify() error {
	ix := r.ix
	var errs []error
	fail := func(m int32, topic string, id int32, err error) {
		e := &assignor.PartitionError{Topic: topic, Partition: id, Generation: assignor.NoGeneration, Err: err}
		if m >= 0 {
			e.Member, e.Generation = ix.Members[m].ID, ix.Generation[m]
		}
		errs = append(errs, e)
	}
	// subscribedTo[m] == t+1 while topic t is checked and m subscribes to it.
	subscribedTo := make([]int32, len(ix.Members))
	for t := range ix.Topics {
		for _, m := range ix.Subscribers[t] {
			subscribedTo[m] = int32(t) + 1
		}
		hasSubscribers := len(ix.Subscribers[t]) > 0
		name, parts, base := ix.Topics[t].Name, ix.Topics[t].Partitions, ix.TopicStart[t]
		for p := base; p < ix.TopicStart[t+1]; p++ {
			m, owner := r.final[p], ix.Owner[p]
			switch {
			case m < 0:
				if hasSubscribers && owner == assignor.Unclaimed {
					fail(-1, name, parts[p-base], assignor.ErrUnassigned)
				}
				continue
			case subscribedTo[m] != int32(t)+1:
				fail(m, name, parts[p-base], assignor.ErrNotSubscribed)
			}
			if owner != assignor.Unclaimed && owner != m {
				fail(m, name, parts[p-base], assignor.ErrNotOwner)
			}
		}
	}
	for i, oc := range ix.Outside {
		if r.back[i] && !(oc.Valid && r.subscribes(oc.Member, oc.Topic)) {
			fail(oc.Member, oc.Topic, oc.Partition, assignor.ErrOutsideMetadata)
		}
	}
	return errors.Join(errs...)
}
