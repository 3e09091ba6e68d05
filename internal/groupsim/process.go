package groupsim

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/fnv1a"
	"github.com/kgroup/assignor/internal/member"
	"github.com/kgroup/assignor/rebalance"
)

// process is one incarnation of a simulated member: a consumer process
// running the member state machine, with its own assignor instances and its
// own view of the topic metadata.
type process struct {
	s           *Sim
	name        string
	incarnation int
	cfg         MemberConfig
	assignors   []assignor.Assignor
	machine     *member.Machine

	alive             bool
	view              map[string]int32 // the metadata this process sees
	stale             bool             // metadata refreshes are skipped
	disconnectedUntil time.Duration
	heartbeating      bool // a heartbeat is in flight
	lastJoin          joinAnswer
	ledTopics         []string         // as leader: the topics the group subscribes to
	ledView           map[string]int32 // as leader: the metadata it assigned with
	delivering        map[partition]bool

	hadWork   bool // it has delivered something in its life
	idle      bool
	idleSince time.Duration
}

// id names the incarnation for reports: "m3" or "m3#2" after a restart.
func (p *process) id() string {
	if p.incarnation == 1 {
		return p.name
	}
	return fmt.Sprintf("%s#%d", p.name, p.incarnation)
}

// current reports whether p is the process the coordinator knows under its
// member ID: a member of the current generation (or of the rebalance under
// way). An evicted or fenced process is not.
func (p *process) current() bool {
	m, ok := p.s.coord.members[p.machine.MemberID()]
	return ok && m.proc == p
}

// fresh reports whether p's metadata matches the cluster.
func (p *process) fresh() bool { return maps.Equal(p.view, p.s.topics) }

func (s *Sim) startProcess(name string, cfg MemberConfig, incarnation int) (*process, error) {
	p := &process{s: s, name: name, incarnation: incarnation, cfg: cfg, alive: true, delivering: map[partition]bool{}}
	proto := assignor.Cooperative
	for _, a := range cfg.Assignors {
		f, ok := s.factories[a]
		if !ok {
			return nil, fmt.Errorf("groupsim: member %q: unknown assignor %q", name, a)
		}
		inst := f()
		p.assignors = append(p.assignors, inst)
		if !assignor.Supports(inst, assignor.Cooperative) {
			proto = assignor.Eager
		}
	}
	if len(p.assignors) == 0 {
		return nil, fmt.Errorf("groupsim: member %q: no assignors", name)
	}
	instance := ""
	if cfg.Static {
		instance = name
	}
	p.machine = member.New(member.Config{InstanceID: instance, Topics: cfg.Topics, Protocol: proto, DisableFastRejoin: cfg.DisableFastRejoin})
	p.view = maps.Clone(s.topics)
	s.procs[name] = p
	s.live = append(s.live, p)
	s.tracef("%s starts (%s, %s)", p.id(), proto, strings.Join(cfg.Assignors, ","))
	p.step(member.Start{})
	p.scheduleHeartbeat(phase(p.id(), s.cfg.HeartbeatInterval))
	return p, nil
}

// phase spreads the members' heartbeats over the interval, as real
// processes started at different moments do: a deterministic fraction of
// the interval derived from the process name (FNV-1a).
func phase(id string, interval time.Duration) time.Duration {
	return time.Duration(fnv1a.String(id) % uint64(max(interval, 1)))
}

// scheduleHeartbeat runs the heartbeat loop: the first tick after first,
// then one every interval.
func (p *process) scheduleHeartbeat(first time.Duration) {
	p.s.at(p.s.now+first, func() {
		if !p.alive {
			return
		}
		if p.machine.Phase() == member.Stable && !p.machine.FindingCoordinator() && !p.heartbeating {
			p.heartbeating = true
			id, inst, gen := p.machine.MemberID(), p.machine.InstanceID(), p.machine.Generation()
			p.s.send(p, false, func() { p.s.coord.heartbeat(p, id, inst, gen) })
		}
		p.scheduleHeartbeat(p.s.cfg.HeartbeatInterval)
	})
}

// exit ends the process without any goodbye (a crash, or after Stop).
func (p *process) exit() {
	if !p.alive {
		return
	}
	p.alive = false
	p.s.live = slices.DeleteFunc(p.s.live, func(q *process) bool { return q == p })
	p.idle = false
	clear(p.delivering)
}

