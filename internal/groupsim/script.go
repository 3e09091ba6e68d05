package groupsim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Exec runs one script command (see the package documentation for the
// commands) and returns its output: the command's report, any trace lines,
// and a "FAILURE" line for every invariant violation seen while it ran.
// An error means the command itself was malformed or impossible; its text
// is the cause's, then the line: groupsim: member "m9" is not running: in
// "leave m9".
func (s *Sim) Exec(line string) (string, error) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return "", nil
	}
	cmd, args := fields[0], parseArgs(fields[1:])
	var trace strings.Builder
	if s.trace != nil {
		s.trace = &trace
	}
	before := len(s.failures)
	out, err := s.exec(cmd, args)
	if err != nil {
		return "", fmt.Errorf("%w: in %q", err, line)
	}
	var b strings.Builder
	b.WriteString(trace.String())
	b.WriteString(out)
	for _, f := range s.failures[before:] {
		b.WriteString("FAILURE " + f + "\n")
	}
	if s.trace != nil {
		s.trace = &strings.Builder{}
	}
	return b.String(), nil
}

type args struct {
	positional []string
	named      map[string]string
	used       map[string]bool
}

func parseArgs(fields []string) *args {
	a := &args{named: map[string]string{}, used: map[string]bool{}}
	for _, f := range fields {
		if k, v, ok := strings.Cut(f, "="); ok {
			a.named[k] = v
		} else {
			a.positional = append(a.positional, f)
		}
	}
	return a
}

func (a *args) str(key, def string) string {
	a.used[key] = true
	if v, ok := a.named[key]; ok {
		return v
	}
	return def
}

func (a *args) dur(key string, def time.Duration) (time.Duration, error) {
	v := a.str(key, "")
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("groupsim: bad duration %s=%q", key, v)
	}
	return d, nil
}

func (a *args) list(key string) []string {
	v := a.str(key, "")
	if v == "" {
		return nil
	}
	return strings.Split(v, ",")
}

func (a *args) flag(name string) bool {
	i := slices.Index(a.positional, name)
	if i < 0 {
		return false
	}
	a.positional = slices.Delete(a.positional, i, i+1)
	return true
}

// check rejects named arguments the command did not read.
func (a *args) check() error {
	for k := range a.named {
		if !a.used[k] {
			return fmt.Errorf("groupsim: unknown argument %q", k)
		}
	}
	return nil
}

