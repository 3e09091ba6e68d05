package e2e

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// KgoConsumerProtocol is franz-go members on the KIP-848 consumer protocol:
// kgo.ServerSideBalancer with kgo's sticky balancer listed first, so that
// the broker assigns with its "uniform" assignor (on kfake, kfake's own
// simplified uniform; on Apache Kafka, Kafka's UniformAssignor).
var KgoConsumerProtocol = Kind{Name: "kgo-848", ServerSide: true, Kgo: func() []kgo.GroupBalancer {
	return []kgo.GroupBalancer{kgo.StickyBalancer()}
}}

// KIP848Kinds are the contenders of the KIP-848 comparison: ours on
// franz-go (classic protocol, cooperative-sticky, fast re-join), kgo on the
// consumer protocol, kgo's classic cooperative-sticky and kgo's eager
// sticky. Every one promises no overlapping claims and no lost record.
var KIP848Kinds = []Kind{OursKgo, KgoConsumerProtocol, KgoCooperativeSticky, KgoSticky}

// KIP848Scripts are the scripts of the KIP-848 comparison: the rolling
// restart of 4 with each replacement starting before the group settled
// without the member it replaces and, in rolling-restart-settled, after; the
// scale 1 → 6 → 1; the crash; the static restart.
var KIP848Scripts = []Script{
	{"rolling-restart", true, rollingRestart},
	{"rolling-restart-settled", true, rollingRestartSettled},
	{"scale-out-in", true, scaleOutIn},
	{"crash", true, crashAndReplace},
	{"static-restart", true, staticRestart},
}

// rollingRestartSettled restarts each of 4 members in turn, the
// replacement starting only once the group has settled without the member
// it replaces: two rebalances per restart, the second of which moves
// partitions away from members that hold them.
func rollingRestartSettled(h *Harness, k Kind) error {
	ms, err := startAll(h, k, 4, false)
	if err != nil {
		return err
	}
	h.MarkStart()
	for i := range ms {
		h.Leave(ms[i])
		if err := h.stable(); err != nil {
			return err
		}
		if ms[i], err = join(h, k, i, 1, ""); err != nil {
			return err
		}
	}
	h.MarkEnd()
	return nil
}

// CheckKIP848 returns what a run of kind k broke of what every contender of
// the comparison promises: no overlapping claims (an evicted member's window
// excepted), every record produced, consumed and committed; a
// consumer-protocol kind must have run as one (the coordinator described the
// group so and planned its rebalances) and a classic kind not; ours must
// have planned a rebalance in the window.
func CheckKIP848(k Kind, rep Report) []error {
	var errs []error
	for _, o := range rep.Overlaps {
		if !o.Evicted {
			errs = append(errs, fmt.Errorf("overlap: %v", o))
		}
	}
	if rep.Produced == 0 || rep.Lost != 0 || len(rep.Uncommitted) > 0 {
		errs = append(errs, fmt.Errorf("produced %d, lost %d, uncommitted %v", rep.Produced, rep.Lost, rep.Uncommitted))
	}
	if rep.ConsumerGroup != k.ServerSide {
		errs = append(errs, fmt.Errorf("%s: described as a consumer-protocol group: %v, want %v", k.Name, rep.ConsumerGroup, k.ServerSide))
	}
	switch {
	case k.ServerSide && rep.PlannedBy(func(kind, _ string) bool { return kind == brokerLeader }) == 0:
		errs = append(errs, fmt.Errorf("%s: the coordinator planned no rebalance in the window (plans by %v)", k.Name, rep.LeadersByKind))
	case k.Name == OursKgo.Name && rep.PlannedBy(OursLed) == 0 && rep.Rebalances > 0:
		errs = append(errs, fmt.Errorf("%s: our assignor planned none of the window's rebalances (plans by %v)", k.Name, rep.LeadersByKind))
	}
	return errs
}

// Timing names a set of group timings of the comparison.
type Timing string

// The comparison's timings.
const (
	// Short: every protocol heartbeats every 150 ms with a 1.5 s session
	// (the classic ones as client options, the consumer protocol's as
	// broker or group configs).
	Short Timing = "short"
	// Defaults: each protocol's defaults (kgo's classic 3 s and 45 s, the
	// consumer protocol's 5 s and 45 s, see ClientDefaults), each event
	// at a random point of the heartbeat cycle.
	Defaults Timing = "defaults"
)

