package scenario

import (
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/dense"
)

// TestBuild pins the shape of every scenario on a small shape: member count,
// partition count, and for the scenarios with history a previous plan that
// is valid (no partition claimed twice at the top generation, every claim
// inside the metadata) and balanced for its subscriptions.
func TestBuild(t *testing.T) {
	s := Shape{Topics: 4, PartitionsPerTopic: 6, Members: 4}
	for _, k := range Kinds() {
		t.Run(k.String(), func(t *testing.T) {
			g := Build(k, s)
			wantMembers := s.Members
			switch k {
			case Join, MixedJoin:
				wantMembers++
			case Leave:
				wantMembers--
			}
			if len(g.Members) != wantMembers {
				t.Fatalf("%d members, want %d", len(g.Members), wantMembers)
			}
			index, err := assignor.NewIndex(g)
			if err != nil {
				t.Fatal(err)
			}
			ix := dense.Of(index)
			if ix.NumPartitions() != s.Partitions() {
				t.Fatalf("%d partitions, want %d", ix.NumPartitions(), s.Partitions())
			}
			claimed := 0
			for p, o := range ix.Owner {
				if o == assignor.Contested {
					t.Fatalf("partition %d contested", p)
				}
				if o >= 0 {
					claimed++
					if !ix.Subscribes(o, ix.TopicOf(int32(p))) {
						t.Fatalf("partition %d owned by a non-subscriber", p)
					}
				}
			}
			if len(ix.Outside) > 0 || len(ix.Stale) > 0 {
				t.Fatalf("odd claims: %v %v", ix.Outside, ix.Stale)
			}
			switch k {
			case Join, MixedJoin:
				if claimed != s.Partitions() {
					t.Fatalf("%d of %d partitions owned", claimed, s.Partitions())
				}
			case Leave:
				if want := s.Partitions() - s.Partitions()/s.Members; claimed != want {
					t.Fatalf("%d partitions owned, want %d", claimed, want)
				}
			default:
				if claimed != 0 {
					t.Fatalf("fresh scenario owns %d partitions", claimed)
				}
			}
			if k == Racks {
				for _, m := range g.Members {
					if m.Rack == "" {
						t.Fatalf("member %s has no rack", m.ID)
					}
				}
			}
			again := Build(k, s)
			if len(again.Members) != len(g.Members) || again.Members[0].ID != g.Members[0].ID || again.Topics[0].Name != g.Topics[0].Name {
				t.Fatal("two builds differ")
			}
		})
	}
}
