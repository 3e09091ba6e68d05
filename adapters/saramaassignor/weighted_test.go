package saramaassignor

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/weighted"
)

// ordersLoad is the leader-side weight source of the weighted tests:
// orders/0 carries as much as the five others together.
func ordersLoad(topics []assignor.TopicPartitions) [][]int64 {
	out := make([][]int64, len(topics))
	for i, tp := range topics {
		if tp.Topic == "orders" {
			out[i] = ordersWeights(tp.Partitions)
		}
	}
	return out
}

// ordersWeights are the weights of orders' partitions ps.
func ordersWeights(ps []int32) []int64 {
	w := make([]int64, len(ps))
	for i, p := range ps {
		w[i] = 10
		if p == 0 {
			w[i] = 50
		}
	}
	return w
}

// loadOf is a member's load in a sarama plan under ordersLoad.
func loadOf(assigned map[string][]int32) int64 {
	var l int64
	for _, p := range assigned["orders"] {
		l += ordersWeights([]int32{p})[0]
	}
	return l
}

// TestWeighted runs cooperative-weighted through the sarama strategy: its
// name and protocols, the member side (the weighted user data, which
// carries the generation, after OnAssignment), and the leader side over
// two cooperative rounds of a join. Members send subscription v1 (sarama
// below Kafka 3.2), so the leader reads each generation from the weighted
// user data. The leader balances the load from the Weights function:
// orders/0 (50) ends alone on one member, the five others (10 each) on the
// other, where a count-balanced plan gives one member 70 and the other 30.
func TestWeighted(t *testing.T) {
	if _, err := Weighted(weighted.Config{CountTolerance: -1}, Config{}); err == nil || !strings.Contains(err.Error(), "CountTolerance") {
		t.Fatalf("invalid config: err = %v", err)
	}
	skew := weighted.Config{Weights: ordersLoad, CountTolerance: 4}
	member := func() Strategy {
		s, err := Weighted(skew, Config{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := member(), member()
	if a.Name() != "cooperative-weighted" || !slices.Equal(a.SupportedProtocols(), []sarama.RebalanceProtocol{sarama.RebalanceProtocolCooperative, sarama.RebalanceProtocolEager}) {
		t.Fatalf("name %q, protocols %v", a.Name(), a.SupportedProtocols())
	}
	topics := map[string][]int32{"orders": {0, 1, 2, 3, 4, 5}}
	userData := func(s Strategy) []byte {
		data, err := s.(sarama.SubscriptionUserDataBalanceStrategy).SubscriptionUserData([]string{"orders"})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	// a owns everything at generation 4; b joins.
	a.(sarama.OnAssignmentBalanceStrategy).OnAssignment(&sarama.ConsumerGroupMemberAssignment{Topics: maps.Clone(topics)}, 4)
	if gen, _, err := weighted.DecodeUserData(userData(a)); gen != 4 || err != nil {
		t.Fatalf("a's user data carries generation %d (%v), want 4", gen, err)
	}
	members := map[string]sarama.ConsumerGroupMemberMetadata{
		"a": {Version: 1, Topics: []string{"orders"}, OwnedPartitions: owned("orders", topics["orders"]), UserData: userData(a)},
		"b": {Version: 1, Topics: []string{"orders"}, UserData: userData(b)},
	}
	if g := seenGroup(t, assignor.Protocols(base(a).a), base(a).cfg, members, topics); g.Members[0].Generation != 4 || g.Members[1].Generation != assignor.NoGeneration {
		t.Fatalf("generations read: a %d, b %d", g.Members[0].Generation, g.Members[1].Generation)
	}
	round1, err := a.Plan(members, topics)
	if err != nil {
		t.Fatal(err)
	}
	if len(round1["b"]["orders"]) != 0 {
		t.Fatalf("round 1 gives b %v while a still owns it", round1["b"])
	}
	a.(sarama.OnAssignmentBalanceStrategy).OnAssignment(&sarama.ConsumerGroupMemberAssignment{Topics: round1["a"]}, 5)
	members["a"] = sarama.ConsumerGroupMemberMetadata{Version: 1, Topics: []string{"orders"}, OwnedPartitions: owned("orders", round1["a"]["orders"]), UserData: userData(a)}
	round2, err := a.Plan(members, topics)
	if err != nil {
		t.Fatal(err)
	}
	la, lb := loadOf(round2["a"]), loadOf(round2["b"])
	if max(la, lb) != 50 || la+lb != 100 {
		t.Fatalf("round 2 loads a %d (%v), b %d (%v): want the 50 alone", la, round2["a"], lb, round2["b"])
	}
}

// TestWeightedMeterThroughSarama: measured weights travel through the
// sarama strategy. a's Meter measures orders/0 hot and a's
// SubscriptionUserData reports it; the leader moves orders/0 to the
// joining b and carries its weight in b's AssignmentData; b's OnAssignment
// hands it to b's Meter, so that b's next SubscriptionUserData reports
// orders/0 before b has measured it.
func TestWeightedMeterThroughSarama(t *testing.T) {
	meterA, meterB := weighted.NewMeter(weighted.MeterConfig{}), weighted.NewMeter(weighted.MeterConfig{})
	a, err := Weighted(weighted.Config{Meter: meterA}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Weighted(weighted.Config{Meter: meterB}, Config{})
	start := time.Unix(0, 0)
	for p, perSecond := range []int64{900, 100, 100, 100} {
		meterA.Observe("orders", int32(p), 0, start)
		meterA.Observe("orders", int32(p), 10*perSecond, start.Add(10*time.Second))
	}
	topics := map[string][]int32{"orders": {0, 1, 2, 3}}
	userData := func(s Strategy) []byte {
		data, err := s.(sarama.SubscriptionUserDataBalanceStrategy).SubscriptionUserData([]string{"orders"})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	a.(sarama.OnAssignmentBalanceStrategy).OnAssignment(&sarama.ConsumerGroupMemberAssignment{Topics: maps.Clone(topics)}, 1)
	held := map[string][]int32{"a": topics["orders"]}
	for gen := int32(2); gen <= 3; gen++ {
		members := map[string]sarama.ConsumerGroupMemberMetadata{
			"a": {Version: 2, Topics: []string{"orders"}, OwnedPartitions: owned("orders", held["a"]), GenerationID: gen - 1, UserData: userData(a)},
			"b": {Version: 2, Topics: []string{"orders"}, OwnedPartitions: owned("orders", held["b"]), GenerationID: gen - 1, UserData: userData(b)},
		}
		plan, err := a.Plan(members, topics)
		if err != nil {
			t.Fatal(err)
		}
		for id, s := range map[string]Strategy{"a": a, "b": b} {
			data, err := a.AssignmentData(id, plan[id], gen)
			if err != nil {
				t.Fatal(err)
			}
			s.(sarama.OnAssignmentBalanceStrategy).OnAssignment(&sarama.ConsumerGroupMemberAssignment{Topics: plan[id], UserData: data}, gen)
			held[id] = plan[id]["orders"]
		}
	}
	if !slices.Equal(held["b"], []int32{0}) {
		t.Fatalf("b holds %v after two rounds, want the hot orders/0", held["b"])
	}
	r, err := weighted.DecodeReport(userData(b))
	if err != nil || len(r.Topics) != 1 || !slices.Equal(r.Topics[0].Partitions, []int32{0}) || r.Topics[0].Weights[0] != 900 {
		t.Fatalf("b reports %+v (%v), want orders/0 at the carried 900", r, err)
	}
}