// KIP848Work is what each member pays in the comparison: 2 ms per record
// (at 300 records/s one member is 60% busy) and 500 ms to take over a
// partition new to it.
var KIP848Work = Work{PerRecord: 2 * time.Millisecond, Takeover: 500 * time.Millisecond}

// KIP848Options returns the comparison's options for kind k at timing t:
// two topics of 12 partitions, 300 records/s, KIP848Work, and, at the
// default timings, each step waiting a random time up to k's heartbeat
// interval once the group is stable (Options.Jitter), so that every event
// falls at a random point of the heartbeat cycle.
func KIP848Options(t Timing, k Kind) (Options, error) {
	var o Options
	switch t {
	case Short:
	case Defaults:
		o = ClientDefaults()
	default:
		return Options{}, fmt.Errorf("e2e: unknown timing %q (want %q or %q)", t, Short, Defaults)
	}
	o.Rate, o.Work = 300, KIP848Work
	o.defaults()
	if t == Defaults {
		o.Jitter = o.KgoHeartbeat
		if k.ServerSide {
			o.Jitter = o.ConsumerHeartbeat
		}
	}
	return o, nil
}

// Run is one script run of the comparison, as its figures keep it.
type Run struct {
	Broker string `json:"broker"` // "kfake" or "Apache Kafka 4.4.0"
	Timing Timing `json:"timing"`
	Script string `json:"script"`
	Kind   string `json:"kind"`
	Err    string `json:"error,omitempty"`
	// ConsumerGroup: the coordinator described the group as a KIP-848
	// consumer group.
	ConsumerGroup bool `json:"consumer_group"`
	Events        int  `json:"events"`
	// SettleMedian is the median of the run's settle times per event
	// (Report.MedianSettle), SettleMax the largest.
	SettleMedian time.Duration `json:"settle_median"`
	SettleMax    time.Duration `json:"settle_max"`
	Unowned      float64       `json:"unowned_partition_seconds"`
	Paused       int           `json:"paused_records"`
	LongestPause time.Duration `json:"longest_pause"`
	Rebalances   int           `json:"rebalances"`
	// Overlaps counts overlapping claims but those of a member the
	// coordinator had already evicted (EvictedOverlaps: a member fenced
	// after missing its session, still processing until it notices, which no
	// assignor can prevent); Fenced counts members that had to rejoin with a
	// new member ID.
	Overlaps        int `json:"overlaps"`
	EvictedOverlaps int `json:"evicted_overlaps,omitempty"`
	Fenced          int `json:"fenced,omitempty"`
	Lost            int `json:"lost"`
	Duplicates      int `json:"duplicates"`
	Produced        int `json:"produced"`
}

// RunOf keeps a report's figures (err, if any, marks a failed run).
func RunOf(broker string, t Timing, rep Report, err error) Run {
	r := Run{Broker: broker, Timing: t, Script: rep.Script, Kind: rep.Kind}
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.ConsumerGroup = rep.ConsumerGroup
	r.Events = len(rep.Settles)
	r.SettleMedian, r.SettleMax = rep.MedianSettle(), rep.MaxSettle()
	r.Unowned, r.Paused, r.LongestPause = rep.UnownedSeconds, rep.PausedRecords, rep.MaxPause()
	r.Rebalances, r.Lost, r.Duplicates, r.Produced, r.Fenced = rep.Rebalances, rep.Lost, rep.Duplicates, rep.Produced, len(rep.Rejoined)
	for _, o := range rep.Overlaps {
		if o.Evicted {
			r.EvictedOverlaps++
		} else {
			r.Overlaps++
		}
	}
	return r
}

// Target is where RunKIP848 runs: a fresh kfake when Brokers is empty, else
// the external cluster Brokers, with the group and its topics named after
// Group and, if nonzero, the consumer protocol's assignment interval set
// (Options.ConsumerAssignmentInterval).
type Target struct {
	Brokers            []string
	Group              string
	AssignmentInterval time.Duration
	Logf               func(string, ...any)
}