// step feeds an event to the machine and carries out its actions.
func (p *process) step(ev member.Event) {
	if !p.alive {
		return
	}
	for _, a := range p.machine.Step(ev) {
		p.do(a)
	}
}

func (p *process) do(a member.Action) {
	s := p.s
	switch a := a.(type) {
	case member.SendJoin:
		s.tracef("%s join: owned %s gen %d", p.id(), formatSet(a.Owned), a.Generation)
		req := joinRequest{from: p, memberID: a.MemberID, instance: a.InstanceID, protocols: p.protocols(a)}
		s.sendAfter(p, a.Backoff, func() { s.coord.join(req) })
	case member.FindCoordinator:
		s.tracef("%s looks for the coordinator in %v (attempt %d)", p.id(), a.Backoff, a.Attempt)
		s.sendAfter(p, a.Backoff, func() { s.coord.find(p) })
	case member.SendSync:
		req := syncRequest{from: p, memberID: a.MemberID, instance: p.machine.InstanceID(), gen: a.Generation}
		if j := p.lastJoin; j.leader == a.MemberID && j.gen == a.Generation {
			if j.skip {
				// KIP-814: a returning static leader keeps the group's
				// assignment; like Java it only learns the group's topics.
				p.ledTopics = groupTopics(j, j.protocol)
				p.ledView = maps.Clone(p.view)
			} else {
				req.assignments = s.lead(p, j)
			}
		}
		s.send(p, true, func() { s.coord.sync(req) })
	case member.SendLeave:
		id := a.MemberID
		s.send(p, true, func() { s.coord.leave(id) })
	case member.StopDelivery:
		for _, k := range flatten(a.Partitions) {
			delete(p.delivering, k)
		}
		p.updateIdle()
	case member.StartDelivery:
		for _, k := range flatten(a.Partitions) {
			p.delivering[k] = true
			s.acct.started(s, p, k)
		}
		p.updateIdle()
	case member.OnRevoked:
		s.acct.revoked += assignor.CountPartitions(a.Partitions)
		s.tracef("%s revoked %s", p.id(), formatSet(a.Partitions))
	case member.OnLost:
		s.acct.lost += assignor.CountPartitions(a.Partitions)
		s.tracef("%s lost %s", p.id(), formatSet(a.Partitions))
	case member.OnAssignment:
		if o, ok := p.assignor(p.lastJoin.protocol).(assignor.AssignmentObserver); ok {
			o.OnAssignment(a.Assigned, a.UserData, a.Generation)
		}
	case member.OnAssigned:
		s.tracef("%s generation %d: owns %s, added %s", p.id(), p.machine.Generation(), formatSet(p.machine.Owned()), formatSet(a.Partitions))
	case member.CommitOffsets:
		s.acct.commits++
	case member.Stop:
		if a.Err != nil {
			s.tracef("%s stops: %v", p.id(), a.Err)
			if errors.Is(a.Err, member.ErrFenced) {
				s.acct.fenced++
			} else {
				s.acct.rejected++
			}
		}
		p.exit()
	}
}

// protocols builds the JoinGroup's protocol list, one entry per assignor in
// preference order, asking each for its subscription user data. An eager
// member hands the hook its last assignment as what it owns (it has just
// revoked everything, so an eager sticky assignor encodes its history).
func (p *process) protocols(a member.SendJoin) []protocolMeta {
	state := assignor.MemberState{Topics: a.Topics, Owned: a.Owned, Generation: a.Generation}
	if p.machine.Protocol() == assignor.Eager {
		state.Owned = a.LastAssignment
	}
	out := make([]protocolMeta, 0, len(p.assignors))
	for _, as := range p.assignors {
		sub := subscription{topics: slices.Clone(a.Topics), owned: a.Owned, gen: a.Generation}
		if u, ok := as.(assignor.SubscriptionUserDataAssignor); ok {
			data, err := u.SubscriptionUserData(state)
			if err != nil {
				p.s.fail("member %s: %s subscription user data: %v", p.id(), as.Name(), err)
			}
			sub.userData = data
		}
		out = append(out, protocolMeta{name: as.Name(), sub: sub})
	}
	return out
}

func (p *process) assignor(name string) assignor.Assignor {
	for _, a := range p.assignors {
		if a.Name() == name {
			return a
		}
	}
	return nil
}

