package weighted

import "github.com/kgroup/assignor"

// reported fills the weights that weights leaves unknown from the
// members' reports (version 1 user data), and returns reported[p] set for
// each partition whose weight came from one, or nil when no member reports.
// What the group itself says wins. An owned partition takes only its valid
// owner's report (the owner measures it); an unowned one (a withheld
// partition, in the follow-up round of a cooperative rebalance, whose new
// holder the leader carried its weight to) the first report of it in
// member order. Reports of a generation older than the newest report are
// ignored (the member missed a rebalance), and so is user data that does
// not decode. An owner's summarised partitions (the rest of a topic) take
// the summary's mean.
func reported(ix *assignor.Index, weights []int64) []bool {
	reports := make([]Report, ix.NumMembers())
	newest, any := assignor.NoGeneration, false
	for m := range reports {
		r, err := DecodeReport(ix.Member(int32(m)).UserData)
		if err != nil || len(r.Topics) == 0 {
			continue
		}
		reports[m], any = r, true
		newest = max(newest, r.Generation)
	}
	if !any {
		return nil
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
				if o := ix.Owner(p); o == int32(m) || (o < 0 && weight[p] < 0) {
					weight[p] = t.Weights[i]
				}
			}
			if t.Rest > 0 {
				first, end := ix.TopicRange(tn)
				for p := first; p < end; p++ {
					if ix.Owner(p) == int32(m) && weight[p] < 0 {
						weight[p] = t.RestWeight
					}
				}
			}
		}
	}
	from := make([]bool, len(weight))
	for p, w := range weight {
		if w >= 0 && weights[p] == assignor.UnknownWeight {
			weights[p], from[p] = w, true
		}
	}
	return from
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
