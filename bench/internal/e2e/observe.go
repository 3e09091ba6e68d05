package e2e

import (
	ibm "github.com/IBM/sarama"

	"github.com/kgroup/assignor"
)

// observed wraps a sarama strategy to report what the member received in
// each generation (OnAssignment), forwarding every call. It implements
// SubscriptionUserDataBalanceStrategy only when the wrapped strategy does
// (observedUD), so sarama's choice of user data is unchanged.
type observed struct {
	ibm.BalanceStrategy
	report func(gen int32, tps []assignor.TopicPartitions)
}

type observedUD struct {
	*observed
	ud ibm.SubscriptionUserDataBalanceStrategy
}

var (
	_ ibm.RebalanceProtocolBalanceStrategy    = (*observed)(nil)
	_ ibm.OnAssignmentBalanceStrategy         = (*observed)(nil)
	_ ibm.SubscriptionUserDataBalanceStrategy = observedUD{}
)

func observe(s ibm.BalanceStrategy, report func(gen int32, tps []assignor.TopicPartitions)) ibm.BalanceStrategy {
	o := &observed{BalanceStrategy: s, report: report}
	if ud, ok := s.(ibm.SubscriptionUserDataBalanceStrategy); ok {
		return observedUD{observed: o, ud: ud}
	}
	return o
}

// SupportedProtocols forwards, or is eager for a strategy that declares none
// (as sarama assumes).
func (o *observed) SupportedProtocols() []ibm.RebalanceProtocol {
	if rp, ok := o.BalanceStrategy.(ibm.RebalanceProtocolBalanceStrategy); ok {
		return rp.SupportedProtocols()
	}
	return []ibm.RebalanceProtocol{ibm.RebalanceProtocolEager}
}

func (o *observed) OnAssignment(a *ibm.ConsumerGroupMemberAssignment, gen int32) {
	if a != nil {
		o.report(gen, assignor.TopicPartitionsFromMap(a.Topics))
	}
	if oa, ok := o.BalanceStrategy.(ibm.OnAssignmentBalanceStrategy); ok {
		oa.OnAssignment(a, gen)
	}
}

func (o observedUD) SubscriptionUserData(topics []string) ([]byte, error) {
	return o.ud.SubscriptionUserData(topics)
}