// updateIdle tracks the member's pauses: an interval in which a process that
// has delivered something delivers nothing.
func (p *process) updateIdle() {
	now := p.s.now
	if len(p.delivering) > 0 {
		if p.idle {
			p.idle = false
			p.s.acct.pause(p.name, now-p.idleSince)
		}
		p.hadWork = true
	} else if p.hadWork && !p.idle {
		p.idle, p.idleSince = true, now
	}
}

// refreshMetadata updates p's view of the cluster. A change to a subscribed
// topic makes the member rejoin; so does, on the leader, a difference
// between the metadata it assigned with and the new view for any topic the
// group subscribes to (Java's leader compares its assignment snapshot with
// its metadata snapshot).
func (p *process) refreshMetadata() {
	if !p.alive || p.stale {
		return
	}
	old := p.view
	p.view = maps.Clone(p.s.topics)
	differs := func(before map[string]int32, t string) bool {
		o, had := before[t]
		n, has := p.view[t]
		return had != has || o != n
	}
	for _, t := range p.machine.Topics() {
		if differs(old, t) {
			p.s.tracef("%s sees new metadata for %s", p.id(), t)
			p.step(member.MetadataChanged{})
			return
		}
	}
	if id := p.machine.MemberID(); id == "" || p.lastJoin.leader != id {
		return
	}
	for _, t := range p.ledTopics {
		if differs(p.ledView, t) {
			p.s.tracef("%s (leader) sees new metadata for %s", p.id(), t)
			p.step(member.MetadataChanged{})
			return
		}
	}
}

// send delivers fn at the coordinator after the latency (later if p is
// disconnected). counted marks JoinGroup, SyncGroup and LeaveGroup, which
// keep the group from being settled while in flight.
func (s *Sim) send(p *process, counted bool, fn func()) {
	if counted {
		s.inFlight++
	}
	at := max(s.now, p.disconnectedUntil) + s.latency()
	s.at(at, func() {
		if counted {
			s.inFlight--
		}
		fn()
	})
}

// sendAfter is send of a counted request (a JoinGroup or FindCoordinator)
// that p sends after backoff, if it still runs then.
func (s *Sim) sendAfter(p *process, backoff time.Duration, fn func()) {
	if backoff <= 0 {
		s.send(p, true, fn)
		return
	}
	s.inFlight++
	s.at(s.now+backoff, func() {
		s.inFlight--
		if p.alive {
			s.send(p, true, fn)
		}
	})
}

// reply delivers fn at process p after the latency (later if p is
// disconnected), if p still runs by then.
func (s *Sim) reply(p *process, counted bool, fn func()) {
	if counted {
		s.inFlight++
	}
	at := max(s.now, p.disconnectedUntil) + s.latency()
	s.at(at, func() {
		if counted {
			s.inFlight--
		}
		if p.alive {
			fn()
		}
	})
}

func (s *Sim) replyJoin(p *process, a joinAnswer) {
	s.reply(p, true, func() {
		if a.err == member.None {
			p.lastJoin = a
		}
		p.step(member.JoinResponse{Err: a.err, MemberID: a.memberID, Generation: a.gen})
	})
}

// replySync answers p's SyncGroup. p reads the fast re-join mark from the
// assignment's user data and hands the rest to its machine.
func (s *Sim) replySync(p *process, gen int32, code member.ErrorCode, a assignment) {
	s.reply(p, true, func() {
		own, rejoin, err := rebalance.ReadUserData(a.userData)
		if err != nil {
			s.fail("member %s: assignment user data: %v", p.id(), err)
		}
		if rejoin && code == member.None {
			s.tracef("%s assignment marked for fast re-join", p.id())
		}
		p.step(member.SyncResponse{Generation: gen, Err: code, Assigned: a.partitions, UserData: own, Rejoin: rejoin})
	})
}

func (s *Sim) replyHeartbeat(p *process, gen int32, code member.ErrorCode) {
	s.reply(p, false, func() {
		p.heartbeating = false
		if code != member.None {
			s.tracef("%s heartbeat: %v", p.id(), code)
		}
		p.step(member.HeartbeatResponse{Generation: gen, Err: code})
	})
}

func flatten(tps []assignor.TopicPartitions) []partition {
	var out []partition
	for _, tp := range tps {
		for _, i := range tp.Partitions {
			out = append(out, partition{tp.Topic, i})
		}
	}
	return out
}

// formatSet renders tps as in [assignor.FormatTopicPartitions], or "[]".
func formatSet(tps []assignor.TopicPartitions) string {
	if len(tps) == 0 {
		return "[]"
	}
	return assignor.FormatTopicPartitions(tps)
}
