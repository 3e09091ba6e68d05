package kgoassignor_test

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor/adapters/kgoassignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// leaderMetrics is what a service might export: counters and a histogram
// of the leader's time, fed by Config.OnRebalance (plain values here; a
// metrics library's counters and histograms fit the same way).
type leaderMetrics struct {
	rebalances, moved, withheld, followUps atomic.Int64
	durationBuckets                        [4]atomic.Int64 // ≤1ms, ≤10ms, ≤100ms, more
}

func (m *leaderMetrics) observe(s kgoassignor.Stats) {
	m.rebalances.Add(1)
	m.moved.Add(int64(s.Moved))
	m.withheld.Add(int64(s.Withheld))
	if s.FollowUp {
		m.followUps.Add(1)
	}
	switch {
	case s.Duration <= time.Millisecond:
		m.durationBuckets[0].Add(1)
	case s.Duration <= 10*time.Millisecond:
		m.durationBuckets[1].Add(1)
	case s.Duration <= 100*time.Millisecond:
		m.durationBuckets[2].Add(1)
	default:
		m.durationBuckets[3].Add(1)
	}
}

// Each plan the leader makes reports its figures to Config.OnRebalance:
// here a member joins a group of one, which takes two rounds (the first
// withholds what moves, the second hands it over).
func ExampleConfig_onRebalance() {
	var metrics leaderMetrics
	b, err := kgoassignor.New(cooperative.Wrap(sticky.New()), kgoassignor.Config{
		OnRebalance: func(s kgoassignor.Stats) {
			metrics.observe(s)
			fmt.Printf("generation %d: %d members, %d partitions, %d moved, %d withheld, follow-up %v, %d to %d per member\n",
				s.Generation, s.Members, s.Partitions, s.Moved, s.Withheld, s.FollowUp, s.MinAssigned, s.MaxAssigned)
		},
	})
	if err != nil {
		panic(err)
	}
	interests := []string{"orders"}
	round := func(gen int32, owned map[string][]int32) {
		mb, _, _ := b.MemberBalancer([]kmsg.JoinGroupResponseMember{
			join("m1", b.JoinGroupMetadata(interests, owned, gen-1)),
			join("m2", b.JoinGroupMetadata(interests, nil, -1)),
		})
		mb.(kgo.GroupMemberBalancerInfo).SetBalanceInfo(kgo.BalanceInfo{Generation: gen})
		if _, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(map[string]int32{"orders": 4}); err != nil {
			panic(err)
		}
	}
	round(2, map[string][]int32{"orders": {0, 1, 2, 3}}) // m2 joins
	round(3, map[string][]int32{"orders": {0, 1}})       // m1 revoked 2 and 3
	fmt.Printf("rebalances %d, moved %d, withheld %d, follow-ups %d\n",
		metrics.rebalances.Load(), metrics.moved.Load(), metrics.withheld.Load(), metrics.followUps.Load())
	// Output:
	// generation 2: 2 members, 4 partitions, 2 moved, 2 withheld, follow-up true, 0 to 2 per member
	// generation 3: 2 members, 4 partitions, 0 moved, 0 withheld, follow-up false, 2 to 2 per member
	// rebalances 2, moved 2, withheld 2, follow-ups 1
}
