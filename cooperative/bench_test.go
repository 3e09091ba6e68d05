package cooperative_test

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/wire"
)

// benchShape is topics × partitions per topic, with members members, all
// subscribed to every topic.
type benchShape struct{ topics, partitions, members int }

func benchShapes() []benchShape {
	shapes := []benchShape{{10, 100, 50}, {100, 1000, 1000}}
	if os.Getenv("COOPERATIVE_BENCH_1M") != "" {
		shapes = append(shapes, benchShape{500, 2000, 2000})
	}
	return shapes
}

// benchGroups returns the shape's group with every member owning its
// round-robin plan at generation 5 ("settled"), and the same group with
// one more member joining ("join+1": round-robin moves almost every
// partition, so the wrapper withholds almost everything; sticky moves what
// balance needs).
func benchGroups(b *testing.B, s benchShape) (settled, joined assignor.Group) {
	var topics []string
	for t := range s.topics {
		name := fmt.Sprintf("topic-%04d", t)
		topics = append(topics, name)
		settled.Topics = append(settled.Topics, assignor.Topic{Name: name, Partitions: assignor.Partitions(int32(s.partitions))})
	}
	for m := range s.members {
		settled.Members = append(settled.Members, assignor.Member{ID: fmt.Sprintf("member-%05d", m), Topics: topics, Generation: assignor.NoGeneration})
	}
	plan, err := roundrobin.New().Assign(settled)
	if err != nil {
		b.Fatal(err)
	}
	for i := range settled.Members {
		mp, _ := plan.Member(settled.Members[i].ID)
		settled.Members[i].Owned, settled.Members[i].Generation = mp.Assigned, 5
	}
	joined = settled.Clone()
	joined.Members = append(joined.Members, assignor.Member{ID: "member-new", Topics: topics, Generation: assignor.NoGeneration})
	return settled, joined
}

// BenchmarkWrap measures the leader's cooperative rebalance around
// round-robin and sticky on a group whose members own partitions, next to
// the bare assignors and the wire floor (decoding every member's subscription and
// encoding every member's assignment, the work no leader can avoid), in the
// same binary on the same inputs; wrapper-only is the wrapper around a plan
// computed beforehand, its own cost, and wrapper-only-indexed the same
// answered in flat form (assignor.FlatAssignor), as sticky answers. Compare medians over -count runs:
//
//	go test -run '^$' -bench BenchmarkWrap -count 6 ./cooperative/
//
// Set COOPERATIVE_BENCH_1M=1 to add the 1M-partition shape.
func BenchmarkWrap(b *testing.B) {
	for _, s := range benchShapes() {
		settled, joined := benchGroups(b, s)
		for _, sc := range []struct {
			name string
			g    assignor.Group
		}{{"settled", settled}, {"join+1", joined}} {
			prefix := fmt.Sprintf("partitions=%d/members=%d/%s", s.topics*s.partitions, len(sc.g.Members), sc.name)
			wrapped := cooperative.Wrap(roundrobin.New())
			subs, assignments := encodeGroup(b, sc.g, wrapped)
			b.Run(prefix+"/floor", func(b *testing.B) {
				b.ReportAllocs()
				var buf []byte
				for b.Loop() {
					for _, sub := range subs {
						if _, err := wire.DecodeSubscription(sub); err != nil {
							b.Fatal(err)
						}
					}
					for _, a := range assignments {
						buf = a.AppendTo(buf[:0])
					}
				}
			})
			b.Run(prefix+"/roundrobin", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := roundrobin.New().Assign(sc.g); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(prefix+"/cooperative-roundrobin", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := wrapped.Assign(sc.g); err != nil {
						b.Fatal(err)
					}
				}
			})
			coopSticky := cooperative.Wrap(sticky.New())
			b.Run(prefix+"/sticky", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := sticky.New().Assign(sc.g); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(prefix+"/cooperative-sticky", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := coopSticky.Assign(sc.g); err != nil {
						b.Fatal(err)
					}
				}
			})
			innerPlan, err := roundrobin.New().Assign(sc.g)
			if err != nil {
				b.Fatal(err)
			}
			wrapperOnly := cooperative.Wrap(fixedPlan{innerPlan})
			b.Run(prefix+"/wrapper-only", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := wrapperOnly.Assign(sc.g); err != nil {
						b.Fatal(err)
					}
				}
			})
			ix, err := assignor.NewIndex(sc.g)
			if err != nil {
				b.Fatal(err)
			}
			holder := make([]int32, ix.NumPartitions())
			for p := range holder {
				holder[p] = -1
			}
			for m := range int32(ix.NumMembers()) {
				mp, _ := innerPlan.Member(ix.Member(m).ID)
				for _, tp := range mp.Assigned {
					t, _ := ix.TopicNumber(tp.Topic)
					for _, id := range tp.Partitions {
						p, _ := ix.Flat(t, id)
						holder[p] = m
					}
				}
			}
			indexedOnly := cooperative.Wrap(fixedIndexed{fixedPlan{innerPlan}, holder})
			b.Run(prefix+"/wrapper-only-indexed", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := indexedOnly.Assign(sc.g); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(prefix+"/split", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := cooperative.Split(sc.g, roundrobin.New()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// fixedPlan is an inner assignor that returns a plan computed beforehand,
// so that the wrapper's own cost can be measured.
type fixedPlan struct{ plan assignor.Plan }

func (fixedPlan) Name() string                                   { return "fixed" }
func (f fixedPlan) Assign(assignor.Group) (assignor.Plan, error) { return f.plan, nil }

// fixedIndexed answers in flat form with holders computed beforehand,
// copied (the wrapper takes the answer over), as an inner assignor hands
// over the array it worked in.
type fixedIndexed struct {
	fixedPlan
	holder []int32
}

var _ assignor.FlatAssignor = fixedIndexed{}

func (f fixedIndexed) AssignFlat(*assignor.Index) (assignor.FlatPlan, error) {
	return assignor.FlatPlan{Holder: slices.Clone(f.holder)}, nil
}

// encodeGroup returns every member's subscription bytes (v3, with owned
// partitions and generation) and its assignment for w's plan.
func encodeGroup(b *testing.B, g assignor.Group, w assignor.Assignor) ([][]byte, []wire.Assignment) {
	var subs [][]byte
	for _, m := range g.Members {
		subs = append(subs, wire.Subscription{Version: 3, Topics: m.Topics, Owned: m.Owned, Generation: m.Generation, UserData: wire.CooperativeUserData(m.Generation)}.AppendTo(nil))
	}
	plan, err := w.Assign(g)
	if err != nil {
		b.Fatal(err)
	}
	var as []wire.Assignment
	for _, mp := range plan.Members {
		as = append(as, wire.Assignment{Version: 3, Partitions: mp.Assigned, UserData: mp.UserData})
	}
	return subs, as
}
