package saramaassignor

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/rebalance"
)

// Severity says what a [Finding] costs the group.
type Severity int

const (
	// Warning: the group runs what the config asks for, but slower, or
	// closer to losing a member, than it need be; or the config carries an
	// entry that is never used.
	Warning Severity = iota + 1
	// Error: the group does not run what the config asks for (eager instead
	// of cooperative, another strategy than the one meant), or its leaders
	// misread the generation of claims.
	Error
)

// String returns "warning" or "error".
func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// Finding is one setting [CheckConfig] flags: a value sarama's own
// Config.Validate accepts but that costs a cooperative group what it is for.
type Finding struct {
	// Field is the sarama.Config field at fault, as written in Go, such as
	// "Consumer.Group.Rebalance.GroupStrategies".
	Field string
	// Severity says whether the group runs what the config asks for
	// ([Warning]) or not ([Error]).
	Severity Severity
	// Problem says what the value set does to the group.
	Problem string
	// Fix says what to set instead.
	Fix string
}

// String returns the finding on one line: the field, the severity in
// parentheses, the problem, and after a semicolon the fix.
func (f Finding) String() string {
	return f.Field + " (" + f.Severity.String() + "): " + f.Problem + "; " + f.Fix
}

// ConfigError is the error [CheckConfig] and [CheckConfigWith] return when
// they find something: every finding, in the order the checks run (as
// [CheckConfig] lists them). Get it with errors.As:
//
//	var ce *saramaassignor.ConfigError
//	if errors.As(err, &ce) {
//		for _, f := range ce.Findings { … }
//	}
type ConfigError struct {
	// Findings has one entry or more.
	Findings []Finding
}

// Error returns one line per finding, each "saramaassignor: " and the
// finding's String:
//
//	saramaassignor: Consumer.Group.Rebalance.GroupStrategies (error): range comes first and cooperative-sticky after it: …; set the list instead of appending to it: …
func (e *ConfigError) Error() string {
	lines := make([]string, len(e.Findings))
	for i, f := range e.Findings {
		lines[i] = "saramaassignor: " + f.String()
	}
	return strings.Join(lines, "\n")
}

// CheckOptions tell [CheckConfigWith] what the caller knows that the config
// cannot say. The zero value is [CheckConfig]'s.
type CheckOptions struct {
	// Migrating acknowledges the first of KIP-429's two rolling deploys
	// from an eager strategy to a cooperative one: every member lists the
	// cooperative strategy first and the eager one it replaces after it
	// (GroupStrategies = {CooperativeSticky(), range}), so that new and old
	// members share a protocol while the deploy rolls. The group runs the
	// eager protocol until the second deploy lists the cooperative strategy
	// alone; set Migrating only in the first. It silences that one finding,
	// and only for that order: with the eager strategy first the members
	// vote for it and it keeps assigning after the second deploy's members
	// join, so CheckConfigWith still reports it.
	Migrating bool
}

// Thresholds of [CheckConfig].
const (
	// maxRetryBackoff is the longest Rebalance.Retry.Backoff CheckConfig
	// accepts in a cooperative group: five times Java's retry.backoff.ms.
	maxRetryBackoff = 500 * time.Millisecond
)

