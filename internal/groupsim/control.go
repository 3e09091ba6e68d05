package groupsim

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/kgroup/assignor/internal/member"
)

// CreateTopic adds a topic with n partitions to the cluster. Members see it
// after the metadata delay.
func (s *Sim) CreateTopic(name string, n int32) error {
	defer s.observe()
	if _, ok := s.topics[name]; ok {
		return fmt.Errorf("groupsim: topic %q already exists", name)
	}
	if name == "" || n < 0 {
		return fmt.Errorf("groupsim: topic %q: bad partition count %d", name, n)
	}
	s.topics[name] = n
	s.metadataChanged()
	return nil
}

// DeleteTopic removes a topic from the cluster.
func (s *Sim) DeleteTopic(name string) error {
	defer s.observe()
	if _, ok := s.topics[name]; !ok {
		return fmt.Errorf("groupsim: topic %q does not exist", name)
	}
	delete(s.topics, name)
	s.metadataChanged()
	return nil
}

// GrowTopic raises a topic's partition count to n (partitions are never
// removed in Kafka).
func (s *Sim) GrowTopic(name string, n int32) error {
	defer s.observe()
	old, ok := s.topics[name]
	if !ok {
		return fmt.Errorf("groupsim: topic %q does not exist", name)
	}
	if n <= old {
		return fmt.Errorf("groupsim: topic %q has %d partitions, cannot shrink or keep at %d", name, old, n)
	}
	s.topics[name] = n
	s.metadataChanged()
	return nil
}

func (s *Sim) metadataChanged() {
	for _, p := range s.live {
		s.at(s.now+s.cfg.MetadataDelay, p.refreshMetadata)
	}
}

// Join starts a member process named name now.
func (s *Sim) Join(name string, cfg MemberConfig) error {
	defer s.observe()
	if p := s.procs[name]; p != nil && p.alive {
		return fmt.Errorf("groupsim: member %q is already running", name)
	}
	inc := 1
	if p := s.procs[name]; p != nil {
		inc = p.incarnation + 1
	}
	_, err := s.startProcess(name, cfg, inc)
	return err
}

func (s *Sim) running(name string) (*process, error) {
	p := s.procs[name]
	if p == nil || !p.alive {
		return nil, fmt.Errorf("groupsim: member %q is not running", name)
	}
	return p, nil
}

// Leave closes member name gracefully: it revokes what it owns and, if
// dynamic, sends a LeaveGroup.
func (s *Sim) Leave(name string) error {
	defer s.observe()
	p, err := s.running(name)
	if err != nil {
		return err
	}
	p.step(member.Leave{})
	p.exit()
	return nil
}

// Crash kills member name without a word: the coordinator notices when its
// session expires.
func (s *Sim) Crash(name string) error {
	defer s.observe()
	p, err := s.running(name)
	if err != nil {
		return err
	}
	s.tracef("%s crashes", p.id())
	p.exit()
	return nil
}

// Restart stops member name now (gracefully, or as a crash) and starts a new
// process with the same name after down, with cfg if it is not nil (a
// deploy), else with the old configuration.
func (s *Sim) Restart(name string, down time.Duration, crash bool, cfg *MemberConfig) error {
	defer s.observe()
	p, err := s.running(name)
	if err != nil {
		return err
	}
	next := p.cfg
	if cfg != nil {
		next = *cfg
	}
	if crash {
		s.tracef("%s crashes for a restart", p.id())
		p.exit()
	} else {
		p.step(member.Leave{})
		p.exit()
	}
	s.pending++
	s.at(s.now+down, func() {
		s.pending--
		if _, err := s.startProcess(name, next, p.incarnation+1); err != nil {
			s.fail("restart %s: %v", name, err)
		}
	})
	return nil
}

// RollingRestart restarts every running member, in the order they started,
// one every `every`, each down for `down`. With assignors set it deploys
// that assignor list (a configuration change), keeping everything else.
func (s *Sim) RollingRestart(down, every time.Duration, crash bool, assignors []string) {
	for i, p := range slices.Clone(s.live) {
		name := p.name
		s.pending++
		s.at(s.now+time.Duration(i)*every, func() {
			s.pending--
			cur := s.procs[name]
			if cur == nil || !cur.alive {
				return
			}
			var next *MemberConfig
			if assignors != nil {
				c := cur.cfg
				c.Assignors = slices.Clone(assignors)
				next = &c
			}
			if err := s.Restart(name, down, crash, next); err != nil {
				s.fail("rolling restart: %v", err)
			}
		})
	}
}

// Subscribe changes member name's subscription.
func (s *Sim) Subscribe(name string, topics []string) error {
	defer s.observe()
	p, err := s.running(name)
	if err != nil {
		return err
	}
	p.cfg.Topics = slices.Clone(topics)
	p.step(member.SubscriptionChanged{Topics: topics})
	return nil
}

// Disconnect cuts member name off the coordinator for d: its requests and
// the coordinator's answers are held until the link comes back (it keeps
// processing what it owns, as a consumer whose coordinator link fails does).
func (s *Sim) Disconnect(name string, d time.Duration) error {
	p, err := s.running(name)
	if err != nil {
		return err
	}
	p.disconnectedUntil = s.now + d
	return nil
}

// SetStale freezes (on) or thaws (off) member name's metadata: a stale
// member skips refreshes; thawing refreshes at once.
func (s *Sim) SetStale(name string, on bool) error {
	defer s.observe()
	p, err := s.running(name)
	if err != nil {
		return err
	}
	p.stale = on
	if !on {
		p.refreshMetadata()
	}
	return nil
}

// Leader returns the name of the leader's process, or "".
func (s *Sim) Leader() string {
	if m := s.coord.members[s.coord.leader]; m != nil {
		return m.proc.name
	}
	return ""
}

// Assignment renders what every running member owns, one line per member in
// name order: "m0 gen 4: t0[0 3]".
func (s *Sim) Assignment() string {
	var b strings.Builder
	byName := map[string]*process{}
	for _, p := range s.live {
		byName[p.name] = p
	}
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		p := byName[name]
		fmt.Fprintf(&b, "%s gen %d: %s\n", p.id(), p.machine.Generation(), formatSet(p.machine.Owned()))
	}
	return b.String()
}