// RunKIP848 runs one script with one kind at timing t on target and returns
// its report.
func RunKIP848(s Script, k Kind, t Timing, target Target) (Report, error) {
	o, err := KIP848Options(t, k)
	if err != nil {
		return Report{}, err
	}
	o.Brokers, o.Logf, o.ConsumerAssignmentInterval = target.Brokers, target.Logf, target.AssignmentInterval
	if g := target.Group; g != "" {
		o.Group = g
		if len(target.Brokers) > 0 {
			o.Topics = map[string]int32{g + "-a": 12, g + "-b": 12}
		}
	}
	return RunScript(s, k, o, time.Minute)
}

// Spread is one figure over several runs: the median and the range.
type Spread struct{ Median, Min, Max float64 }

// spreadOf summarises vs (zero for none).
func spreadOf(vs []float64) Spread {
	if len(vs) == 0 {
		return Spread{}
	}
	return Spread{Median: medianFloat(slices.Clone(vs)), Min: slices.Min(vs), Max: slices.Max(vs)}
}

// KIP848Row is the comparison's summary of one script, kind, broker and
// timing over its runs.
type KIP848Row struct {
	Broker        string
	Timing        Timing
	Script, Kind  string
	Runs, Failed  int
	ConsumerGroup int // runs the coordinator described as a consumer group
	// Settle is the runs' median settle per event and Pause their longest
	// member pause, in seconds; Unowned partition-seconds; Paused records.
	Settle, Unowned, Paused, Pause Spread
	// Overlaps, EvictedOverlaps, Fenced, Lost and Duplicates are summed over
	// runs (see Run); Events is the median count of events per run.
	Overlaps, EvictedOverlaps, Fenced, Lost, Duplicates int
	Events                                              float64
	Errors                                              []string
}

