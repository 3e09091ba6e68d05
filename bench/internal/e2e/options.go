package e2e

import (
	"maps"
	"slices"
	"time"

	ibm "github.com/IBM/sarama"
)

// Options configures a [Harness]. Zero fields take the defaults noted.
type Options struct {
	// Group is the consumer group ID. Default "e2e".
	Group string
	// Topics maps topic names to partition counts. Default two topics of 12.
	Topics map[string]int32
	// Rate is the number of records produced per second, spread evenly over
	// every partition (at least 50 when positive). Default 600; negative
	// produces nothing (members then learn of rebalances from heartbeats
	// alone).
	Rate int
	// Session, Heartbeat and RebalanceTimeout are the members' group
	// timeouts. Defaults 1.5 s, 150 ms and 10 s.
	Session, Heartbeat, RebalanceTimeout time.Duration
	// KgoSession and KgoHeartbeat, if set, replace Session and Heartbeat for
	// franz-go members (whose defaults differ from sarama's: see
	// [ClientDefaults]).
	KgoSession, KgoHeartbeat time.Duration
	// RetryBackoff is sarama's Consumer.Group.Rebalance.Retry.Backoff.
	// Default 50 ms (sarama's own default is 2 s).
	RetryBackoff time.Duration
	// Jitter, if positive, makes each script step wait a random time in
	// [0, Jitter) once the group is stable, so that the next event falls at
	// a random point of the members' heartbeat cycle. Without it a script's
	// events come at a fixed delay after each sync, which favours whichever
	// client happens to heartbeat soonest after that delay (kgo's
	// cooperative members heartbeat 500 ms after a sync, then every
	// interval; its eager members first after one interval). Default 0.
	Jitter time.Duration
	// ConsumerHeartbeat and ConsumerSession are the KIP-848 consumer
	// protocol's heartbeat interval and session timeout, which the broker
	// sets (group.consumer.heartbeat.interval.ms and
	// group.consumer.session.timeout.ms; on kfake as broker configs, on an
	// external broker as the group's own consumer.heartbeat.interval.ms and
	// consumer.session.timeout.ms). Defaults KgoHeartbeat and KgoSession, so
	// that both protocols run at the same timings.
	ConsumerHeartbeat, ConsumerSession time.Duration
	// ConsumerAssignmentInterval, if nonzero, is the group's
	// consumer.assignment.interval.ms on an external broker: the least time
	// between two target assignments of a consumer-protocol group (KIP-1263;
	// Kafka 4.4's default is 1 s, and kfake has no such interval); negative
	// sets 0, an assignment for every change. Zero leaves the broker's
	// default.
	ConsumerAssignmentInterval time.Duration
	// Work is what each franz-go member pays to process records (none by
	// default).
	Work Work
	// Brokers, if set, are the addresses of an external cluster (for
	// example Apache Kafka 4.4 started by bench/interop/kafka.sh) to run on
	// instead of an in-process kfake; Topics are then created with one
	// replica and must be new names (the harness does not delete them).
	// See [Harness] for what an external broker cannot show.
	Brokers []string
	// Tune, if set, adjusts each sarama member's configuration last (for
	// example to restore sarama's defaults).
	Tune func(*ibm.Config)
	// Logf, if set, receives progress lines.
	Logf func(format string, args ...any)
}

func (o *Options) defaults() {
	if o.Group == "" {
		o.Group = "e2e"
	}
	if len(o.Topics) == 0 {
		o.Topics = map[string]int32{"orders": 12, "payments": 12}
	}
	if o.Rate == 0 {
		o.Rate = 600
	}
	if o.Session == 0 {
		o.Session = 1500 * time.Millisecond
	}
	if o.Heartbeat == 0 {
		o.Heartbeat = 150 * time.Millisecond
	}
	if o.RebalanceTimeout == 0 {
		o.RebalanceTimeout = 10 * time.Second
	}
	if o.RetryBackoff == 0 {
		o.RetryBackoff = 50 * time.Millisecond
	}
	if o.KgoSession == 0 {
		o.KgoSession = o.Session
	}
	if o.KgoHeartbeat == 0 {
		o.KgoHeartbeat = o.Heartbeat
	}
	if o.ConsumerSession == 0 {
		o.ConsumerSession = o.KgoSession
	}
	if o.ConsumerHeartbeat == 0 {
		o.ConsumerHeartbeat = o.KgoHeartbeat
	}
}

// ClientDefaults returns options with each client's own default group
// timings instead of the harness's short ones: sarama v1.61 heartbeats every
// 3 s with a 10 s session, a 60 s rebalance timeout and a 2 s retry
// backoff; franz-go v1.22 heartbeats every 3 s with a 45 s session; the
// KIP-848 consumer protocol's broker defaults (Kafka 4.x and kfake) are a
// 5 s heartbeat and a 45 s session.
func ClientDefaults() Options {
	return Options{
		Session: 10 * time.Second, Heartbeat: 3 * time.Second, RebalanceTimeout: 60 * time.Second,
		RetryBackoff: 2 * time.Second,
		KgoSession:   45 * time.Second, KgoHeartbeat: 3 * time.Second,
		ConsumerSession: 45 * time.Second, ConsumerHeartbeat: 5 * time.Second,
	}
}

// stableTimeout bounds one wait for a stable group: at least
// stableTimeoutMin, and long enough for a crashed member's session to
// expire and the group to rebalance after it.
func (o *Options) stableTimeout() time.Duration {
	return max(stableTimeoutMin, 2*max(o.Session, o.KgoSession, o.ConsumerSession)+o.Heartbeat+max(o.KgoHeartbeat, o.ConsumerHeartbeat))
}

func (o *Options) topicNames() []string { return slices.Sorted(maps.Keys(o.Topics)) }
