package weighted

import (
	"fmt"
	"math"
	"slices"

	"github.com/kgroup/assignor"
)

// Config holds the options of the weighted assignor. The zero value is the
// default; [NewWithConfig] rejects the values listed as invalid. Java has
// no load-aware assignor, so no field has a Java property.
type Config struct {
	// CountTolerance (partitions) is how many partitions more, or fewer, than
	// its band in the count-balanced plans a member may hold (never down to
	// none from a band above 0): with the default, 1, a member whose
	// count-balanced share is 10 partitions holds 9 to 11. 0 means the
	// default; negative is invalid. See StrictCounts for no tolerance at
	// all.
	CountTolerance int
	// StrictCounts keeps every member within its count-balanced band (a
	// tolerance of 0: the counts sticky would give), overriding
	// CountTolerance. Default false.
	StrictCounts bool
	// HysteresisPercent (percent of the best heaviest load) is the
	// hysteresis margin: with the same members and subscriptions nothing
	// moves, and after a member leaves only its partitions are placed,
	// unless the heaviest member is then more than this much above the best
	// load the solver reaches. 0 means the default, 10 (10%); negative,
	// above 100 or NaN is invalid; it counts to a millionth (0.0001%). See
	// NoHysteresis.
	HysteresisPercent float64
	// NoHysteresis sets the margin to 0, overriding HysteresisPercent: the
	// plan moves partitions whenever that lowers the heaviest load beyond
	// the tie band. Default false.
	NoHysteresis bool
	// TiePercent (percent) is the tie band: heaviest loads within this much
	// of each other, and sums of squared loads within this much, count as
	// equal, so that racks and then moves decide. 0 means the default, 1
	// (1%); negative, above 100 or NaN is invalid; it counts to a millionth
	// (0.0001%).
	TiePercent float64
	// DefaultWeight is the weight of a partition whose weight is unknown
	// ([assignor.UnknownWeight], or a topic without Weights). 0 means the
	// default: the mean of the known weights, rounded to the nearest
	// integer (1 when no weight is known, so that the plan balances
	// counts); negative is invalid.
	DefaultWeight int64
	// Weights, when set, supplies on the leader the weights that the Group
	// leaves unknown (a topic without Weights, or entries equal to
	// [assignor.UnknownWeight]): it is called once per Assign, only when
	// some weight is unknown, with those topics (sorted by name, each with
	// all its partition IDs, ascending), and returns one entry per topic in
	// that order: nil for a topic it does not know, else one weight per
	// partition ID ([assignor.UnknownWeight] for one it does not know). It
	// is for clients whose adapters build the Group from their own
	// metadata, which carries no weights. It runs between JoinGroup and
	// SyncGroup while the group waits, so it must answer fast (package
	// weighted/source adds a deadline and a cache to a fetch). An answer of
	// the wrong shape, or a weight below UnknownWeight, is an error naming
	// the topic; the Group's own weights win over supplied ones. Nil (the
	// default): only the Group's weights count.
	Weights func(topics []assignor.TopicPartitions) [][]int64
	// Meter, when set, makes this member report what it measured of its
	// partitions' load in its subscription user data (version 1), and take
	// the weights the leader carries to it with partitions it receives.
	// One Meter per member (so one Assignor per member). The leader reads
	// every member's report whether or not it has a Meter itself. Nil (the
	// default): version 0, no report.
	Meter *Meter
	// IgnoreRacks turns rack-aware placement (KIP-881) off, as in sticky.
	// Default false: racks count whenever some member has a rack and some
	// topic has replica racks, after the loads (within the band) and before
	// moves.
	IgnoreRacks bool
}

// solverConfig returns the solver's knobs for c, or an error naming the
// invalid field.
func (c Config) solverConfig() (config, error) {
	sc := defaultConfig()
	switch {
	case c.CountTolerance < 0 || c.CountTolerance > 1<<30:
		return sc, fmt.Errorf("weighted: Config.CountTolerance %d outside 0..2^30", c.CountTolerance)
	case c.DefaultWeight < 0:
		return sc, fmt.Errorf("weighted: Config.DefaultWeight %d below 0", c.DefaultWeight)
	}
	margin, err := perMillion("HysteresisPercent", c.HysteresisPercent)
	if err != nil {
		return sc, err
	}
	tie, err := perMillion("TiePercent", c.TiePercent)
	if err != nil {
		return sc, err
	}
	if c.CountTolerance > 0 {
		sc.countTolerance = int32(c.CountTolerance)
	}
	if c.StrictCounts {
		sc.countTolerance = 0
	}
	if margin > 0 {
		sc.marginPPM = margin
	}
	if c.NoHysteresis {
		sc.marginPPM = 0
	}
	if tie > 0 {
		sc.bandPPM = tie
	}
	return sc, sc.validate()
}

// perMillion returns percent in millionths of the whole (10% is 100000), or
// an error naming the field when it is negative, above 100, NaN, or so
// small that it rounds to 0.
func perMillion(field string, percent float64) (int64, error) {
	if !(percent >= 0 && percent <= 100) {
		return 0, fmt.Errorf("weighted: Config.%s %v outside 0..100", field, percent)
	}
	ppm := int64(math.Round(percent * 1e4))
	if percent > 0 && ppm == 0 {
		return 0, fmt.Errorf("weighted: Config.%s %v below 0.0001", field, percent)
	}
	return ppm, nil
}

