package roundrobin_test

import (
	"fmt"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/roundrobin"
)

// BenchmarkAssign measures Assign on groups where every member subscribes
// to every topic (1,000 partitions per topic), and where each member
// subscribes to one topic in ten (the ring skips the rest).
func BenchmarkAssign(b *testing.B) {
	for _, size := range []struct{ partitions, members int }{{10_000, 100}, {100_000, 1_000}, {1_000_000, 1_000}} {
		for _, sparse := range []bool{false, true} {
			topics := size.partitions / 1000
			g := assignor.Group{}
			for t := range topics {
				g.Topics = append(g.Topics, assignor.Topic{Name: fmt.Sprintf("t%04d", t), Partitions: assignor.Partitions(1000)})
			}
			for m := range size.members {
				mem := assignor.Member{ID: fmt.Sprintf("m%05d", m), Generation: assignor.NoGeneration}
				for t := range topics {
					if !sparse || (t+m)%10 == 0 {
						mem.Topics = append(mem.Topics, g.Topics[t].Name)
					}
				}
				g.Members = append(g.Members, mem)
			}
			name := fmt.Sprintf("partitions=%d/members=%d/subscriptions=all", size.partitions, size.members)
			if sparse {
				name = fmt.Sprintf("partitions=%d/members=%d/subscriptions=tenth", size.partitions, size.members)
			}
			b.Run(name, func(b *testing.B) {
				a := roundrobin.New()
				for b.Loop() {
					if _, err := a.Assign(g); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
