package contender

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/kgroup/assignor"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// MemberJoin is what the harness knows of one member when it joins.
type MemberJoin struct {
	ID     string
	Topics []string // sorted
	Rack   string
	// Owned is what the member was last given, sorted by topic then
	// partition; nil for a member with no history.
	Owned []assignor.TopicPartitions
	// Generation is the generation of Owned, or assignor.NoGeneration.
	Generation int32
	// AssignmentUserData is the user data of the member's last assignment.
	AssignmentUserData []byte
}

// Assignment is one member's decoded assignment.
type Assignment struct {
	Member     string
	Partitions []assignor.TopicPartitions // sorted by topic, then partition
	UserData   []byte
}

// Runner runs one contender for one rebalance. A Runner is used by one
// goroutine: Prepare once, then Lead once or more, then Result.
type Runner interface {
	// Prepare encodes each member's JoinGroup metadata from its history, and
	// the topic metadata in the form the contender takes (untimed).
	Prepare(topics []assignor.Topic, members []MemberJoin, generation int32) error
	// Lead does the leader's work (timed). Each call starts again from the
	// prepared bytes.
	Lead() error
	// Result decodes what the last Lead produced: one entry per member that
	// the leader sent an assignment to, in member ID order (untimed).
	Result() ([]Assignment, error)
}

// Contender describes one contender.
type Contender struct {
	// Key is the short name used on the command line and in child jobs.
	Key string
	// Name is the name shown in tables: library and protocol.
	Name string
	// Family is "ours", "franz-go", "sarama" or "floor".
	Family string
	// Cooperative reports whether the contender uses the cooperative
	// protocol (members send owned partitions; plans may withhold).
	Cooperative bool
	// Racks reports whether the contender can take member and replica racks.
	Racks bool
	// Core marks our Assign-only rows.
	Core bool
	// Floor marks the floor.
	Floor bool
	// Timed says exactly what the contender's timed section (Lead)
	// contains, for results.md.
	Timed string
	// Order places the contender in tables.
	Order int
	// New returns a fresh runner.
	New func() Runner `json:"-"`
	// Setup, if set, prepares what the contender needs outside this
	// program (a JVM harness, say); the bench calls it once in the parent
	// process before any job, and drops the contender with one line saying
	// why when it fails. Setup must leave in the environment whatever the
	// child processes need. Safe to call more than once.
	Setup func(log io.Writer) error `json:"-"`
	// About, if set, returns a line for the results' setting (the runtime
	// and its settings) after a successful Setup; contenders that share a
	// runtime return the same line, printed once.
	About func() string `json:"-"`
}

// SelfTimed is a Runner whose timed section runs outside this process (in
// a JVM), which times it itself: the bench calls Measure, once, instead of
// timing Lead. Lead still does one untimed run for rounds that want a plan
// alone (history, follow-up, scripts).
type SelfTimed interface {
	Runner
	// Measure warms the contender up on the prepared input and times its
	// runs, each within capPerRun, and returns every timed run; Result then
	// returns the last timed run's plan. It returns an error wrapping
	// [ErrOverCap] when a run outlasts capPerRun.
	Measure(capPerRun time.Duration) ([]TimedRun, error)
}

// TimedRun is one run timed by a [SelfTimed] runner.
type TimedRun struct {
	Nanos      int64
	AllocBytes uint64
	GCs        uint32
}

// ErrOverCap is wrapped by [SelfTimed.Measure]'s error when a run outlasts
// the cap.
var ErrOverCap = errors.New("contender: a run outlasted the cap")

var registry []Contender

// Register adds a contender to [All] and [Lookup]; the benchmark's own
// contenders register themselves in init functions. Not safe for concurrent use.
func Register(c Contender) { registry = append(registry, c) }

// All returns every contender compiled in, in table order.
func All() []Contender {
	out := slices.Clone(registry)
	slices.SortFunc(out, func(a, b Contender) int { return cmp.Compare(a.Order, b.Order) })
	return out
}

// Lookup returns the contender with the given key.
func Lookup(key string) (Contender, bool) {
	for _, c := range registry {
		if c.Key == key {
			return c, true
		}
	}
	return Contender{}, false
}

// decodeAssignment decodes a ConsumerMemberAssignment with kmsg into the
// canonical set of its partitions (see [assignor.NormalizeTopicPartitions]).
// An assignment that lists one partition twice is kept as sent, so that the
// judge ([assignor.CheckPlan]) reports it rather than a set hiding it.
func decodeAssignment(member string, b []byte) (Assignment, error) {
	a := Assignment{Member: member}
	if len(b) == 0 { // the broker sends empty bytes to a member the leader left out
		return a, nil
	}
	var k kmsg.ConsumerMemberAssignment
	if err := k.ReadFrom(b); err != nil {
		return a, fmt.Errorf("contender: member %q: decoding assignment (%d bytes) with kmsg: %w", member, len(b), err)
	}
	a.UserData = k.UserData
	sent := make([]assignor.TopicPartitions, len(k.Topics))
	for i, t := range k.Topics {
		sent[i] = assignor.TopicPartitions{Topic: t.Topic, Partitions: t.Partitions}
	}
	a.Partitions = assignor.NormalizeTopicPartitions(sent)
	if assignor.CountPartitions(a.Partitions) != assignor.CountPartitions(sent) {
		a.Partitions = sent
	}
	return a, nil
}

func sortAssignments(as []Assignment) {
	slices.SortFunc(as, func(a, b Assignment) int { return cmp.Compare(a.Member, b.Member) })
}
