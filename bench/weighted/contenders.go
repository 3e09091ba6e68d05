package main

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/bench/internal/measure"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/weighted"
	"github.com/kgroup/assignor/workload"
)

// entrant is one contender of the weighted benchmark.
type entrant struct {
	Key  string
	Name string
	New  func() contender.Runner
	// MaxPartitions and MaxMixed bound the shapes it runs on (0: no bound),
	// with identical and with mixed subscriptions: sarama's sticky takes
	// about a second at 10k partitions and more than 20 s on mixed
	// subscriptions at 10k (docs/results.md). NoQuickMixed skips mixed
	// subscriptions in -quick mode (seconds per Lead at 1k).
	MaxPartitions, MaxMixed int
	NoQuickMixed            bool
	// MaxMembers bounds the members (0: no bound): sarama's sticky takes
	// 40 s per rebalance at 10k partitions over 1,000 members.
	MaxMembers int
	// MaxMixedMembers bounds the members on mixed subscriptions (0: no
	// bound): franz-go's sticky takes minutes at 100k partitions over
	// 10,000 members there, and over 20 s at 1M over 2,000.
	MaxMixedMembers int
}

// entrants returns the contenders in table order: ours weighted and ours
// count-sticky (Assign on a prebuilt Group, the main bench's "core" rows),
// then franz-go's and sarama's sticky doing a leader's whole work (decode
// every subscription, balance, encode every assignment), as the main bench
// drives them (package internal/contender).
func entrants() []entrant {
	peer := func(key string) func() contender.Runner {
		c, ok := contender.Lookup(key)
		if !ok {
			panic("weighted bench: no contender " + key)
		}
		return c.New
	}
	return []entrant{
		{Key: "weighted", Name: "ours weighted", New: func() contender.Runner { return &coreRunner{a: weighted.New()} }},
		{Key: "sticky", Name: "ours count-sticky", New: func() contender.Runner { return &coreRunner{a: sticky.New()} }},
		{Key: "franz-sticky", Name: "franz-go sticky", New: peer("franz-sticky"), MaxMixedMembers: 1000},
		{Key: "sarama-sticky", Name: "sarama sticky", New: peer("sarama-sticky"), MaxPartitions: 10_000, MaxMixed: 1_000, NoQuickMixed: true, MaxMembers: 200},
	}
}

// coreRunner runs one of our assignors as the main bench's core rows do:
// Assign alone on a Group built untimed. The weights reach the assignor in
// the Group's topics, as an adapter's leader supplies them.
type coreRunner struct {
	a       assignor.Assignor
	members []contender.MemberJoin
	group   assignor.Group
	plan    assignor.Plan
}

func (r *coreRunner) Prepare(topics []assignor.Topic, members []contender.MemberJoin, _ int32) error {
	r.members = members
	r.group = measure.Group(topics, members)
	return nil
}

func (r *coreRunner) Lead() error {
	plan, err := r.a.Assign(r.group)
	if err != nil {
		return fmt.Errorf("%s: Assign: %w", r.a.Name(), err)
	}
	r.plan = plan
	return nil
}

func (r *coreRunner) Result() ([]contender.Assignment, error) {
	out := make([]contender.Assignment, len(r.plan.Members))
	for i, mp := range r.plan.Members {
		out[i] = contender.Assignment{Member: mp.Member, Partitions: mp.Assigned, UserData: mp.UserData}
	}
	return out, nil
}

// skip says why e does not run on shape sh (mixed subscriptions or not, in
// -quick mode or not), or "" when it runs.
func (e entrant) skip(sh workload.Shape, mixed, quick bool) string {
	limit := e.MaxPartitions
	if mixed {
		limit = e.MaxMixed
	}
	switch {
	case mixed && quick && e.NoQuickMixed:
		return "not run in -quick mode (seconds per rebalance)"
	case limit > 0 && sh.Total() > limit:
		return fmt.Sprintf("not run above %d partitions (too slow)", limit)
	case mixed && e.MaxMixedMembers > 0 && sh.Members > e.MaxMixedMembers:
		return fmt.Sprintf("not run on mixed subscriptions above %d members (too slow)", e.MaxMixedMembers)
	case e.MaxMembers > 0 && sh.Members > e.MaxMembers:
		return fmt.Sprintf("not run above %d members (too slow)", e.MaxMembers)
	}
	return ""
}
