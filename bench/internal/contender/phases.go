package contender

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/kgroup/assignor"
)

// Phase is one timed step of a Lead, or one step of the work a Lead
// contains timed on its own.
type Phase struct {
	Name  string `json:"name"`
	Nanos int64  `json:"nanos"`
}

// The phases runners report.
const (
	PhaseDecode = "decode" // the client's decoding of every member's metadata
	PhasePlan   = "plan"   // the strategy's or balancer's plan, from decoded metadata to the client's plan type
	PhaseEncode = "encode" // the client's encoding of every assignment
	PhaseCore   = "core"   // Assign alone on the same group, timed apart
	PhaseFill   = "fill"   // the least work of filling sarama's plan maps, timed apart
)

// Phased is a Runner that times the steps of its Lead. Phases returns
// those of the last Lead, and Split times, apart from any Lead, the work
// inside its plan step that is not the adapter's own (Assign alone, and
// for sarama the least cost of filling its plan maps); Split returns nil
// for a runner that is not one of our adapters.
type Phased interface {
	Runner
	Phases() []Phase
	Split() ([]Phase, error)
}

// stopwatch records the phases of one Lead.
type stopwatch struct {
	phases []Phase
	last   time.Time
}

func (s *stopwatch) start() { s.phases, s.last = s.phases[:0], time.Now() }

func (s *stopwatch) lap(name string) {
	now := time.Now()
	s.phases = append(s.phases, Phase{Name: name, Nanos: now.Sub(s.last).Nanoseconds()})
	s.last = now
}

// splitReps is how many times Split runs each step; it reports the median.
const splitReps = 3

// split times Assign alone on the group the members make, and, if fill is
// set, the least work of turning that plan into sarama's plan type: one map
// per member with one entry per member and topic, each sized up front, the
// plan's own partition slices reused.
func split(a assignor.Assignor, topics []assignor.Topic, members []MemberJoin, fill bool) ([]Phase, error) {
	g := assignor.Group{Topics: topics, Members: make([]assignor.Member, len(members))}
	for i, m := range members {
		g.Members[i] = assignor.Member{ID: m.ID, Rack: m.Rack, Topics: m.Topics, Owned: m.Owned, Generation: m.Generation}
	}
	var plan assignor.Plan
	core, err := median(func() error {
		var err error
		plan, err = a.Assign(g)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("contender: split: Assign: %w", err)
	}
	out := []Phase{{Name: PhaseCore, Nanos: core}}
	if fill {
		var sink map[string]map[string][]int32
		n, _ := median(func() error {
			sink = make(map[string]map[string][]int32, len(plan.Members))
			for _, mp := range plan.Members {
				topics := make(map[string][]int32, len(mp.Assigned))
				for _, tp := range mp.Assigned {
					topics[tp.Topic] = tp.Partitions
				}
				sink[mp.Member] = topics
			}
			return nil
		})
		_ = sink
		out = append(out, Phase{Name: PhaseFill, Nanos: n})
	}
	return out, nil
}

// median runs f splitReps times, each after a GC, and returns the median
// time.
func median(f func() error) (int64, error) {
	times := make([]int64, 0, splitReps)
	for range splitReps {
		runtime.GC()
		start := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		times = append(times, time.Since(start).Nanoseconds())
	}
	slices.SortFunc(times, cmp.Compare)
	return times[len(times)/2], nil
}

// Proof that the runners that time their phases do.
var (
	_ Phased = (*saramaRunner)(nil)
	_ Phased = (*franzRunner)(nil)
)