// CheckConfig reports what in c, the config of one consumer group member,
// makes a group with a cooperative strategy fall back to eager, run another
// strategy than the one meant, lose the generation of its claims, or run
// slow second rounds — what sarama's own Config.Validate does not catch (it
// already rejects a cooperative strategy below V2_4_0_0 and a heartbeat at or
// above the session timeout, and NewConsumerGroup calls it). It returns nil
// if it finds nothing, else a [*ConfigError] holding every [Finding], each
// naming its field, its [Severity], the problem and the fix. CheckConfig
// reads c and calls no broker; it calls each strategy's Name and
// SupportedProtocols, and the subscription user data hook of the assignors
// inside this package's strategies (with a made-up member state; the
// assignors of this module keep no state). CheckConfig(c) is
// [CheckConfigWith](c, CheckOptions{}).
//
// The findings, in the order the checks run:
//
//   - Consumer.Group.Rebalance.Strategy (deprecated) is set while
//     GroupStrategies lists others: sarama uses Strategy alone. An error.
//   - Consumer.Group.Rebalance.GroupStrategies lists two different
//     strategies under one protocol name, such as this package's
//     CooperativeSticky() and sarama.NewBalanceStrategyCooperativeSticky():
//     the member offers the name twice, the coordinator hands the leader the
//     first entry's subscription and sarama plans with the first strategy of
//     that name, so the other never runs and reordering the list swaps them
//     silently. An error. The same strategy (or two of one implementation)
//     listed twice is a warning: only the first entry is used.
//   - Consumer.Group.Rebalance.GroupStrategies lists a cooperative strategy
//     with one that supports only eager: sarama then runs the eager
//     protocol for every strategy, so every member stops every partition on
//     each rebalance. With an eager strategy first (ours appended to
//     sarama.NewConfig's range) the members also vote for it, so it
//     assigns. An error. With the cooperative strategy first it is the first
//     of KIP-429's two rolling deploys, which [CheckOptions].Migrating
//     acknowledges.
//   - Version below V3_2_0_0 (subscription v1: owned partitions, no
//     generation) with a cooperative assignor whose subscription user data
//     is not the 4-byte generation Java and sarama leaders read, such as
//     cooperative.WrapWithConfig(sticky.New(), cooperative.Config{InnerUserData: true}):
//     a Java leader takes the first 4 bytes as the generation (for sticky
//     user data, its topic count) and sarama's own leader drops it; this
//     module's leaders read the sticky layout's generation. With no user
//     data at all, no leader learns a generation. An error.
//   - Consumer.Group.Rebalance.Retry.Backoff above 500 ms in a cooperative
//     group (sarama's default is 2 s): a member that meets the second round
//     in SyncGroup waits this long before it rejoins, and the group waits
//     for it. Java's retry.backoff.ms is 100 ms. A warning.
//   - Consumer.Group.Heartbeat.Interval above a third of
//     Consumer.Group.Session.Timeout (Kafka's and sarama's own advice):
//     members learn of a second round from their next heartbeat, and two
//     late heartbeats lose the member its partitions. A warning.
//   - Consumer.MaxWaitTime above Consumer.Group.Heartbeat.Interval: sarama
//     sends fetches and group requests over one connection per broker, and a
//     broker answers a connection in order, so every heartbeat and join can
//     wait behind a fetch long-poll; with a short session that stretched
//     cooperative rounds to tens of seconds and got a member evicted
//     (docs/sarama.md). A warning.
func CheckConfig(c *sarama.Config) error {
	return CheckConfigWith(c, CheckOptions{})
}

// CheckConfigWith is [CheckConfig] told what opts say; see [CheckOptions].
func CheckConfigWith(c *sarama.Config, opts CheckOptions) error {
	if c == nil {
		return errors.New("saramaassignor: CheckConfig: nil config")
	}
	var found []Finding
	add := func(f *Finding) {
		if f != nil {
			found = append(found, *f)
		}
	}
	strategies := slices.DeleteFunc(effectiveStrategies(c), func(s sarama.BalanceStrategy) bool { return s == nil })
	add(checkDeprecatedStrategy(c))
	found = append(found, checkDuplicates(c)...)
	add(checkProtocols(strategies, opts))
	for _, s := range strategies {
		add(checkGeneration(c.Version, s))
	}
	if runsCooperative(strategies) {
		add(checkRetryBackoff(c))
	}
	add(checkHeartbeat(c))
	add(checkMaxWaitTime(c))
	if len(found) == 0 {
		return nil
	}
	return &ConfigError{Findings: found}
}

// effectiveStrategies are the strategies sarama uses: the deprecated
// Strategy alone if set, else GroupStrategies.
func effectiveStrategies(c *sarama.Config) []sarama.BalanceStrategy {
	if s := c.Consumer.Group.Rebalance.Strategy; s != nil {
		return []sarama.BalanceStrategy{s}
	}
	return slices.Clone(c.Consumer.Group.Rebalance.GroupStrategies)
}

