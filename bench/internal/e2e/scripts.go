package e2e

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	ibm "github.com/IBM/sarama"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroup/assignor/adapters/saramaassignor"
)

// Ours is sarama with this module's cooperative-sticky
// (saramaassignor.CooperativeSticky), a fresh strategy per member.
var Ours = Kind{Name: "ours", Sarama: func() []ibm.BalanceStrategy {
	return []ibm.BalanceStrategy{saramaassignor.CooperativeSticky()}
}}

// OursLed reports whether a generation was planned by our assignor: a
// leader of a kind named after Ours (alone, or first of the migration's
// pair) with cooperative-sticky chosen.
func OursLed(kind, protocol string) bool {
	return strings.HasPrefix(kind, Ours.Name) && protocol == "cooperative-sticky"
}

// Peer kinds: sarama's own strategies and franz-go's cooperative-sticky.
var (
	SaramaCooperativeSticky = Kind{Name: "sarama-coop", Sarama: func() []ibm.BalanceStrategy {
		return []ibm.BalanceStrategy{ibm.NewBalanceStrategyCooperativeSticky()}
	}}
	SaramaSticky = Kind{Name: "sarama-sticky", Sarama: func() []ibm.BalanceStrategy {
		return []ibm.BalanceStrategy{ibm.NewBalanceStrategySticky()}
	}}
	KgoCooperativeSticky = Kind{Name: "kgo-coop", Kgo: func() []kgo.GroupBalancer {
		return []kgo.GroupBalancer{kgo.CooperativeStickyBalancer()}
	}}
)

// settleFor is how long a group must keep one assignment to count as stable;
// stableTimeoutMin bounds each wait at the harness's short timings (see
// Options.stableTimeout).
const (
	settleFor        = 600 * time.Millisecond
	stableTimeoutMin = 30 * time.Second
)

// Script is one scenario. Run drives the harness with members of kind k (the
// kind under test; mixed scripts add peers) and leaves the window marked.
type Script struct {
	Name string
	// Single: the script runs one kind only and suits any kind (figures run
	// it with ours, sarama's cooperative-sticky and eager sticky).
	Single bool
	Run    func(h *Harness, k Kind) error
}

// Scripts are the adapter's end-to-end scenarios (a)–(f).
var Scripts = []Script{
	{"rolling-restart", true, rollingRestart},
	{"scale-out-in", true, scaleOutIn},
	{"crash", true, crashAndReplace},
	{"mixed", false, mixedLeaders},
	{"static-restart", true, staticRestart},
	{"migrate-from-eager", false, migrateFromEager},
}

// ScriptNamed returns the script with the given name.
func ScriptNamed(name string) (Script, bool) {
	for _, s := range Scripts {
		if s.Name == name {
			return s, true
		}
	}
	return Script{}, false
}

func (h *Harness) stable() error {
	if err := h.WaitStable(settleFor, h.opts.stableTimeout()); err != nil {
		return err
	}
	if h.opts.Jitter > 0 {
		time.Sleep(rand.N(h.opts.Jitter))
	}
	return nil
}