// names expands member names: "m0,m3", a range "m0..m9", "leader", "all".
func (s *Sim) names(spec string) ([]string, error) {
	var out []string
	for part := range strings.SplitSeq(spec, ",") {
		switch {
		case part == "leader":
			l := s.Leader()
			if l == "" {
				return nil, fmt.Errorf("groupsim: the group has no leader")
			}
			out = append(out, l)
		case part == "all":
			for _, p := range s.live {
				out = append(out, p.name)
			}
		case strings.Contains(part, ".."):
			from, to, _ := strings.Cut(part, "..")
			prefix := strings.TrimRight(from, "0123456789")
			lo, err1 := strconv.Atoi(from[len(prefix):])
			hi, err2 := strconv.Atoi(strings.TrimPrefix(to, prefix))
			if err1 != nil || err2 != nil || lo > hi {
				return nil, fmt.Errorf("groupsim: bad member range %q", part)
			}
			for i := lo; i <= hi; i++ {
				out = append(out, prefix+strconv.Itoa(i))
			}
		case part != "":
			out = append(out, part)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("groupsim: no member names in %q", spec)
	}
	return out, nil
}

func (s *Sim) exec(cmd string, a *args) (string, error) {
	var out string
	var err error
	switch cmd {
	case "config":
		out, err = s.execConfig(a)
	case "topic":
		out, err = s.execTopic(a)
	case "join", "leave", "crash", "restart", "subscribe", "disconnect", "stale":
		out, err = s.execMembers(cmd, a)
	case "rolling-restart":
		out, err = s.execRolling(a)
	case "run":
		var d time.Duration
		if d, err = a.dur("for", 0); err == nil {
			s.RunFor(d)
		}
	case "failover":
		var d time.Duration
		if d, err = a.dur("for", 0); err == nil {
			err = s.Failover(d)
		}
	case "settle":
		out, err = s.execSettle(a)
	case "assignment":
		out = s.Assignment()
	case "leader":
		out = s.Leader() + "\n"
	case "stats":
		out = s.Stats().String()
		if a.flag("reset") {
			s.ResetStats()
		}
	case "trace":
		switch {
		case a.flag("on"):
			s.trace = &strings.Builder{}
		case a.flag("off"):
			s.trace = nil
		default:
			err = fmt.Errorf("groupsim: want on or off")
		}
	default:
		return "", fmt.Errorf("groupsim: unknown command")
	}
	if err != nil {
		return "", err
	}
	if err := a.check(); err != nil {
		return "", err
	}
	if len(a.positional) > 0 && cmd != "topic" && !slices.Contains([]string{"join", "leave", "crash", "restart", "subscribe", "disconnect", "stale"}, cmd) {
		return "", fmt.Errorf("groupsim: unexpected arguments %q", a.positional)
	}
	return out, nil
}

func (s *Sim) execConfig(a *args) (string, error) {
	if len(s.live) > 0 || s.now > 0 {
		return "", fmt.Errorf("groupsim: config must come first")
	}
	c := &s.cfg
	for _, f := range []struct {
		key string
		d   *time.Duration
	}{{"heartbeat", &c.HeartbeatInterval}, {"session", &c.SessionTimeout}, {"rebalance", &c.RebalanceTimeout}, {"latency", &c.Latency}, {"jitter", &c.Jitter}, {"metadata", &c.MetadataDelay}} {
		d, err := a.dur(f.key, *f.d)
		if err != nil {
			return "", err
		}
		*f.d = d
	}
	*c = c.withDefaults()
	return fmt.Sprintf("heartbeat %v, session %v, rebalance %v, latency %v, jitter %v, metadata %v\n",
		c.HeartbeatInterval, c.SessionTimeout, c.RebalanceTimeout, c.Latency, c.Jitter, c.MetadataDelay), nil
}

func (s *Sim) execTopic(a *args) (string, error) {
	if len(a.positional) != 2 {
		return "", fmt.Errorf("groupsim: want topic create|delete|grow NAME")
	}
	verb, name := a.positional[0], a.positional[1]
	a.positional = nil
	n64, err := strconv.ParseInt(a.str("partitions", "0"), 10, 32)
	if err != nil {
		return "", fmt.Errorf("groupsim: bad partitions: %v", err)
	}
	n := int32(n64)
	switch verb {
	case "create":
		err = s.CreateTopic(name, n)
	case "delete":
		err = s.DeleteTopic(name)
	case "grow":
		err = s.GrowTopic(name, n)
	default:
		err = fmt.Errorf("groupsim: unknown topic verb %q", verb)
	}
	return "", err
}

func (s *Sim) execMembers(cmd string, a *args) (string, error) {
	crash := a.flag("crash")
	static := a.flag("static")
	noFast := a.flag("no-fast-rejoin")
	on, off := a.flag("on"), a.flag("off")
	if len(a.positional) != 1 {
		return "", fmt.Errorf("groupsim: want one member list, got %q", a.positional)
	}
	names, err := s.names(a.positional[0])
	if err != nil {
		return "", err
	}
	a.positional = nil
	for _, name := range names {
		switch cmd {
		case "join":
			err = s.Join(name, MemberConfig{Topics: a.list("topics"), Assignors: a.list("assignors"), Static: static, DisableFastRejoin: noFast})
		case "leave":
			err = s.Leave(name)
		case "crash":
			err = s.Crash(name)
		case "restart":
			var down time.Duration
			if down, err = a.dur("down", 0); err == nil {
				var cfg *MemberConfig
				if as := a.list("assignors"); as != nil {
					p, _ := s.running(name)
					if p != nil {
						c := p.cfg
						c.Assignors = as
						cfg = &c
					}
				}
				err = s.Restart(name, down, crash, cfg)
			}
		case "subscribe":
			err = s.Subscribe(name, a.list("topics"))
		case "disconnect":
			var d time.Duration
			if d, err = a.dur("for", 0); err == nil {
				err = s.Disconnect(name, d)
			}
		case "stale":
			if on == off {
				return "", fmt.Errorf("groupsim: want on or off")
			}
			err = s.SetStale(name, on)
		}
		if err != nil {
			return "", err
		}
	}
	return "", nil
}

func (s *Sim) execRolling(a *args) (string, error) {
	down, err := a.dur("down", 0)
	if err != nil {
		return "", err
	}
	every, err := a.dur("every", 0)
	if err != nil {
		return "", err
	}
	crash := a.flag("crash")
	s.RollingRestart(down, every, crash, a.list("assignors"))
	return "", nil
}

func (s *Sim) execSettle(a *args) (string, error) {
	limit, err := a.dur("max", 10*time.Minute)
	if err != nil {
		return "", err
	}
	took, err := s.Settle(limit)
	if err != nil {
		return fmt.Sprintf("not settled after %s: %v\n", fmtTime(took), err), nil
	}
	c := s.coord
	out := fmt.Sprintf("settled in %s at %s: generation %d, %d members, protocol %s, leader %s\n",
		fmtTime(took), fmtTime(s.now), c.generation, len(c.members), c.protocol, s.Leader())
	if len(s.stranded) > 0 {
		out += fmt.Sprintf("%d partitions without owner: withheld from a static member replaced before it synced, so nobody rejoins to hand them over (no NEEDS_REJOIN on the wire)\n", len(s.stranded))
	}
	if len(s.missed) > 0 {
		out += fmt.Sprintf("%d partitions without owner: the restarted static leader skipped the assignment and missed a topic change (KIP-814)\n", len(s.missed))
	}
	return out, nil
}
