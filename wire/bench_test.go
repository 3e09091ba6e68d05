package wire_test

import (
	"fmt"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// benchGroup builds what a leader of members members sees when partitions
// partitions over topics topics are spread round-robin: every member
// subscribes to every topic, owns its share (sorted, as Java sends it) at
// generation 5, and gets the same share back in its assignment.
func benchGroup(members, partitions, topics int) ([]wire.Subscription, []wire.Assignment) {
	names := make([]string, topics)
	for t := range names {
		names[t] = fmt.Sprintf("topic-%04d", t)
	}
	perTopic := partitions / topics
	owned := make([][]assignor.TopicPartitions, members)
	k := 0
	for t := range topics {
		for p := range perTopic {
			m := k % members
			k++
			tps := owned[m]
			if len(tps) == 0 || tps[len(tps)-1].Topic != names[t] {
				tps = append(tps, assignor.TopicPartitions{Topic: names[t]})
			}
			tps[len(tps)-1].Partitions = append(tps[len(tps)-1].Partitions, int32(p))
			owned[m] = tps
		}
	}
	subs := make([]wire.Subscription, members)
	assigns := make([]wire.Assignment, members)
	for m := range members {
		subs[m] = wire.Subscription{Version: 3, Topics: names, UserData: wire.CooperativeUserData(5),
			Owned: owned[m], Generation: 5, Rack: "rack-1"}
		assigns[m] = wire.Assignment{Version: 3, Partitions: owned[m]}
	}
	return subs, assigns
}

var benchShapes = []struct{ members, partitions, topics int }{
	{1000, 1_000_000, 1000}, // one partition of every topic per member: the most entries
	{1000, 1_000_000, 10},   // a hundred partitions of each of ten topics per member
}

func benchName(s struct{ members, partitions, topics int }) string {
	return fmt.Sprintf("partitions=%d/members=%d/topics=%d", s.partitions, s.members, s.topics)
}

// BenchmarkSubscriptions encodes and decodes every member's subscription: one
// op is the whole group's JoinGroup metadata.
func BenchmarkSubscriptions(b *testing.B) {
	for _, shape := range benchShapes {
		subs, _ := benchGroup(shape.members, shape.partitions, shape.topics)
		encoded := make([][]byte, len(subs))
		size := 0
		for i, s := range subs {
			encoded[i] = s.AppendTo(nil)
			size += len(encoded[i])
		}
		b.Run("encode/"+benchName(shape), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for i, s := range subs {
					encoded[i] = s.AppendTo(nil)
				}
			}
		})
		b.Run("decode/"+benchName(shape), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, enc := range encoded {
					if _, err := wire.DecodeSubscription(enc); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkAssignments encodes and decodes every member's assignment: one op
// is the whole group's SyncGroup assignments.
func BenchmarkAssignments(b *testing.B) {
	for _, shape := range benchShapes {
		_, assigns := benchGroup(shape.members, shape.partitions, shape.topics)
		encoded := make([][]byte, len(assigns))
		size := 0
		for i, a := range assigns {
			encoded[i] = a.AppendTo(nil)
			size += len(encoded[i])
		}
		b.Run("encode/"+benchName(shape), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for i, a := range assigns {
					encoded[i] = a.AppendTo(nil)
				}
			}
		})
		b.Run("encode-reuse/"+benchName(shape), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for i, a := range assigns {
					encoded[i] = a.AppendTo(encoded[i][:0])
				}
			}
		})
		b.Run("decode/"+benchName(shape), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, enc := range encoded {
					if _, err := wire.DecodeAssignment(enc); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// TestBenchGroupShape keeps the benchmark honest: the group it builds holds
// exactly the partitions it names, each once, spread evenly.
func TestBenchGroupShape(t *testing.T) {
	_, assigns := benchGroup(7, 1000, 10)
	seen := map[string]bool{}
	for _, a := range assigns {
		n := 0
		for _, tp := range a.Partitions {
			for _, p := range tp.Partitions {
				k := fmt.Sprint(tp.Topic, "/", p)
				if seen[k] {
					t.Fatalf("%s assigned twice", k)
				}
				seen[k] = true
				n++
			}
		}
		if n != 1000/7 && n != 1000/7+1 {
			t.Errorf("a member holds %d partitions, want %d or %d", n, 1000/7, 1000/7+1)
		}
	}
	if len(seen) != 1000 {
		t.Fatalf("benchmark group holds %d partitions, want 1000", len(seen))
	}
}