// startAll joins members name-0 … name-(n-1) of kind k and waits for a
// stable group.
func startAll(h *Harness, k Kind, n int, static bool) ([]*Member, error) {
	var ms []*Member
	for i := range n {
		inst := ""
		if static {
			inst = fmt.Sprintf("static-%d", i)
		}
		m, err := h.Join(fmt.Sprintf("%s-%d-r0", k.Name, i), k, inst)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return ms, h.stable()
}

// join starts incarnation round of member i of kind k (named
// "<kind>-<i>-r<round>") and waits for a stable group. The member is nil
// only when it could not start.
func join(h *Harness, k Kind, i, round int, instance string) (*Member, error) {
	m, err := h.Join(fmt.Sprintf("%s-%d-r%d", k.Name, i, round), k, instance)
	if err != nil {
		return nil, err
	}
	return m, h.stable()
}

// roll restarts ms[i] as kind k (a new incarnation, the same instance ID)
// and waits for a stable group.
func roll(h *Harness, ms []*Member, i int, k Kind, round int) error {
	old := ms[i]
	h.Leave(old)
	var err error
	ms[i], err = join(h, k, i, round, old.Instance)
	return err
}

// rollAll restarts every member of ms in turn as kind k (see roll).
func rollAll(h *Harness, ms []*Member, k Kind, round int) error {
	for i := range ms {
		if err := roll(h, ms, i, k, round); err != nil {
			return err
		}
	}
	return nil
}

// restartEach starts 4 members of kind k (static: with instance IDs) and,
// in the window, restarts each in turn.
func restartEach(h *Harness, k Kind, static bool) error {
	ms, err := startAll(h, k, 4, static)
	if err != nil {
		return err
	}
	h.MarkStart()
	if err := rollAll(h, ms, k, 1); err != nil {
		return err
	}
	h.MarkEnd()
	return nil
}

// rollingRestart is scenario (a): 4 members over 2 topics, each restarted in
// turn (leave, then a new process joins).
func rollingRestart(h *Harness, k Kind) error { return restartEach(h, k, false) }

// scaleOutIn is scenario (b): 1 member, then one at a time up to 6, then one
// at a time back to 1.
func scaleOutIn(h *Harness, k Kind) error {
	ms, err := startAll(h, k, 1, false)
	if err != nil {
		return err
	}
	h.MarkStart()
	for i := 1; i < 6; i++ {
		m, err := join(h, k, i, 0, "")
		if err != nil {
			return err
		}
		ms = append(ms, m)
	}
	for len(ms) > 1 {
		h.Leave(ms[len(ms)-1])
		ms = ms[:len(ms)-1]
		if err := h.stable(); err != nil {
			return err
		}
	}
	h.MarkEnd()
	return nil
}

// crashAndReplace is scenario (c): 3 members; one dies without leaving (its
// connections reset, new ones refused); the others take over after the
// session timeout; a replacement joins.
func crashAndReplace(h *Harness, k Kind) error {
	ms, err := startAll(h, k, 3, false)
	if err != nil {
		return err
	}
	h.MarkStart()
	h.logf("crash %s", ms[1].Name)
	ms[1].Crash()
	if err := h.stable(); err != nil {
		return err
	}
	if _, err := join(h, k, 1, 1, ""); err != nil {
		return err
	}
	h.MarkEnd()
	return nil
}

// mixedLeaders is scenario (d): sarama members with k, franz-go members with
// kgo.CooperativeStickyBalancer and sarama members with sarama's own
// cooperative-sticky in one group (all named cooperative-sticky), restarted
// so that each kind leads in turn.
//
// kfake keeps its leader while the leader stays, and when the leader
// leaves it asks every member to lead the next generation and applies one
// plan; the sticky plans of such a generation usually coincide (the
// departed leader's partitions go to its replacement), so it counts for
// every kind. A kind leads alone when a non-leader restarts under a leader
// of that kind. The script therefore alternates: restart a non-leader
// (recording who led it), then the leader (moving the lead), until every
// kind has led alone or 14 restarts are done.
func mixedLeaders(h *Harness, k Kind) error {
	return mixedGroup(h, []Kind{k, KgoCooperativeSticky, SaramaCooperativeSticky}, 14)
}

// mixedGroup runs two members of each kind (all cooperative-sticky), in
// order, and restarts them as mixedLeaders describes until every kind has
// led alone or rounds restarts are done.
func mixedGroup(h *Harness, kinds []Kind, rounds int) error {
	var ms []*Member
	for i, kind := range slices.Concat(kinds, kinds) {
		m, err := join(h, kind, i, 0, "")
		if err != nil {
			return err
		}
		ms = append(ms, m)
	}
	h.MarkStart()
	ledAlone := map[string]bool{}
	next := 0 // round-robin over members for non-leader restarts
	for round := 1; round <= rounds; round++ {
		leader := h.currentLeader()
		i := slices.IndexFunc(ms, func(m *Member) bool { return m.Name == leader })
		if i < 0 {
			return fmt.Errorf("e2e: mixed: leader %q is not a live member", leader)
		}
		if round%2 == 1 { // a non-leader
			for ms[next%len(ms)].Name == leader {
				next++
			}
			i = next % len(ms)
			next++
		}
		if err := roll(h, ms, i, ms[i].Kind, round); err != nil {
			return err
		}
		if round%2 == 1 {
			if names := h.lastLeaders(); len(names) == 1 {
				ledAlone[h.kindName(names[0])] = true
			}
			if !slices.ContainsFunc(kinds, func(k Kind) bool { return !ledAlone[k.Name] }) {
				break
			}
		}
	}
	h.MarkEnd()
	return nil
}

// lastLeaders returns the names of the members whose plan was applied in
// the newest generation.
func (h *Harness) lastLeaders() []string {
	h.rec.mu.Lock()
	defer h.rec.mu.Unlock()
	ap, _ := h.rec.latest() // before the first plan, no leaders
	return ap.leaders
}

func (h *Harness) kindName(member string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.kindOf[member]
}

// currentLeader returns the name of a member whose plan the coordinator
// applied in the newest generation.
func (h *Harness) currentLeader() string {
	if names := h.lastLeaders(); len(names) > 0 {
		return names[0]
	}
	return ""
}

// staticRestart is scenario (e): 4 static members (instance IDs), each
// restarted in turn within the session timeout. Real Kafka does not
// rebalance for such a restart; kfake does unless the rejoin's metadata is
// byte-identical, so the report's rebalances are kfake's.
func staticRestart(h *Harness, k Kind) error { return restartEach(h, k, true) }

// migrateFromEager is scenario (f): 4 members on sarama's eager sticky, then
// two rolling deploys: first to [k, sticky] (sarama stays eager while any
// configured strategy is eager), then to [k] alone.
func migrateFromEager(h *Harness, k Kind) error {
	both := Kind{Name: k.Name + "+sticky", Sarama: func() []ibm.BalanceStrategy {
		return append(k.Sarama(), ibm.NewBalanceStrategySticky())
	}}
	return migrate(h, SaramaSticky, both, k)
}

// migrate starts 4 members of kind from, then rolls them to both (the
// target and from's strategy listed together) and then to target alone: the
// two rolling deploys of KIP-429's migration from an eager assignor.
func migrate(h *Harness, from, both, target Kind) error {
	ms, err := startAll(h, from, 4, false)
	if err != nil {
		return err
	}
	h.MarkStart()
	if err := rollAll(h, ms, both, 1); err != nil {
		return err
	}
	if err := rollAll(h, ms, target, 2); err != nil {
		return err
	}
	h.MarkEnd()
	return nil
}

// RunScript runs one script with kind k on a fresh harness and returns its
// report; finishTimeout bounds the final drain. A failed script's error reads
// as the harness's, then the script and kind: "e2e: group not stable after
// 30s: held …: in roll with ours".
func RunScript(s Script, k Kind, opts Options, finishTimeout time.Duration) (Report, error) {
	h, err := Start(opts)
	if err != nil {
		return Report{}, err
	}
	if err := s.Run(h, k); err != nil {
		h.Close()
		return Report{}, fmt.Errorf("%w: in %s with %s", err, s.Name, k.Name)
	}
	return h.Finish(s.Name, k.Name, finishTimeout)
}
