package groupsim

import (
	"log/slog"
	"maps"
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/rebalance"
)

// lead runs on the leader process p after its JoinGroup the leader's work
// of this module's adapters (package rebalance): it reads the members'
// subscriptions for the selected protocol and p's own (possibly stale)
// metadata into a round, runs p's assignor of that name, checks the plan
// with [assignor.CheckPlan] and returns each member's assignment, marked
// for fast re-join as the adapters mark it. A plan that cannot be made or
// breaks the rules is recorded as a failure; members are then sent nothing.
func (s *Sim) lead(p *process, j joinAnswer) map[string]assignment {
	a := p.assignor(j.protocol)
	if a == nil {
		s.fail("leader %s has no assignor %q", p.id(), j.protocol)
		return map[string]assignment{}
	}
	round := rebalance.NewLeader(a, rebalance.Config{DisableFastRejoin: p.cfg.DisableFastRejoin, Logger: discard}).NewRound()
	g := assignor.Group{}
	subscribed := map[string]bool{}
	for _, id := range slices.Sorted(maps.Keys(j.members)) {
		m := j.members[id]
		i := slices.IndexFunc(m.protocols, func(q protocolMeta) bool { return q.name == j.protocol })
		if i < 0 {
			continue
		}
		sub := m.protocols[i].sub
		member := assignor.Member{
			ID: id, InstanceID: m.instance, Topics: slices.Clone(sub.topics),
			Owned: assignor.CloneTopicPartitions(sub.owned), Generation: sub.gen, UserData: slices.Clone(sub.userData),
		}
		g.Members = append(g.Members, member)
		round.AddSubscription(rebalance.Subscription{
			MemberID: id, InstanceID: m.instance, Version: 3, Topics: member.Topics, UserData: member.UserData,
			Owned: ownedOf(member.Owned), Generation: member.Generation,
		})
		for _, t := range sub.topics {
			subscribed[t] = true
		}
	}
	p.ledTopics = slices.Sorted(maps.Keys(subscribed))
	p.ledView = maps.Clone(p.view)
	for _, t := range p.ledTopics {
		if n, ok := p.view[t]; ok {
			topic := assignor.Topic{Name: t, Partitions: assignor.Partitions(n)}
			g.Topics = append(g.Topics, topic)
			round.AddTopic(topic)
		}
	}
	s.planView = maps.Clone(p.view)
	res, err := round.Assign(j.gen)
	if err != nil {
		s.fail("leader %s: %s: %v", p.id(), a.Name(), err)
		return map[string]assignment{}
	}
	plan := assignor.Plan{FollowUp: res.Stats.FollowUp}
	out := make(map[string]assignment, len(res.Assignments))
	given := map[partition]bool{}
	for _, as := range res.Assignments {
		plan.Members = append(plan.Members, assignor.MemberPlan{Member: as.Member, Assigned: as.Partitions, UserData: as.UserData})
		out[as.Member] = assignment{partitions: assignor.CloneTopicPartitions(as.Partitions), userData: as.AppendUserData(nil)}
		for _, k := range flatten(as.Partitions) {
			given[k] = true
		}
	}
	proto := assignor.Eager
	if assignor.Supports(a, assignor.Cooperative) {
		proto = assignor.Cooperative
	}
	if err := assignor.CheckPlan(g, plan, proto); err != nil {
		s.fail("leader %s: %s plan for generation %d: %v", p.id(), a.Name(), j.gen, err)
	}
	claimants := map[partition][]string{}
	for _, m := range g.Members {
		for _, k := range flatten(m.Owned) {
			claimants[k] = append(claimants[k], m.ID)
		}
	}
	withheld := 0
	s.withheld = map[partition][]string{}
	s.withheldGen = j.gen
	for _, t := range g.Topics {
		for _, i := range t.Partitions {
			if k := (partition{t.Name, i}); !given[k] {
				withheld++
				s.withheld[k] = claimants[k]
			}
		}
	}
	s.acct.plans++
	s.acct.withheld += withheld
	if withheld > 0 || plan.FollowUp {
		s.acct.followUps++
	}
	s.tracef("%s leads generation %d with %s: %d members, %d withheld", p.id(), j.gen, a.Name(), len(g.Members), withheld)
	return out
}

// ownedOf yields owned, a topic at a time.
func ownedOf(owned []assignor.TopicPartitions) func(func(string, []int32) bool) {
	return func(yield func(string, []int32) bool) {
		for _, tp := range owned {
			if !yield(tp.Topic, tp.Partitions) {
				return
			}
		}
	}
}

// discard drops the leader's log records: the simulator fails a run on
// what matters.
var discard = slog.New(slog.DiscardHandler)

// groupTopics returns the topics the members subscribe to under protocol,
// sorted.
func groupTopics(j joinAnswer, protocol string) []string {
	set := map[string]bool{}
	for _, m := range j.members {
		for _, q := range m.protocols {
			if q.name == protocol {
				for _, t := range q.sub.topics {
					set[t] = true
				}
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}
