package weighted

import (
	"fmt"

	"github.com/kgroup/assignor"
)

// MaxReportedWeight is the most a member's report may give one partition
// (2^30, over a billion records per second): a reported weight above it
// counts as it ([ReportClamped]). With at most 2^30 partitions, reported
// weights then add up to at most 2^60, so no report can push the group's
// total weight above the 2^61 Assign accepts.
const MaxReportedWeight int64 = 1 << 30

// ReportReason is why the leader ignored or changed part of a member's
// report.
type ReportReason int8

// The reasons, in the order the leader finds them.
const (
	// ReportUnreadable: the member's user data does not decode as weighted
	// user data (Err says why); it reports nothing.
	ReportUnreadable ReportReason = iota + 1
	// ReportNoGeneration: the report carries no generation
	// ([assignor.NoGeneration]), so nothing tells whether it is current; it
	// is dropped. A member's first join carries no report at all.
	ReportNoGeneration
	// ReportAhead: the report's generation is above the member's claim
	// generation ([assignor.Index.Generation]), which an honest member never
	// sends (it stamps its report with the generation its claims carry); it
	// is dropped.
	ReportAhead
	// ReportClamped: a partition's weight, or the mean of the summarised
	// rest, is above MaxReportedWeight; it counts as MaxReportedWeight.
	ReportClamped
)

// ReportIssue is one thing the leader ignored or changed in a member's
// report; see [CheckReports].
type ReportIssue struct {
	Member     string // the member's ID
	Reason     ReportReason
	Generation int32 // the report's generation
	// Claims is the member's claim generation (ReportAhead).
	Claims int32
	// Topic and Partition name the partition (ReportClamped); Partition is
	// -1 for the summary of the member's unlisted partitions of Topic.
	Topic     string
	Partition int32
	// Reported is the weight reported (ReportClamped).
	Reported int64
	// Err is the decoding error (ReportUnreadable).
	Err error
}

// String describes the issue, naming the member, for a log line.
func (i ReportIssue) String() string {
	head := fmt.Sprintf("member %q: report at generation %d: ", i.Member, i.Generation)
	switch i.Reason {
	case ReportUnreadable:
		return fmt.Sprintf("member %q: unreadable user data, no report: %v", i.Member, i.Err)
	case ReportNoGeneration:
		return head + "no generation: dropped"
	case ReportAhead:
		return head + fmt.Sprintf("above the member's claim generation %d: dropped", i.Claims)
	case ReportClamped:
		what := fmt.Sprintf("partition %d", i.Partition)
		if i.Partition < 0 {
			what = "the mean of the summarised rest"
		}
		return head + fmt.Sprintf("topic %q %s weighs %d, above %d: counted as %d", i.Topic, what, i.Reported, MaxReportedWeight, MaxReportedWeight)
	}
	return head + fmt.Sprintf("reason %d", i.Reason)
}

// CheckReports returns what the leader ignores or changes of the members'
// reports in the group ix describes, in member order: unreadable user
// data, reports without a generation or ahead of their member's claims
// (dropped), weights above MaxReportedWeight (clamped). Assign reads the
// reports the same way and never fails or reports these itself (an
// assignor is pure and cannot log): an adapter that wants a warning calls
// CheckReports on the same Index, typically only at debug level or when
// the plan surprises. Nil when every report is read as sent. (One more
// case only Assign sees, as it depends on the Config: when the weights the
// Group gives, or Config.DefaultWeight, already bring the total within 2^60
// of 2^61, Assign drops every report rather than fail.)
func CheckReports(ix *assignor.Index) []ReportIssue {
	var issues []ReportIssue
	readReports(ix, func(i ReportIssue) { issues = append(issues, i) })
	return issues
}

// memberReport is one member's report as the leader takes it.
type memberReport struct {
	Report
	member int32
}

// readReports decodes the members' reports and returns those that count,
// in member order, each weight clamped to MaxReportedWeight, calling issue
// (if not nil) on everything it ignores or changes; see [CheckReports].
// Nil when no member reports anything.
func readReports(ix *assignor.Index, issue func(ReportIssue)) []memberReport {
	var out []memberReport
	for m := range int32(ix.NumMembers()) {
		member := ix.Member(m)
		r, err := DecodeReport(member.UserData)
		switch {
		case err != nil:
			if issue != nil {
				issue(ReportIssue{Member: member.ID, Reason: ReportUnreadable, Generation: assignor.NoGeneration, Err: err})
			}
			continue
		case len(r.Topics) == 0:
			continue
		case r.Generation == assignor.NoGeneration:
			if issue != nil {
				issue(ReportIssue{Member: member.ID, Reason: ReportNoGeneration, Generation: r.Generation})
			}
			continue
		case r.Generation > ix.Generation(m):
			if issue != nil {
				issue(ReportIssue{Member: member.ID, Reason: ReportAhead, Generation: r.Generation, Claims: ix.Generation(m)})
			}
			continue
		}
		for i := range r.Topics {
			t := &r.Topics[i]
			clamp := func(w *int64, partition int32) {
				if *w > MaxReportedWeight {
					if issue != nil {
						issue(ReportIssue{Member: member.ID, Reason: ReportClamped, Generation: r.Generation, Topic: t.Topic, Partition: partition, Reported: *w})
					}
					*w = MaxReportedWeight
				}
			}
			for j := range t.Weights {
				clamp(&t.Weights[j], t.Partitions[j])
			}
			if t.Rest > 0 {
				clamp(&t.RestWeight, -1)
			}
		}
		out = append(out, memberReport{Report: r, member: m})
	}
	return out
}

