package saramaassignor

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/rebalance"
)

// ConfigError is one finding of [CheckConfig]: a setting that sarama's own
// Config.Validate accepts but that costs a cooperative group what it is
// for. Its text names the setting, what goes wrong, and the fix:
//
//	sarama: Consumer.Group.Rebalance.GroupStrategies: range comes first and cooperative-sticky after it: …; set the list instead of appending to it: …
type ConfigError struct {
	// Setting is the sarama.Config field at fault, as written in Go, such
	// as "Consumer.Group.Rebalance.GroupStrategies".
	Setting string
	// Problem says what the value set does to the group.
	Problem string
	// Fix says what to set instead.
	Fix string
}

func (e *ConfigError) Error() string {
	return "saramaassignor: " + e.Setting + ": " + e.Problem + "; " + e.Fix
}

// Thresholds of [CheckConfig].
const (
	// maxRetryBackoff is the longest Rebalance.Retry.Backoff CheckConfig
	// accepts in a cooperative group: five times Java's retry.backoff.ms.
	maxRetryBackoff = 500 * time.Millisecond
)

// CheckConfig reports what in c, the config of one consumer group member,
// makes a group with a cooperative strategy fall back to eager, lose the
// generation of its claims, or run slow second rounds — what sarama's own
// Config.Validate does not catch (it already rejects a cooperative strategy
// below V2_4_0_0 and a heartbeat at or above the session timeout, and
// NewConsumerGroup calls it). Each finding is a [*ConfigError] naming the
// setting and carrying the fix; they come joined with [errors.Join], nil if
// there are none. CheckConfig reads c and calls no broker; it calls each
// strategy's SupportedProtocols, and the subscription user data hook of the
// assignors inside this package's strategies (with a made-up member state;
// the assignors of this module keep no state).
//
// The findings:
//
//   - Consumer.Group.Rebalance.Strategy (deprecated) is set while
//     GroupStrategies lists others: sarama uses Strategy alone.
//   - Consumer.Group.Rebalance.GroupStrategies lists a cooperative strategy
//     with one that supports only eager: sarama then runs the eager
//     protocol for every strategy, so every member stops every partition on
//     each rebalance. With an eager strategy first (ours appended to
//     sarama.NewConfig's range) the members also vote for it, so it
//     assigns. Listing both is right only during the first of KIP-429's two
//     rolling deploys.
//   - Version below V3_2_0_0 (subscription v1: owned partitions, no
//     generation) with a cooperative assignor whose subscription user data
//     is not the 4-byte generation Java and sarama leaders read, such as
//     cooperative.WrapWithConfig(sticky.New(), cooperative.Config{InnerUserData: true}):
//     a Java leader takes the first 4 bytes as the generation (for sticky
//     user data, its topic count) and sarama's own leader drops it; this
//     module's leaders read the sticky layout's generation. With no user
//     data at all, no leader learns a generation.
//   - Consumer.Group.Rebalance.Retry.Backoff above 500 ms in a cooperative
//     group (sarama's default is 2 s): a member that meets the second round
//     in SyncGroup waits this long before it rejoins, and the group waits
//     for it. Java's retry.backoff.ms is 100 ms.
//   - Consumer.Group.Heartbeat.Interval above a third of
//     Consumer.Group.Session.Timeout (Kafka's and sarama's own advice):
//     members learn of a second round from their next heartbeat, and two
//     late heartbeats lose the member its partitions.
//   - Consumer.MaxWaitTime above Consumer.Group.Heartbeat.Interval: sarama
//     sends fetches and group requests over one connection per broker, and a
//     broker answers a connection in order, so every heartbeat and join can
//     wait behind a fetch long-poll; with a short session that stretched
//     cooperative rounds to tens of seconds and got a member evicted
//     (docs/sarama.md).
func CheckConfig(c *sarama.Config) error {
	if c == nil {
		return errors.New("saramaassignor: CheckConfig: nil config")
	}
	var errs []error
	add := func(e *ConfigError) {
		if e != nil {
			errs = append(errs, e)
		}
	}
	strategies := slices.DeleteFunc(effectiveStrategies(c), func(s sarama.BalanceStrategy) bool { return s == nil })
	add(checkDeprecatedStrategy(c))
	add(checkProtocols(strategies))
	for _, s := range strategies {
		add(checkGeneration(c.Version, s))
	}
	if runsCooperative(strategies) {
		add(checkRetryBackoff(c))
	}
	add(checkHeartbeat(c))
	add(checkMaxWaitTime(c))
	return errors.Join(errs...)
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

func names(strategies []sarama.BalanceStrategy) string {
	out := make([]string, len(strategies))
	for i, s := range strategies {
		out[i] = s.Name()
	}
	return strings.Join(out, ", ")
}

func checkDeprecatedStrategy(c *sarama.Config) *ConfigError {
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
	return &ConfigError{
		Setting: "Consumer.Group.Rebalance.Strategy",
		Problem: fmt.Sprintf("it is set (to %s), so sarama ignores GroupStrategies (%s)", s.Name(), names(ignored)),
		Fix:     "leave Strategy nil and set GroupStrategies to the strategies the member offers",
	}
}

// checkProtocols finds a cooperative strategy listed with an eager-only one,
// when every strategy supports eager (else sarama's Validate fails).
func checkProtocols(strategies []sarama.BalanceStrategy) *ConfigError {
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
	e := &ConfigError{Setting: "Consumer.Group.Rebalance.GroupStrategies"}
	if !supports(strategies[0], sarama.RebalanceProtocolCooperative) {
		e.Problem = fmt.Sprintf("%s comes first and %s after it: every member votes for its first strategy, so %s assigns, and sarama runs the eager protocol, so every member stops every partition on each rebalance",
			eagerOnly[0].Name(), names(cooperative), eagerOnly[0].Name())
		e.Fix = fmt.Sprintf("set the list instead of appending to it (sarama.NewConfig puts range there): GroupStrategies = []sarama.BalanceStrategy{%s}", names(cooperative))
		return e
	}
	verb := "supports"
	if len(eagerOnly) > 1 {
		verb = "support"
	}
	e.Problem = fmt.Sprintf("%s %s only the eager protocol, so sarama runs eager for every strategy, %s included: every member stops every partition on each rebalance",
		names(eagerOnly), verb, names(cooperative))
	e.Fix = fmt.Sprintf("this is right only in the first of KIP-429's two rolling deploys; in the second, list %s alone", names(cooperative))
	return e
}

// checkGeneration finds a member below subscription v2 whose cooperative
// assignor's user data does not carry the generation as Java's 4 bytes.
func checkGeneration(v sarama.KafkaVersion, s sarama.BalanceStrategy) *ConfigError {
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
	e := &ConfigError{
		Setting: "Version",
		Fix:     "set Version to sarama.V3_2_0_0 or later (subscription v2 carries the generation), or have the assignor send the 4-byte cooperative user data (cooperative.Wrap does, unless Config.InnerUserData is set)",
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

func checkRetryBackoff(c *sarama.Config) *ConfigError {
	backoff := c.Consumer.Group.Rebalance.Retry.Backoff
	if backoff <= maxRetryBackoff {
		return nil
	}
	return &ConfigError{
		Setting: "Consumer.Group.Rebalance.Retry.Backoff",
		Problem: fmt.Sprintf("%v (sarama's default is 2s): in a cooperative rebalance a member that meets the second round in SyncGroup waits this long before it rejoins, and the whole group waits for it", backoff),
		Fix:     fmt.Sprintf("set it to at most %v; 100ms is Java's retry.backoff.ms", maxRetryBackoff),
	}
}

func checkHeartbeat(c *sarama.Config) *ConfigError {
	hb, session := c.Consumer.Group.Heartbeat.Interval, c.Consumer.Group.Session.Timeout
	if hb >= session || hb*3 <= session {
		return nil // at or above the session, Validate rejects it
	}
	return &ConfigError{
		Setting: "Consumer.Group.Heartbeat.Interval",
		Problem: fmt.Sprintf("%v is above a third of Consumer.Group.Session.Timeout (%v): members learn of a cooperative second round only from their next heartbeat, and two late heartbeats cost a member its partitions", hb, session),
		Fix:     fmt.Sprintf("set it to at most %v, as Kafka and sarama advise, or lengthen the session", session/3),
	}
}

func checkMaxWaitTime(c *sarama.Config) *ConfigError {
	wait, hb := c.Consumer.MaxWaitTime, c.Consumer.Group.Heartbeat.Interval
	if wait <= hb {
		return nil
	}
	return &ConfigError{
		Setting: "Consumer.MaxWaitTime",
		Problem: fmt.Sprintf("%v is above Consumer.Group.Heartbeat.Interval (%v): sarama sends fetches and group requests over one connection per broker, answered in order, so each heartbeat, JoinGroup and SyncGroup can wait behind a fetch of up to %v, and with Session.Timeout %v a member can miss its session during a rebalance", wait, hb, wait, c.Consumer.Group.Session.Timeout),
		Fix:     fmt.Sprintf("set it to at most %v (100ms with a 300ms heartbeat works), or lengthen the heartbeat and the session", hb),
	}
}
