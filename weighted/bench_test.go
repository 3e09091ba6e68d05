package weighted

import (
	"fmt"
	"testing"
)

// benchShapes are the 10k, 100k and 1M shapes of sticky's benchmarks
// (workload.Shapes), so the two compare on the same sizes.
func benchShapes() []shape {
	return []shape{
		{topics: 20, partitionsPerTopic: 500, members: 100},
		{topics: 100, partitionsPerTopic: 1000, members: 1000},
		{topics: 500, partitionsPerTopic: 2000, members: 2000},
	}
}

// BenchmarkSolve times the solver on a fresh group (no owners) for each
// workload and shape, and after one member joins a group that holds the
// fresh plan ("join"). It reports the heaviest load over the lower bound
// max(total/members, heaviest partition) and, for join, the partitions
// moved.
func BenchmarkSolve(b *testing.B) {
	for _, w := range []workload{zipf11, hot5, mixedZipf} {
		for _, sh := range benchShapes() {
			g := w.build(sh, 1)
			b.Run(fmt.Sprintf("%s/fresh/%s", w, sh), func(b *testing.B) {
				b.ReportAllocs()
				var holder []int32
				for b.Loop() {
					holder, _ = solve(*g, defaultConfig())
				}
				load, _ := loadsOf(g, holder)
				b.ReportMetric(ratio(maxOf(load), simpleBound(g)), "max/bound")
			})
			joined := joinOne(g, mustSolve(b, g, defaultConfig()))
			b.Run(fmt.Sprintf("%s/join/%s", w, sh), func(b *testing.B) {
				b.ReportAllocs()
				var holder []int32
				for b.Loop() {
					holder, _ = solve(*joined, defaultConfig())
				}
				load, _ := loadsOf(joined, holder)
				n, _ := moved(joined, holder)
				b.ReportMetric(ratio(maxOf(load), simpleBound(joined)), "max/bound")
				b.ReportMetric(float64(n), "moves")
			})
		}
	}
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// joinOne returns a copy of g owned as holder says, with one more member
// that subscribes to every topic member 0 subscribes to.
func joinOne(g *group, holder []int32) *group {
	j := *g
	j.members++
	j.owner = append([]int32(nil), holder...)
	newcomer := int32(g.members)
	j.subscribers = make([][]int32, len(g.subscribers))
	for t, subs := range g.subscribers {
		j.subscribers[t] = append([]int32(nil), subs...)
		if subscribes(g, 0, int32(t)) {
			j.subscribers[t] = append(j.subscribers[t], newcomer)
		}
	}
	if g.memberRack != nil {
		j.memberRack = append(append([]int32(nil), g.memberRack...), g.memberRack[0])
	}
	return &j
}
