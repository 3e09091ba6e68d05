package weighted

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/sticky"
	benchgroups "github.com/kgroup/assignor/workload"
	"slices"
)

// denseFromIndex is the solver's input for the group ix indexes, as the
// assignor will build it: flat partitions, member numbers, the index's
// valid owners, and weight[p] per flat partition.
func denseFromIndex(ix *assignor.Index, weight []int64) *group {
	g, err := inputOf(ix, weight, 0, true)
	if err != nil {
		panic(err)
	}
	if g.owner == nil {
		g.owner = slices.Repeat([]int32{-1}, ix.NumPartitions())
	}
	return g
}

// zipfWeights returns n Zipf weights (s = 1.1) in random order.
func zipfWeights(n int, seed uint64) []int64 {
	rng := rand.New(rand.NewPCG(seed, 11))
	w := make([]int64, n)
	for p, r := range rng.Perm(n) {
		w[p] = int64(zipfScale / math.Pow(float64(r+1), 1.1))
	}
	return w
}

// BenchmarkVersusSticky measures, in the same binary and on the same
// groups (package workload, as sticky's benchmarks build them), sticky's
// Assign (index, solve and plan), sticky's AssignFlat (solve only, on a
// prebuilt index) and this solver on the dense input of the same index with
// Zipf weights (s = 1.1), shape by shape so the three run interleaved.
// The join scenario's owners hold a count-balanced plan (a group migrating
// from count-sticky), which the weighted solver must largely redo; see
// BenchmarkSolve for a join after a weighted plan.
func BenchmarkVersusSticky(b *testing.B) {
	shapes := append(benchgroups.Shapes(), benchgroups.FullShape())
	for _, k := range []benchgroups.Scenario{benchgroups.Fresh, benchgroups.Mixed, benchgroups.Join} {
		for _, sh := range []benchgroups.Shape{shapes[1], shapes[3], shapes[4]} {
			c, err := benchgroups.Build(sh, k, benchgroups.DefaultSeed)
			if err != nil {
				b.Fatal(err)
			}
			g := c.Group(c.RoundRobin())
			ix, err := assignor.NewIndex(g)
			if err != nil {
				b.Fatal(err)
			}
			a := sticky.New()
			dense := denseFromIndex(ix, zipfWeights(ix.NumPartitions(), 1))
			name := fmt.Sprintf("%s/partitions=%d/members=%d", k, sh.Total(), len(g.Members))
			b.Run("sticky-assign/"+name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := a.Assign(g); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("sticky-index/"+name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := a.AssignFlat(ix); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("weighted/"+name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := solve(*dense, defaultConfig()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