// protocols returns what s supports, as sarama reads it: eager only unless
// it declares otherwise.
func protocols(s sarama.BalanceStrategy) []sarama.RebalanceProtocol {
	if p, ok := s.(sarama.RebalanceProtocolBalanceStrategy); ok {
		return p.SupportedProtocols()
	}
	return []sarama.RebalanceProtocol{sarama.RebalanceProtocolEager}
}

func supports(s sarama.BalanceStrategy, p sarama.RebalanceProtocol) bool {
	return slices.Contains(protocols(s), p)
}

// runsCooperative reports whether sarama runs the cooperative protocol for
// strategies: every one supports it.
func runsCooperative(strategies []sarama.BalanceStrategy) bool {
	return len(strategies) > 0 && !slices.ContainsFunc(strategies, func(s sarama.BalanceStrategy) bool {
		return !supports(s, sarama.RebalanceProtocolCooperative)
	})
}

// names lists the protocol names of strategies, each once (a name listed
// twice is checkDuplicates' finding), in order.
func names(strategies []sarama.BalanceStrategy) string {
	var out []string
	for _, s := range strategies {
		if !slices.Contains(out, s.Name()) {
			out = append(out, s.Name())
		}
	}
	return strings.Join(out, ", ")
}

func checkDeprecatedStrategy(c *sarama.Config) *Finding {
	s := c.Consumer.Group.Rebalance.Strategy
	if s == nil {
		return nil
	}
	// Compared by name: a strategy's dynamic type need not be comparable.
	ignored := slices.DeleteFunc(slices.Clone(c.Consumer.Group.Rebalance.GroupStrategies), func(g sarama.BalanceStrategy) bool {
		return g == nil || g.Name() == s.Name()
	})
	if len(ignored) == 0 {
		return nil
	}
	return &Finding{
		Field:    "Consumer.Group.Rebalance.Strategy",
		Severity: Error,
		Problem:  fmt.Sprintf("it is set (to %s), so sarama ignores GroupStrategies (%s)", s.Name(), names(ignored)),
		Fix:      "leave Strategy nil and set GroupStrategies to the strategies the member offers",
	}
}

// checkDuplicates finds protocol names GroupStrategies lists more than once
// (when sarama uses GroupStrategies): a warning when the entries are one
// implementation (the same strategy, or two values of one type, or two of
// this package's), an error when they are different strategies. Each
// finding names the entries by their index in GroupStrategies.
func checkDuplicates(c *sarama.Config) []Finding {
	if c.Consumer.Group.Rebalance.Strategy != nil {
		return nil // sarama ignores GroupStrategies; checkDeprecatedStrategy says so
	}
	listed := c.Consumer.Group.Rebalance.GroupStrategies
	at := map[string][]int{}
	var order []string
	for i, s := range listed {
		if s == nil {
			continue
		}
		name := s.Name()
		if at[name] == nil {
			order = append(order, name)
		}
		at[name] = append(at[name], i)
	}
	var found []Finding
	for _, name := range order {
		if len(at[name]) > 1 {
			found = append(found, duplicate(listed, name, at[name]))
		}
	}
	return found
}

// duplicate is the finding for protocol name listed at the indexes at of
// listed.
func duplicate(listed []sarama.BalanceStrategy, name string, at []int) Finding {
	f := Finding{Field: "Consumer.Group.Rebalance.GroupStrategies"}
	first := listed[at[0]]
	oneKind, same := true, true
	for _, i := range at[1:] {
		oneKind = oneKind && implementation(listed[i]) == implementation(first)
		same = same && identical(listed[i], first)
	}
	if oneKind {
		what := "the same strategy"
		if !same {
			what = "each " + implementation(first)
		}
		f.Severity = Warning
		f.Problem = fmt.Sprintf("%s is listed %s (%s, %s): the member offers the protocol %s in every JoinGroup, and only the first entry is used",
			name, times(len(at)), entries(at, nil), what, times(len(at)))
		f.Fix = fmt.Sprintf("list it once: remove %s", entries(at[1:], nil))
		return f
	}
	keep := at[0]
	for _, i := range at {
		if _, ours := listed[i].(Strategy); ours {
			keep = i
			break
		}
	}
	label := func(i int) string { return implementation(listed[i]) }
	f.Severity = Error
	f.Problem = fmt.Sprintf("%s names %d strategies of different implementations (%s): the member offers the name %s, the coordinator hands the leader the first entry's subscription and sarama plans with the first strategy of that name, so GroupStrategies[%d] runs and the others never do, and reordering the list swaps them silently",
		name, len(at), entries(at, label), times(len(at)), at[0])
	f.Fix = fmt.Sprintf("list one strategy per protocol name: keep GroupStrategies[%d] (%s) and remove %s",
		keep, label(keep), entries(slices.DeleteFunc(slices.Clone(at), func(i int) bool { return i == keep }), nil))
	return f
}