// reported fills the weights that weights leaves unknown from the
// members' reports (those readReports keeps), and returns reported[p] set
// for each partition whose weight came from one, or nil when no report
// counts. What the group itself says wins. An owned partition takes only
// its valid owner's report (the owner measures it), and an owner's
// summarised partitions (the rest of a topic) the summary's mean; an
// unowned one (a withheld partition, in the follow-up round of a
// cooperative rebalance, whose new holder the leader carried its weight
// to) the report of the newest generation, the first in member order on a
// tie: a member that missed a rebalance reports an older one. Every value
// is at most MaxReportedWeight.
func reported(ix *assignor.Index, weights []int64) []bool {
	reports := readReports(ix, nil)
	if len(reports) == 0 {
		return nil
	}
	weight := make([]int64, ix.NumPartitions())
	from := make([]int32, ix.NumPartitions()) // the generation of weight[p]'s report, for unowned partitions
	for p := range weight {
		weight[p] = assignor.UnknownWeight
	}
	for _, r := range reports {
		m := r.member
		for _, t := range r.Topics {
			tn, ok := ix.TopicNumber(t.Topic)
			if !ok {
				continue
			}
			for i, id := range t.Partitions {
				p, ok := ix.Flat(tn, id)
				if !ok {
					continue
				}
				switch o := ix.Owner(p); {
				case o == m:
					weight[p] = t.Weights[i]
				case o < 0 && (weight[p] < 0 || r.Generation > from[p]):
					weight[p], from[p] = t.Weights[i], r.Generation
				}
			}
			if t.Rest > 0 {
				first, end := ix.TopicRange(tn)
				for p := first; p < end; p++ {
					if ix.Owner(p) == m && weight[p] < 0 {
						weight[p] = t.RestWeight
					}
				}
			}
		}
	}
	taken := make([]bool, len(weight))
	for p, w := range weight {
		if w >= 0 && weights[p] == assignor.UnknownWeight {
			weights[p], taken[p] = w, true
		}
	}
	return taken
}

// carried returns each member's assignment user data carrying the weights
// of the reported partitions holder gives it that it did not own (nil for
// a member given none), or nil when there are none at all.
func carried(ix *assignor.Index, holder []int32, from []bool, weight []int64) [][]byte {
	if from == nil {
		return nil
	}
	reports := make([]Report, ix.NumMembers())
	any := false
	for p, m := range holder {
		if m < 0 || !from[p] || ix.Owner(int32(p)) == m {
			continue
		}
		topic, id := ix.Partition(int32(p))
		r := &reports[m]
		if n := len(r.Topics); n == 0 || r.Topics[n-1].Topic != topic {
			r.Topics = append(r.Topics, TopicReport{Topic: topic})
		}
		t := &r.Topics[len(r.Topics)-1]
		t.Partitions, t.Weights = append(t.Partitions, id), append(t.Weights, weight[p])
		any = true
	}
	if !any {
		return nil
	}
	out := make([][]byte, ix.NumMembers())
	for m, r := range reports {
		if len(r.Topics) > 0 {
			out[m] = appendReport(userDataPrefix(assignor.NoGeneration, reportVersion), r)
		}
	}
	return out
}

// OnAssignment tells [Config.Meter] the member's assignment: the meter
// forgets the partitions the member no longer holds (one it regains later
// starts a new measure), and takes the weights the leader carried with the
// partitions this member receives (its assignment user data), which it
// reports until it has measured them. User data that does not decode
// carries nothing. Without a Meter it does nothing.
func (a *Assignor) OnAssignment(assigned []assignor.TopicPartitions, userData []byte, _ int32) {
	if a.cfg.Meter == nil {
		return
	}
	r, err := DecodeReport(userData)
	if err != nil {
		r = Report{}
	}
	a.cfg.Meter.assigned(assigned, r)
}