// Assignor is the weighted (load-aware) assignor. It is safe for concurrent
// use: it keeps no state between calls.
type Assignor struct {
	cfg    Config
	solver config
}

var (
	_ assignor.Assignor                     = (*Assignor)(nil)
	_ assignor.ProtocolAssignor             = (*Assignor)(nil)
	_ assignor.BalancedAssignor             = (*Assignor)(nil)
	_ assignor.StickyAssignor               = (*Assignor)(nil)
	_ assignor.FlatAssignor                 = (*Assignor)(nil)
	_ assignor.SubscriptionUserDataAssignor = (*Assignor)(nil)
	_ assignor.AssignmentObserver           = (*Assignor)(nil)
)

// New returns the weighted assignor with the default configuration.
func New() *Assignor { return &Assignor{solver: defaultConfig()} }

// NewWithConfig returns the weighted assignor with configuration cfg, or an
// error naming the first invalid field.
func NewWithConfig(cfg Config) (*Assignor, error) {
	sc, err := cfg.solverConfig()
	if err != nil {
		return nil, err
	}
	return &Assignor{cfg: cfg, solver: sc}, nil
}

// Name returns "weighted", the protocol name of the eager assignor; wrapped
// by the cooperative package it is "cooperative-weighted". No other client
// ships either name. Members list it before the assignors they fall back
// to; see the package documentation, # Protocol name and migration.
func (*Assignor) Name() string { return "weighted" }

// Protocols returns [assignor.Eager] only: wrap the assignor with the
// cooperative package for cooperative-weighted.
func (*Assignor) Protocols() []assignor.Protocol { return []assignor.Protocol{assignor.Eager} }

// Balanced returns false: by design a member may hold CountTolerance partitions
// more or fewer than count balance gives it, to balance the load.
func (*Assignor) Balanced() bool { return false }

// Sticky returns true: when valid ownership is complete and its heaviest
// load within the margin of the best, the plan keeps it unchanged, and
// after a member joins or leaves it moves no more than the new balance
// needs (with unknown weights every partition weighs the same, and then
// that is count stickiness).
func (*Assignor) Sticky() bool { return true }

// Assign computes the plan, reading each partition's weight from
// [assignor.Topic.Weights]; see the package documentation for what it
// optimises. It fails when [assignor.NewIndex] does, or when the known
// weights add up to more than 2^61 (an error naming the partition). It
// does not mutate g and the plan does not alias it.
func (a *Assignor) Assign(g assignor.Group) (assignor.Plan, error) {
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return assignor.Plan{}, err
	}
	fp, err := a.AssignFlat(ix)
	if err != nil {
		return assignor.Plan{}, err
	}
	return ix.PlanOf(fp), nil
}

// AssignFlat is Assign on the group ix describes, answered in flat form
// (see [assignor.FlatAssignor]): the holder of each flat partition, and the
// assignment user data that carries reported weights to new holders.
func (a *Assignor) AssignFlat(ix *assignor.Index) (assignor.FlatPlan, error) {
	weights, from, err := a.weigh(ix)
	if err != nil {
		return assignor.FlatPlan{}, err
	}
	holder, weight, err := a.assign(ix, weights)
	if err != nil {
		return assignor.FlatPlan{}, err
	}
	return assignor.FlatPlan{Holder: holder, UserData: carried(ix, holder, from, weight)}, nil
}

// weigh returns each flat partition's weight as far as it is known: the
// group's own, else the members' reports, else Config.Weights
// ([assignor.UnknownWeight] where none says); from[p] is set for the
// partitions whose weight came from a report (nil: none did). Reports never
// make the weights fail: if with them the total weight, defaults included,
// would pass 2^61 (which only a Group's own weights or a
// Config.DefaultWeight near it allow, each report being at most
// MaxReportedWeight), every report is dropped.
func (a *Assignor) weigh(ix *assignor.Index) ([]int64, []bool, error) {
	weights := topicWeights(ix)
	var answered []int64 // the group's weights and Config.Weights' answers
	if a.cfg.Weights != nil {
		answered = slices.Clone(weights)
		if err := supplied(ix, answered, a.cfg.Weights); err != nil {
			return nil, nil, err
		}
	}
	from := reported(ix, weights)
	if answered != nil {
		for p, w := range weights {
			if w == assignor.UnknownWeight {
				weights[p] = answered[p]
			}
		}
	}
	if from != nil && !fits(weights, a.cfg.DefaultWeight) {
		if answered != nil {
			return answered, nil, nil
		}
		return topicWeights(ix), nil, nil
	}
	return weights, from, nil
}

// assign solves the group ix describes with weights (unknown ones given
// the default), and returns the holders and the weights it used.
func (a *Assignor) assign(ix *assignor.Index, weights []int64) ([]int32, []int64, error) {
	solverCfg := a.solver
	if solverCfg == (config{}) {
		solverCfg = defaultConfig() // an Assignor{} literal
	}
	g, err := inputOf(ix, weights, a.cfg.DefaultWeight, a.cfg.IgnoreRacks)
	if err != nil {
		return nil, nil, err
	}
	holder, err := solve(*g, solverCfg)
	if err != nil {
		return nil, nil, err
	}
	return holder, g.weight, nil
}