// SummarizeKIP848 groups runs by broker, timing, script and kind (in the
// order they first appear) and summarises each group.
func SummarizeKIP848(runs []Run) []KIP848Row {
	type key struct {
		broker       string
		timing       Timing
		script, kind string
	}
	var order []key
	groups := map[key][]Run{}
	for _, r := range runs {
		k := key{r.Broker, r.Timing, r.Script, r.Kind}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	var rows []KIP848Row
	for _, k := range order {
		row := KIP848Row{Broker: k.broker, Timing: k.timing, Script: k.script, Kind: k.kind}
		var settle, unowned, paused, pause, events []float64
		for _, r := range groups[k] {
			if r.Err != "" {
				row.Failed++
				row.Errors = append(row.Errors, r.Err)
				continue
			}
			row.Runs++
			if r.ConsumerGroup {
				row.ConsumerGroup++
			}
			settle = append(settle, r.SettleMedian.Seconds())
			unowned = append(unowned, r.Unowned)
			paused = append(paused, float64(r.Paused))
			pause = append(pause, r.LongestPause.Seconds())
			events = append(events, float64(r.Events))
			row.Overlaps += r.Overlaps
			row.EvictedOverlaps += r.EvictedOverlaps
			row.Fenced += r.Fenced
			row.Lost += r.Lost
			row.Duplicates += r.Duplicates
		}
		row.Settle, row.Unowned, row.Paused, row.Pause = spreadOf(settle), spreadOf(unowned), spreadOf(paused), spreadOf(pause)
		row.Events = medianFloat(events)
		rows = append(rows, row)
	}
	return rows
}

// MarkdownKIP848 renders rows as one Markdown table per broker and timing,
// in the order the rows come: for each script and kind, the runs, then
// medians over runs with their range (min–max) of the settle time per event
// (each run's median), the partition-seconds without an owner, the paused
// records and the longest member pause, then summed over runs the overlaps
// (with those after an eviction in brackets), the members fenced, the lost
// records and the duplicates.
func MarkdownKIP848(rows []KIP848Row) string {
	var b strings.Builder
	section := ""
	for _, r := range rows {
		if s := r.Broker + " / " + string(r.Timing); s != section {
			if section != "" {
				b.WriteString("\n")
			}
			section = s
			fmt.Fprintf(&b, "#### %s, %s timings\n\n", r.Broker, r.Timing)
			b.WriteString("| script | kind | runs | settle per event, s | unowned partition-s | paused records | longest member pause, s | overlaps | fenced | lost | duplicates |\n")
			b.WriteString("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
		}
		runs := fmt.Sprint(r.Runs)
		if r.Failed > 0 {
			runs += fmt.Sprintf(" (+%d failed)", r.Failed)
		}
		overlaps := fmt.Sprint(r.Overlaps)
		if r.EvictedOverlaps > 0 {
			overlaps += fmt.Sprintf(" (+%d after an eviction)", r.EvictedOverlaps)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %d | %d | %d |\n",
			r.Script, r.Kind, runs, r.Settle.format("%.2f"), r.Unowned.format("%.1f"), r.Paused.format("%.0f"),
			r.Pause.format("%.2f"), overlaps, r.Fenced, r.Lost, r.Duplicates)
	}
	return b.String()
}

// format shows the median and, when the runs differ, the range.
func (s Spread) format(verb string) string {
	med := fmt.Sprintf(verb, s.Median)
	lo, hi := fmt.Sprintf(verb, s.Min), fmt.Sprintf(verb, s.Max)
	if lo == hi {
		return med
	}
	return fmt.Sprintf("%s (%s–%s)", med, lo, hi)
}

// Compare tells ours against a peer on one figure (lower is better) from
// their runs' ranges: Better when every run of ours beat every run of the
// peer (ours' max below the peer's min), Worse when every run of the peer
// beat every run of ours, and otherwise WithinSpread: no worse, the
// difference inside the runs' spread.
func Compare(ours, peer Spread) Verdict {
	switch {
	case ours.Max < peer.Min:
		return Better
	case ours.Min > peer.Max:
		return Worse
	}
	return WithinSpread
}

// Verdict is the outcome of Compare.
type Verdict int

// Compare's outcomes.
const (
	WithinSpread Verdict = iota
	Better
	Worse
)

func (v Verdict) String() string {
	return [...]string{"within spread", "better", "worse"}[v]
}

// kip848Targets are issue 25's targets: ours on franz-go no worse than
// kgo's eager sticky on settle and unowned partition-seconds, and no worse
// than kgo on the consumer protocol on unowned partition-seconds and paused
// records.
var kip848Targets = []struct {
	figure, peer string
	of           func(KIP848Row) Spread
	verb         string
}{
	{"settle per event, s", KgoSticky.Name, func(r KIP848Row) Spread { return r.Settle }, "%.2f"},
	{"unowned partition-s", KgoSticky.Name, func(r KIP848Row) Spread { return r.Unowned }, "%.1f"},
	{"unowned partition-s", KgoConsumerProtocol.Name, func(r KIP848Row) Spread { return r.Unowned }, "%.1f"},
	{"paused records", KgoConsumerProtocol.Name, func(r KIP848Row) Spread { return r.Paused }, "%.0f"},
}

// MarkdownKIP848Targets renders, per broker, timing and script that has
// rows for ours on franz-go and its peers, each target's verdict (Compare)
// with both medians and, when ours is worse, by how much (the ratio of the
// medians).
func MarkdownKIP848Targets(rows []KIP848Row) string {
	type key struct {
		broker       string
		timing       Timing
		script, kind string
	}
	byKey := map[key]KIP848Row{}
	var scripts []key
	for _, r := range rows {
		byKey[key{r.Broker, r.Timing, r.Script, r.Kind}] = r
		if r.Kind == OursKgo.Name && r.Runs > 0 {
			scripts = append(scripts, key{r.Broker, r.Timing, r.Script, ""})
		}
	}
	var b strings.Builder
	b.WriteString("| broker, timings | script |")
	for _, t := range kip848Targets {
		fmt.Fprintf(&b, " %s: ours vs %s |", t.figure, t.peer)
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(kip848Targets)) + "\n")
	for _, s := range scripts {
		ours := byKey[key{s.broker, s.timing, s.script, OursKgo.Name}]
		fmt.Fprintf(&b, "| %s, %s | %s |", s.broker, s.timing, s.script)
		for _, t := range kip848Targets {
			peer, ok := byKey[key{s.broker, s.timing, s.script, t.peer}]
			if !ok || peer.Runs == 0 {
				b.WriteString(" – |")
				continue
			}
			o, p := t.of(ours), t.of(peer)
			v := Compare(o, p)
			cell := fmt.Sprintf("%s: "+t.verb+" vs "+t.verb, v, o.Median, p.Median)
			if v == Worse && p.Median > 0 {
				cell += fmt.Sprintf(" (%.2f×)", o.Median/p.Median)
			}
			fmt.Fprintf(&b, " %s |", cell)
		}
		b.WriteString("\n")
	}
	return b.String()
}
