package contender

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/kafka"
)

// jvmTimed is what every Kafka contender's timed section shares.
const jvmTimed = "; in a JVM of its own (Java 17+, G1, heap fixed and touched before use: -Xms = -Xmx = 1 GiB + 5 MiB per 1,000 partitions, -XX:+AlwaysPreTouch), after at least 3 warm-up runs and up to 2 s of them; timed runs as the Go contenders' (one, more up to 5 within 300 ms, up to 15 within 30 ms), each after System.gc(); the time is System.nanoTime around assign() alone, measured in the JVM, and the median run is reported"

func init() {
	brokerKept := "kept between rebalances as Kafka's group coordinator keeps them (built once): the KRaft metadata image, each member's target assignment (its owned partitions) and the inverted target assignment, topic ID → partition → member"
	brokerBuilt := "built untimed before each run as TargetAssignmentBuilder builds them for every rebalance: one MemberSubscriptionAndAssignmentImpl per member (topics as TopicIds over a fresh CachedTopicResolver, resolved inside assign), GroupSpecImpl (subscription type homogeneous when every member subscribes to the same topics, else heterogeneous), SubscribedTopicDescriberImpl over the image"
	Register(Contender{Key: "kafka-uniform", Name: "Kafka uniform (broker, KIP-848)", Family: "kafka", Core: true, Setup: setUpKafka, About: aboutKafka, Order: 45,
		Timed: "Kafka 4.4.0's UniformAssignor.assign(GroupSpec, SubscribedTopicDescriber) alone; " + brokerKept + " (in the coordinator's TimelineHashMaps); " + brokerBuilt + jvmTimed,
		New:   func() Runner { return &kafkaRunner{assignor: kafka.Uniform} }})
	Register(Contender{Key: "kafka-uniform-hashmaps", Name: "Kafka uniform, owners in HashMaps", Family: "kafka", Core: true, Setup: setUpKafka, About: aboutKafka, Order: 46,
		Timed: "as kafka-uniform, with the inverted target assignment handed over in java.util.HashMaps, as Kafka's jmh ServerSideAssignorBenchmark builds it, instead of the coordinator's TimelineHashMaps" + jvmTimed,
		New:   func() Runner { return &kafkaRunner{assignor: kafka.UniformHashMaps} }})
	Register(Contender{Key: "kafka-range", Name: "Kafka range (broker, KIP-848)", Family: "kafka", Core: true, Setup: setUpKafka, About: aboutKafka, Order: 47,
		Timed: "Kafka 4.4.0's RangeAssignor.assign(GroupSpec, SubscribedTopicDescriber) alone; " + brokerKept + " (TimelineHashMaps); " + brokerBuilt + jvmTimed,
		New:   func() Runner { return &kafkaRunner{assignor: kafka.Range} }})
	Register(Contender{Key: "java-coop-sticky", Name: "Java client CooperativeStickyAssignor", Family: "kafka", Core: true, Cooperative: true, Setup: setUpKafka, About: aboutKafka, Order: 48,
		Timed: "kafka-clients 4.4.0's CooperativeStickyAssignor.assign(Cluster, GroupSubscription) alone, the call the classic leader makes after decoding the members' JoinGroup metadata (the leader's assignor instance and a Cluster of every partition kept between rebalances); built untimed before each run: every member's Subscription (topics, owned partitions, generation, the user data the member's own CooperativeStickyAssignor writes)" + jvmTimed,
		New:   func() Runner { return &kafkaRunner{assignor: kafka.CooperativeSticky} }})
}

var kafkaSetup struct {
	once    sync.Once
	harness *kafka.Harness
	err     error
}

// setUpKafka builds the Java harness once and hands it to the child
// processes through the environment.
func setUpKafka(log io.Writer) error {
	kafkaSetup.once.Do(func() {
		h, err := kafka.Build(context.Background(), log)
		if err == nil {
			name, value, _ := strings.Cut(h.Env(), "=")
			err = os.Setenv(name, value)
		}
		kafkaSetup.harness, kafkaSetup.err = h, err
	})
	return kafkaSetup.err
}

