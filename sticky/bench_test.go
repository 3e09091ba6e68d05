package sticky

import (
	"fmt"
	"testing"

	"github.com/kgroup/assignor/internal/scenario"
)

// BenchmarkAssign measures Assign on a prebuilt group (the "core" row) for
// every shape and scenario of the benchmark issue.
func BenchmarkAssign(b *testing.B) {
	for _, k := range scenario.Kinds() {
		for _, s := range scenario.Shapes() {
			g := scenario.Build(k, s)
			a := New()
			b.Run(fmt.Sprintf("%s/partitions=%d/members=%d", k, s.Partitions(), s.Members), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := a.Assign(g); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkGrowth measures the growth series: 1,000 members on 100 topics
// of 100 to 10,000 partitions, uniform and mixed subscriptions. The slope of
// log(time) against log(partitions) is quoted in docs/sticky.md.
func BenchmarkGrowth(b *testing.B) {
	for _, k := range []scenario.Kind{scenario.Fresh, scenario.Mixed} {
		for _, s := range scenario.GrowthShapes() {
			g := scenario.Build(k, s)
			a := New()
			b.Run(fmt.Sprintf("%s/partitions=%d/members=%d", k, s.Partitions(), s.Members), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := a.Assign(g); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