// entries names the GroupStrategies entries at the indexes at, each followed
// by its label if label is not nil: "GroupStrategies[0] (x) and
// GroupStrategies[2] (y)".
func entries(at []int, label func(int) string) string {
	out := make([]string, len(at))
	for k, i := range at {
		out[k] = fmt.Sprintf("GroupStrategies[%d]", i)
		if label != nil {
			out[k] += " (" + label(i) + ")"
		}
	}
	if len(out) < 3 {
		return strings.Join(out, " and ")
	}
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
}

// times says n times in words: "twice", "3 times".
func times(n int) string {
	if n == 2 {
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// implementation names the code behind s: "saramaassignor's" for this
// package's strategies, whatever their assignor, else s's Go type.
func implementation(s sarama.BalanceStrategy) string {
	if _, ours := s.(Strategy); ours {
		return "saramaassignor's"
	}
	return fmt.Sprintf("%T", s)
}

// identical reports whether a and b are the same strategy value, without
// comparing values whose dynamic type is not comparable (which panics).
func identical(a, b sarama.BalanceStrategy) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	return va.Type() == vb.Type() && va.Comparable() && vb.Comparable() && a == b
}

// checkProtocols finds a cooperative strategy listed with an eager-only one,
// when every strategy supports eager (else sarama's Validate fails), but for
// the first step of a migration when opts acknowledge it.
func checkProtocols(strategies []sarama.BalanceStrategy, opts CheckOptions) *Finding {
	var cooperative, eagerOnly []sarama.BalanceStrategy
	for _, s := range strategies {
		switch {
		case !supports(s, sarama.RebalanceProtocolEager):
			return nil // no common protocol: Validate rejects it
		case supports(s, sarama.RebalanceProtocolCooperative):
			cooperative = append(cooperative, s)
		default:
			eagerOnly = append(eagerOnly, s)
		}
	}
	if len(cooperative) == 0 || len(eagerOnly) == 0 {
		return nil
	}
	e := &Finding{Field: "Consumer.Group.Rebalance.GroupStrategies", Severity: Error}
	if !supports(strategies[0], sarama.RebalanceProtocolCooperative) {
		e.Problem = fmt.Sprintf("%s comes first and %s after it: every member votes for its first strategy, so %s assigns, and sarama runs the eager protocol, so every member stops every partition on each rebalance",
			eagerOnly[0].Name(), names(cooperative), eagerOnly[0].Name())
		e.Fix = fmt.Sprintf("set the list instead of appending to it (sarama.NewConfig puts range there): GroupStrategies = []sarama.BalanceStrategy{%s}", names(cooperative))
		return e
	}
	if opts.Migrating {
		return nil // the first of KIP-429's two deploys, acknowledged
	}
	verb := "supports"
	if strings.Contains(names(eagerOnly), ", ") {
		verb = "support"
	}
	e.Problem = fmt.Sprintf("%s %s only the eager protocol, so sarama runs eager for every strategy, %s included: every member stops every partition on each rebalance",
		names(eagerOnly), verb, names(cooperative))
	e.Fix = fmt.Sprintf("this is right only in the first of KIP-429's two rolling deploys, which CheckConfigWith(c, CheckOptions{Migrating: true}) acknowledges; in the second, list %s alone", names(cooperative))
	return e
}

// checkGeneration finds a member below subscription v2 whose cooperative
// assignor's user data does not carry the generation as Java's 4 bytes.
func checkGeneration(v sarama.KafkaVersion, s sarama.BalanceStrategy) *Finding {
	ours, ok := s.(Strategy)
	if !ok || v.IsAtLeast(sarama.V3_2_0_0) || !v.IsAtLeast(sarama.V2_4_0_0) || !assignor.Supports(ours.Assignor(), assignor.Cooperative) {
		return nil
	}
	layout, size := rebalance.UserDataGeneration(ours.Assignor())
	switch {
	case layout == rebalance.CooperativeLayout:
		return nil
	case layout == rebalance.StickyLayout && s.Name() != "cooperative-sticky":
		// Only this module's leaders read it, under a protocol name no other
		// client implements (cooperative-weighted, say): no Java or sarama
		// leader can run the group's rebalance and misread it. Under
		// cooperative-sticky, shared with Java and sarama, only the 4-byte
		// layout is safe.
		return nil
	}
	e := &Finding{
		Field:    "Version",
		Severity: Error,
		Fix:      "set Version to sarama.V3_2_0_0 or later (subscription v2 carries the generation), or have the assignor send the 4-byte cooperative user data (cooperative.Wrap does, unless Config.InnerUserData is set)",
	}
	if size == 0 {
		e.Problem = fmt.Sprintf("%v sends subscription v1, without generation, and %s's user data carries none: no leader can tell a stale claim from its valid owner's, so such partitions are withheld from both for an extra round",
			v, s.Name())
		return e
	}
	e.Problem = fmt.Sprintf("%v sends subscription v1, without generation, and %s's user data (%d bytes) is not the 4-byte generation Java and sarama leaders read: a Java leader takes its first 4 bytes as the generation (for sticky user data, the topic count), sarama's own leader drops it, and only this module's leaders read the sticky layout's",
		v, s.Name(), size)
	return e
}

func checkRetryBackoff(c *sarama.Config) *Finding {
	backoff := c.Consumer.Group.Rebalance.Retry.Backoff
	if backoff <= maxRetryBackoff {
		return nil
	}
	return &Finding{
		Field:    "Consumer.Group.Rebalance.Retry.Backoff",
		Severity: Warning,
		Problem:  fmt.Sprintf("%v (sarama's default is 2s): in a cooperative rebalance a member that meets the second round in SyncGroup waits this long before it rejoins, and the whole group waits for it", backoff),
		Fix:      fmt.Sprintf("set it to at most %v; 100ms is Java's retry.backoff.ms", maxRetryBackoff),
	}
}

func checkHeartbeat(c *sarama.Config) *Finding {
	hb, session := c.Consumer.Group.Heartbeat.Interval, c.Consumer.Group.Session.Timeout
	if hb >= session || hb*3 <= session {
		return nil // at or above the session, Validate rejects it
	}
	return &Finding{
		Field:    "Consumer.Group.Heartbeat.Interval",
		Severity: Warning,
		Problem:  fmt.Sprintf("%v is above a third of Consumer.Group.Session.Timeout (%v): members learn of a cooperative second round only from their next heartbeat, and two late heartbeats cost a member its partitions", hb, session),
		Fix:      fmt.Sprintf("set it to at most %v, as Kafka and sarama advise, or lengthen the session", session/3),
	}
}

func checkMaxWaitTime(c *sarama.Config) *Finding {
	wait, hb := c.Consumer.MaxWaitTime, c.Consumer.Group.Heartbeat.Interval
	if wait <= hb {
		return nil
	}
	return &Finding{
		Field:    "Consumer.MaxWaitTime",
		Severity: Warning,
		Problem:  fmt.Sprintf("%v is above Consumer.Group.Heartbeat.Interval (%v): sarama sends fetches and group requests over one connection per broker, answered in order, so each heartbeat, JoinGroup and SyncGroup can wait behind a fetch of up to %v, and with Session.Timeout %v a member can miss its session during a rebalance", wait, hb, wait, c.Consumer.Group.Session.Timeout),
		Fix:      fmt.Sprintf("set it to at most %v (100ms with a 300ms heartbeat works), or lengthen the heartbeat and the session", hb),
	}
}
