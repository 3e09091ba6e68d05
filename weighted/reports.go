package weighted

import (
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/dense"
)

// reported returns ix with the weights it leaves unknown filled from the
// members' reports (version 1 user data), and reported[p] set for each
// partition whose weight came from one; ix itself when no member reports.
// An owned partition takes only its valid owner's report (the owner
// measures it); an unowned one (a withheld partition, in the follow-up
// round of a cooperative rebalance, whose new holder the leader carried
// its weight to) the first report of it in member order. Reports of a
// generation older than the newest report are ignored (the member missed
// a rebalance), and so is user data that does not decode. An owner's
// summarised partitions (the rest of a topic) take the summary's mean.
func reported(ix *dense.Index) (*dense.Index, []bool) {
	reports := make([]Report, len(ix.Members))
	newest, any := assignor.NoGeneration, false
	for m, mem := range ix.Members {
		r, err := DecodeReport(mem.UserData)
		if err != nil || len(r.Topics) == 0 {
			continue
		}
		reports[m], any = r, true
		newest = max(newest, r.Generation)
	}
	if !any {
		return ix, nil
	}
	weight := make([]int64, ix.NumPartitions())
	for p := range weight {
		weight[p] = assignor.UnknownWeight
	}
	for m, r := range reports {
		if len(r.Topics) == 0 || r.Generation < newest {
			continue
		}
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
				if o := ix.Owner[p]; o == int32(m) || (o < 0 && weight[p] < 0) {
					weight[p] = t.Weights[i]
				}
			}
			if t.Rest > 0 {
				for p := ix.TopicStart[tn]; p < ix.TopicStart[tn+1]; p++ {
					if ix.Owner[p] == int32(m) && weight[p] < 0 {
						weight[p] = t.RestWeight
					}
				}
			}
		}
	}
	var topics []dense.Topic
	from := make([]bool, len(weight))
	for t, tp := range ix.Topics {
		start := ix.TopicStart[t]
		var merged []int64
		for i := range tp.Partitions {
			p := start + int32(i)
			if weight[p] < 0 || (tp.Weights != nil && tp.Weights[i] != assignor.UnknownWeight) {
				continue // the Group's own weight wins
			}
			if merged == nil {
				merged = slices.Clone(tp.Weights)
				if merged == nil {
					merged = slices.Repeat([]int64{assignor.UnknownWeight}, len(tp.Partitions))
				}
			}
			merged[i], from[p] = weight[p], true
		}
		if merged != nil {
			if topics == nil {
				topics = slices.Clone(ix.Topics)
			}
			topics[t].Weights = merged
		}
	}
	if topics == nil {
		return ix, nil
	}
	c := *ix
	c.Topics = topics
	return &c, from
}

// carried returns each member's assignment user data carrying the weights
// of the reported partitions holder gives it that it did not own (nil for
// a member given none), or nil when there are none at all.
func carried(ix *dense.Index, holder []int32, from []bool, weight []int64) [][]byte {
	if from == nil {
		return nil
	}
	reports := make([]Report, len(ix.Members))
	any := false
	for p, m := range holder {
		if m < 0 || !from[p] || ix.Owner[p] == m {
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
	out := make([][]byte, len(ix.Members))
	for m, r := range reports {
		if len(r.Topics) > 0 {
			out[m] = appendReport(userDataPrefix(assignor.NoGeneration, reportVersion), r)
		}
	}
	return out
}

// OnAssignment hands the weights the leader carried with the partitions
// this member receives (its assignment user data) to [Config.Meter], which
// reports them until it has measured them. Without a Meter, or with user
// data that does not decode, it does nothing.
func (a *Assignor) OnAssignment(_ []assignor.TopicPartitions, userData []byte, _ int32) {
	if a.cfg.Meter == nil {
		return
	}
	if r, err := DecodeReport(userData); err == nil {
		a.cfg.Meter.carry(r)
	}
}