// aboutKafka states the Kafka contenders' runtime and its settings.
func aboutKafka() string {
	v := "Java"
	if h := kafkaSetup.harness; h != nil && h.Version != "" {
		v = h.Version
	}
	o := kafka.DefaultOptions()
	return fmt.Sprintf("Kafka contenders: Apache Kafka 4.4.0 (kafka-group-coordinator, kafka-clients) on %s, a JVM per run: G1, heap fixed and touched before use (-Xms = -Xmx = 1 GiB + 5 MiB per 1,000 partitions, -XX:+AlwaysPreTouch); at least %d warm-up runs, more up to %s; then %d timed run, more up to %d within %s and up to %d within %s, each after System.gc(); the median timed run is reported",
		v, o.Warmup.MinRuns, o.Warmup.Spend, o.Timed.MinRuns, o.Timed.MaxRuns, o.Timed.Spend, o.Timed.QuickRuns, o.Timed.QuickSpend)
}

// kafkaHarness returns the harness a parent handed over, or builds it (a
// test or a child started by hand).
func kafkaHarness() (*kafka.Harness, error) {
	if h, err := kafka.FromEnv(); err == nil {
		return h, nil
	}
	if err := setUpKafka(io.Discard); err != nil {
		return nil, err
	}
	return kafkaSetup.harness, nil
}

// kafkaRunner runs one of Kafka's assignors in the Java harness (package
// kafka) on the members' group: their topics, racks, owned partitions and
// generations, which the harness turns into what Kafka hands that assignor.
type kafkaRunner struct {
	assignor kafka.Assignor
	group    assignor.Group
	result   kafka.Result
}

func (r *kafkaRunner) Prepare(topics []assignor.Topic, members []MemberJoin, _ int32) error {
	r.group = assignor.Group{Topics: topics, Members: make([]assignor.Member, len(members))}
	for i, m := range members {
		r.group.Members[i] = assignor.Member{ID: m.ID, Rack: m.Rack, Topics: m.Topics, Owned: m.Owned, Generation: m.Generation}
	}
	return nil
}

func (r *kafkaRunner) run(opt kafka.Options) error {
	h, err := kafkaHarness()
	if err != nil {
		return fmt.Errorf("contender: %w", err)
	}
	res, err := h.Run(context.Background(), r.assignor, []assignor.Group{r.group}, opt)
	if err != nil {
		return fmt.Errorf("contender: %w", err)
	}
	r.result = res[0]
	return nil
}

// Lead runs the assignor once, untimed, for its plan.
func (r *kafkaRunner) Lead() error { return r.run(kafka.PlanOnly()) }

func (r *kafkaRunner) Measure(capPerRun time.Duration) ([]TimedRun, error) {
	opt := kafka.DefaultOptions()
	opt.Cap = capPerRun
	if err := r.run(opt); err != nil {
		return nil, err
	}
	if r.result.Capped {
		return nil, fmt.Errorf("contender: %s: %w (%s)", r.assignor, ErrOverCap, capPerRun)
	}
	runs := make([]TimedRun, len(r.result.Times))
	for i, t := range r.result.Times {
		runs[i] = TimedRun{Nanos: t.Nanoseconds(), AllocBytes: r.result.AllocBytes[i], GCs: r.result.GCs[i]}
	}
	return runs, nil
}

func (r *kafkaRunner) Result() ([]Assignment, error) {
	out := make([]Assignment, len(r.result.Plan.Members))
	for i, mp := range r.result.Plan.Members {
		out[i] = Assignment{Member: mp.Member, Partitions: mp.Assigned}
	}
	return out, nil
}

var _ SelfTimed = (*kafkaRunner)(nil)
