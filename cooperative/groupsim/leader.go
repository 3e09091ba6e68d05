package groupsim

import (
	"maps"
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
)

// lead runs on the leader process p after its JoinGroup: it builds the
// group from the members' subscriptions for the selected protocol and p's
// own (possibly stale) metadata, runs p's assignor of that name, checks the
// plan with [assignor.CheckPlan] and returns each member's assignment.
// A plan that cannot be made or breaks the rules is recorded as a failure;
// members are then sent what the plan holds (possibly nothing).
func (s *Sim) lead(p *process, j joinAnswer) map[string]assignment {
	a := p.assignor(j.protocol)
	if a == nil {
		s.fail("leader %s has no assignor %q", p.id(), j.protocol)
		return map[string]assignment{}
	}
	g := assignor.Group{}
	subscribed := map[string]bool{}
	for _, id := range slices.Sorted(maps.Keys(j.members)) {
		m := j.members[id]
		i := slices.IndexFunc(m.protocols, func(q protocolMeta) bool { return q.name == j.protocol })
		if i < 0 {
			continue
		}
		sub := m.protocols[i].sub
		g.Members = append(g.Members, assignor.Member{
			ID: id, InstanceID: m.instance, Topics: slices.Clone(sub.topics),
			Owned: assignor.CloneTopicPartitions(sub.owned), Generation: sub.gen, UserData: slices.Clone(sub.userData),
		})
		for _, t := range sub.topics {
			subscribed[t] = true
		}
	}
	p.ledTopics = slices.Sorted(maps.Keys(subscribed))
	p.ledView = maps.Clone(p.view)
	for _, t := range p.ledTopics {
		if n, ok := p.view[t]; ok {
			g.Topics = append(g.Topics, assignor.Topic{Name: t, Partitions: assignor.Partitions(n)})
		}
	}
	s.planView = maps.Clone(p.view)
	plan, err := a.Assign(g)
	if err != nil {
		s.fail("leader %s: %s: %v", p.id(), a.Name(), err)
		return map[string]assignment{}
	}
	proto := assignor.Eager
	if assignor.Supports(a, assignor.Cooperative) {
		proto = assignor.Cooperative
	}
	if err := assignor.CheckPlan(g, plan, proto); err != nil {
		s.fail("leader %s: %s plan for generation %d: %v", p.id(), a.Name(), j.gen, err)
	}
	out := make(map[string]assignment, len(plan.Members))
	given := map[partition]bool{}
	for _, mp := range plan.Members {
		userData := cooperative.AssignmentUserData(a, plan, mp, !p.cfg.DisableFastRejoin)
		out[mp.Member] = assignment{partitions: assignor.CloneTopicPartitions(mp.Assigned), userData: userData}
		for _, k := range flatten(mp.Assigned) {
			given[k] = true
		}
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
