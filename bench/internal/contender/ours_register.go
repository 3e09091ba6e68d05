package contender

import (
	ibm "github.com/IBM/sarama"
	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/adapters/kgoassignor"
	"github.com/kgroup/assignor/adapters/saramaassignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
	"github.com/twmb/franz-go/pkg/kgo"
)

func init() {
	coop := func() assignor.Assignor { return cooperative.Wrap(sticky.New()) }
	Register(Contender{Key: "ours-coop", Name: "ours cooperative-sticky", Family: "ours", Cooperative: true, Racks: true, Timed: "our codec (package wire) decodes every member's subscription into a Group; cooperative.Wrap(sticky.New()).Assign; wire encodes every assignment",
		Order: 10,
		New:   func() Runner { return &oursRunner{Assignor: coop()} }})
	Register(Contender{Key: "ours-sticky", Name: "ours sticky", Family: "ours", Racks: true, Timed: "as ours-coop, with sticky.New() (members send no owned partitions; their history is in the sticky user data)",
		Order: 11,
		New:   func() Runner { return &oursRunner{Assignor: sticky.New()} }})
	Register(Contender{Key: "ours-sarama-coop", Name: "ours cooperative-sticky via sarama adapter", Family: "ours", Cooperative: true, Racks: true, Timed: "sarama's leader path with our adapter as its strategy: JoinGroupResponse.GetMembers (sarama decodes every member), the adapter's Plan (reads sarama's decoded metadata, Assign, fills sarama's plan maps), then per member AssignmentData and SyncGroupRequest.AddGroupAssignmentMember (sarama encodes)",
		Order: 12,
		New: func() Runner {
			return &saramaRunner{
				NewStrategy: func() ibm.BalanceStrategy { return mustAdapter(coop(), saramaassignor.Config{}) },
				Core:        coop,
				NewLeader: func(topics []assignor.Topic, members []MemberJoin) ibm.BalanceStrategy {
					return mustAdapter(coop(), adapterRacks(topics, members))
				},
			}
		}})
	Register(Contender{Key: "ours-sarama-sticky", Name: "ours sticky via sarama adapter", Family: "ours", Racks: true, Timed: "as ours-sarama-coop with sticky.New() (eager), on what sarama v1.61 eager members send: no owned partitions, generation -1, history in the sticky user data",
		Order: 13,
		New: func() Runner {
			return &saramaRunner{
				NewStrategy: func() ibm.BalanceStrategy { return mustAdapter(sticky.New(), saramaassignor.Config{}) },
				Core:        func() assignor.Assignor { return sticky.New() },
				NewLeader: func(topics []assignor.Topic, members []MemberJoin) ibm.BalanceStrategy {
					return mustAdapter(sticky.New(), adapterRacks(topics, members))
				},
			}
		}})
	Register(Contender{Key: "ours-franz-coop", Name: "ours cooperative-sticky via franz-go adapter", Family: "ours", Cooperative: true, Racks: true, Timed: "kgo's balanceGroup with our franz-go adapter as the balancer: members sorted, MemberBalancer (the adapter decodes every member), BalanceOrError (Assign), IntoSyncAssignment (encodes); kgo logs only constant lines for a balancer that is not its own",
		Order: 14,
		New:   func() Runner { return newFranzAdapterRunner(coop) }})
	Register(Contender{Key: "ours-franz-sticky", Name: "ours sticky via franz-go adapter", Family: "ours", Racks: true, Timed: "as ours-franz-coop with sticky.New() (eager)",
		Order: 15,
		New:   func() Runner { return newFranzAdapterRunner(func() assignor.Assignor { return sticky.New() }) }})
	Register(Contender{Key: "ours-coop-core", Name: "ours cooperative-sticky (core Assign only)", Family: "ours", Cooperative: true, Racks: true, Core: true, Timed: "Assign alone (cooperative.Wrap(sticky.New())) on a Group decoded beforehand; no codec",
		Order: 20,
		New:   func() Runner { return &oursRunner{Assignor: coop(), Core: true} }})
	Register(Contender{Key: "ours-sticky-core", Name: "ours sticky (core Assign only)", Family: "ours", Racks: true, Core: true, Timed: "Assign alone (sticky.New()) on a Group decoded beforehand; no codec",
		Order: 21,
		New:   func() Runner { return &oursRunner{Assignor: sticky.New(), Core: true} }})
}

// mustAdapter builds the sarama adapter; New fails only for a nil assignor or
// an empty name, neither of which can happen here.
func mustAdapter(a assignor.Assignor, cfg saramaassignor.Config) ibm.BalanceStrategy {
	s, err := saramaassignor.New(a, cfg)
	if err != nil {
		panic(err)
	}
	return s
}

// newFranzAdapterRunner runs the assignor through our franz-go adapter as
// kgo's leader runs any balancer; the leader's adapter gets the racks as
// the sarama adapter's does.
func newFranzAdapterRunner(newAssignor func() assignor.Assignor) Runner {
	return &franzRunner{
		balancer: mustFranzAdapter(newAssignor(), kgoassignor.Config{}),
		core:     newAssignor,
		newLeader: func(topics []assignor.Topic, members []MemberJoin) kgo.GroupBalancer {
			rc := adapterRacks(topics, members)
			cfg := kgoassignor.Config{ReplicaRacks: rc.ReplicaRacks}
			if rc.MemberRack != nil {
				cfg.MemberRack = func(id, _ string) string { return rc.MemberRack(id) }
			}
			return mustFranzAdapter(newAssignor(), cfg)
		},
	}
}

// mustFranzAdapter builds the franz-go adapter; New fails only for a nil
// assignor or an empty name.
func mustFranzAdapter(a assignor.Assignor, cfg kgoassignor.Config) kgo.GroupBalancer {
	b, err := kgoassignor.New(a, cfg)
	if err != nil {
		panic(err)
	}
	return b
}

// adapterRacks gives the adapter's leader the members' racks (sarama members
// never send one, so the adapter's MemberRack option supplies them) and the
// partitions' replica racks (in a real group, from ClientReplicaRacks).
func adapterRacks(topics []assignor.Topic, members []MemberJoin) saramaassignor.Config {
	var cfg saramaassignor.Config
	racks := make(map[string]string)
	for _, m := range members {
		if m.Rack != "" {
			racks[m.ID] = m.Rack
		}
	}
	if len(racks) > 0 {
		cfg.MemberRack = func(id string) string { return racks[id] }
	}
	replicas := make(map[string][][]string)
	for _, t := range topics {
		if t.ReplicaRacks != nil {
			replicas[t.Name] = t.ReplicaRacks // partitions are 0..n-1 in every workload
		}
	}
	if len(replicas) > 0 {
		cfg.ReplicaRacks = func(topic string, p int32) []string {
			rs := replicas[topic]
			if int(p) < len(rs) && p >= 0 {
				return rs[p]
			}
			return nil
		}
	}
	return cfg
}

// OursSaramaStrategy returns our cooperative-sticky as a sarama strategy for
// one consumer group member, as a sarama application configures it.
func OursSaramaStrategy() ibm.BalanceStrategy {
	return mustAdapter(cooperative.Wrap(sticky.New()), saramaassignor.Config{})
}
