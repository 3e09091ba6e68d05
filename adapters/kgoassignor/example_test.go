package kgoassignor_test

import (
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor/adapters/kgoassignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
)

// The common case: this module's cooperative-sticky, one balancer per
// client, passed to kgo as the balancer and as a hook.
func ExampleCooperativeSticky() {
	b := kgoassignor.CooperativeSticky()
	opts := []kgo.Opt{
		kgo.ConsumerGroup("billing"),
		kgo.ConsumeTopics("orders"),
		kgo.Balancers(b),
		kgo.WithHooks(b),
	}
	fmt.Println(b.ProtocolName(), b.IsCooperative(), len(opts))
	// Output: cooperative-sticky true 4
}

// Any assignor: here round-robin made cooperative, with racks for members
// that do not send one (sarama members never do).
func ExampleNew() {
	b, err := kgoassignor.New(cooperative.Wrap(roundrobin.New()), kgoassignor.Config{
		MemberRack: func(memberID, instanceID string) string {
			return map[string]string{"billing-a": "use1-az1", "billing-b": "use1-az2"}[instanceID]
		},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(b.ProtocolName(), b.IsCooperative())
	// Output: cooperative-roundrobin true
}

// rebalance does what kgo does on the leader, then on each member.
func rebalance(b *kgoassignor.Balancer, generation int32, topics map[string]int32, members []kmsg.JoinGroupResponseMember) {
	mb, _, err := b.MemberBalancer(members)
	if err != nil {
		panic(err)
	}
	mb.(kgo.GroupMemberBalancerInfo).SetBalanceInfo(kgo.BalanceInfo{Generation: generation})
	into, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(topics)
	if err != nil {
		panic(err)
	}
	for _, sa := range into.IntoSyncAssignment() {
		assigned, err := b.ParseSyncAssignment(sa.MemberAssignment)
		if err != nil {
			panic(err)
		}
		fmt.Printf("generation %d: %s %v\n", generation, sa.MemberID, sorted(assigned))
	}
}

func sorted(m map[string][]int32) []string {
	var out []string
	for _, topic := range slices.Sorted(maps.Keys(m)) {
		out = append(out, fmt.Sprint(topic, m[topic]))
	}
	return out
}

func join(id string, metadata []byte) kmsg.JoinGroupResponseMember {
	m := kmsg.NewJoinGroupResponseMember()
	m.MemberID, m.ProtocolMetadata = id, metadata
	return m
}

// A cooperative rebalance, as kgo drives the balancer: m1 owns all four
// partitions since generation 1; m2 joins. In generation 2, m1 keeps two
// and the two it must give up are withheld; m1 revokes them and rejoins at
// once; in generation 3 m2 gets them.
func ExampleBalancer_MemberBalancer() {
	b, err := kgoassignor.New(cooperative.Wrap(sticky.New()), kgoassignor.Config{})
	if err != nil {
		panic(err)
	}
	topics := map[string]int32{"orders": 4}
	interests := []string{"orders"}

	rebalance(b, 2, topics, []kmsg.JoinGroupResponseMember{
		join("m1", b.JoinGroupMetadata(interests, map[string][]int32{"orders": {0, 1, 2, 3}}, 1)),
		join("m2", b.JoinGroupMetadata(interests, nil, -1)),
	})
	rebalance(b, 3, topics, []kmsg.JoinGroupResponseMember{
		join("m1", b.JoinGroupMetadata(interests, map[string][]int32{"orders": {0, 2}}, 2)),
		join("m2", b.JoinGroupMetadata(interests, nil, 2)),
	})
	// Output:
	// generation 2: m1 [orders[0 2]]
	// generation 2: m2 []
	// generation 3: m1 [orders[0 2]]
	// generation 3: m2 [orders[1 3]]
}

// A member cannot take partitions by claiming a generation the group has
// not reached: the claim is dropped, logged, and the member is treated as
// new. The rebalance goes on. (honest's orders 1 and 3 are withheld for
// liar's follow-up round, so the plan marks the assignments for fast
// re-join; this balancer, bound to no client, logs that it cannot make a
// client rejoin.)
func ExampleConfig_logger() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // a stable output
			}
			return a
		},
	}))
	b, err := kgoassignor.New(cooperative.Wrap(sticky.New()), kgoassignor.Config{Logger: logger})
	if err != nil {
		panic(err)
	}
	interests := []string{"orders"}
	rebalance(b, 5, map[string]int32{"orders": 4}, []kmsg.JoinGroupResponseMember{
		join("honest", b.JoinGroupMetadata(interests, map[string][]int32{"orders": {0, 1, 2, 3}}, 4)),
		join("liar", b.JoinGroupMetadata(interests, map[string][]int32{"orders": {0, 1, 2, 3}}, 1<<20)),
	})
	// Output:
	// level=WARN msg="member claims a generation not below the one being balanced into; its claims and user data are ignored" adapter=kgoassignor assignor=cooperative-sticky member=liar partitions=4 claimed=1048576 generation=5
	// level=WARN msg="fast re-join skipped: no single client bound (build the client with the balancer's Opts, one balancer per client)" adapter=kgoassignor assignor=cooperative-sticky
	// generation 5: honest [orders[0 2]]
	// generation 5: liar []
}
