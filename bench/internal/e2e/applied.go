package e2e

import (
	"cmp"
	"iter"
	"maps"
	"slices"

	"github.com/kgroup/assignor"
)

// appliedPlan is the plan the coordinator applied in one generation: the
// sync it came in, every leader that sent that same plan, and whether the
// choice was ambiguous.
type appliedPlan struct {
	sync      leaderSync
	leaders   []string
	ambiguous bool
}

// applied resolves which leader's plan the coordinator used for each
// generation. kfake tells every member it is the leader when the old leader
// is gone, and uses one of their plans; the applied plan is the one that
// agrees with what the members received (sarama members' OnAssignment) and
// with every claim that began in that generation. It returns, per
// generation, the applied sync, the names of every leader that sent that same
// plan, and whether the choice was ambiguous (no candidate agreed, or
// candidates that disagree with each other all agreed with the evidence).
func (r *recorder) applied() map[int32]appliedPlan {
	starts := map[int32][]*Claim{}
	for _, c := range r.claims {
		starts[c.Generation] = append(starts[c.Generation], c)
	}
	out := map[int32]appliedPlan{}
	for gen := range r.syncs {
		out[gen] = r.appliedGen(gen, starts[gen])
	}
	return out
}

// appliedGen resolves one generation (see applied); starts are the claims
// that began in it. The generation must have a sync.
func (r *recorder) appliedGen(gen int32, starts []*Claim) appliedPlan {
	cands := r.syncs[gen]
	var agree []leaderSync
	for _, c := range cands {
		if r.agrees(c, r.received[gen], starts) {
			agree = append(agree, c)
		}
	}
	ap := appliedPlan{}
	if len(agree) == 0 {
		agree, ap.ambiguous = cands, true
	}
	ap.sync = agree[0]
	for _, c := range agree {
		if maps.EqualFunc(c.Plan, ap.sync.Plan, assignor.EqualTopicPartitions) {
			ap.leaders = append(ap.leaders, r.nameOf(c.Leader))
		} else {
			ap.ambiguous = true
		}
	}
	return ap
}

// latest resolves the newest generation (see applied), or returns false
// before the first plan. Call with r.mu held.
func (r *recorder) latest() (appliedPlan, bool) {
	gen := r.lastSync.Generation
	if len(r.syncs[gen]) == 0 {
		return appliedPlan{}, false
	}
	var starts []*Claim
	for _, c := range r.claims {
		if c.Generation == gen {
			starts = append(starts, c)
		}
	}
	return r.appliedGen(gen, starts), true
}

// latestPlan returns, by member name, the applied plan of the newest
// generation, or false before the first plan.
func (r *recorder) latestPlan() (map[string][]assignor.TopicPartitions, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ap, ok := r.latest()
	if !ok {
		return nil, false
	}
	out := map[string][]assignor.TopicPartitions{}
	for id, tps := range ap.sync.Plan {
		out[r.nameOf(id)] = tps
	}
	return out, true
}

// agrees reports whether plan s is the one the coordinator applied, as far
// as the evidence shows: every member that reported what it received
// (received, by name) was given exactly that, and every claim that started
// in the generation (starts) is in the plan.
func (r *recorder) agrees(s leaderSync, received map[string][]assignor.TopicPartitions, starts []*Claim) bool {
	byName := make(map[string][]assignor.TopicPartitions, len(s.Plan))
	for id, tps := range s.Plan {
		byName[r.nameOf(id)] = tps
	}
	for name, tps := range received {
		planned, ok := byName[name]
		if !ok || !assignor.EqualTopicPartitions(planned, tps) {
			return false
		}
	}
	for _, c := range starts {
		if !holds(byName[c.Member], c.TP) {
			return false
		}
	}
	return true
}

// holds reports whether the canonical set tps holds tp. O(log n).
func holds(tps []assignor.TopicPartitions, tp TP) bool {
	i, ok := slices.BinarySearchFunc(tps, tp.Topic, func(e assignor.TopicPartitions, topic string) int { return cmp.Compare(e.Topic, topic) })
	if !ok {
		return false
	}
	_, ok = slices.BinarySearch(tps[i].Partitions, tp.Partition)
	return ok
}

// tpsOf returns the partitions of tps one by one.
func tpsOf(tps []assignor.TopicPartitions) iter.Seq[TP] {
	return func(yield func(TP) bool) {
		for _, tp := range tps {
			for _, p := range tp.Partitions {
				if !yield(TP{tp.Topic, p}) {
					return
				}
			}
		}
	}
}
