package weighted_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"syscall"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/weighted"
	benchgroups "github.com/kgroup/assignor/workload"
)

// withZipfWeights returns g with Zipf weights (s = 1.1, in random order)
// on every topic.
func withZipfWeights(g assignor.Group, seed uint64) assignor.Group {
	g = g.Clone()
	rng := rand.New(rand.NewPCG(seed, 11))
	for i := range g.Topics {
		n := len(g.Topics[i].Partitions)
		w := make([]int64, n)
		for p, r := range rng.Perm(n) {
			w[p] = int64(1e6 / math.Pow(float64(r+1), 1.1))
		}
		g.Topics[i].Weights = w
	}
	return g
}

// BenchmarkAssign measures the public path (index, solve, plan) of
// weighted and sticky on the same groups (package workload's shapes, fresh
// and after a join), eagerly and through cooperative.Wrap, interleaved
// shape by shape. The weighted groups carry Zipf weights; sticky ignores
// them.
func BenchmarkAssign(b *testing.B) {
	shapes := benchgroups.Shapes()
	for _, k := range []benchgroups.Scenario{benchgroups.Fresh, benchgroups.Join} {
		for _, sh := range []benchgroups.Shape{shapes[1], shapes[3]} {
			c, err := benchgroups.Build(sh, k, benchgroups.DefaultSeed)
			if err != nil {
				b.Fatal(err)
			}
			g := withZipfWeights(c.Group(c.RoundRobin()), 1)
			name := fmt.Sprintf("%s/partitions=%d/members=%d", k, sh.Total(), len(g.Members))
			for _, a := range []struct {
				name string
				a    assignor.Assignor
			}{
				{"sticky", sticky.New()},
				{"weighted", weighted.New()},
				{"cooperative-sticky", cooperative.Wrap(sticky.New())},
				{"cooperative-weighted", cooperative.Wrap(weighted.New())},
			} {
				b.Run(a.name+"/"+name, func(b *testing.B) {
					b.ReportAllocs()
					start := processCPU()
					for b.Loop() {
						if _, err := a.a.Assign(g); err != nil {
							b.Fatal(err)
						}
					}
					// CPU time of the process per operation: steadier than
					// wall time on a loaded machine (it includes the GC's).
					b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
				})
			}
		}
	}
}

// processCPU returns the user and system CPU time of the process so far, in
// nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
