package assignor_test

import (
	"errors"
	"fmt"
	"iter"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
)

// randomGroup draws a small group with every kind of claim: stale,
// contested, outside the metadata, listed twice.
func randomGroup(t *rapid.T) assignor.Group {
	topics := []string{"t0", "t1", "t2"}
	var g assignor.Group
	for i, name := range topics[:rapid.IntRange(1, 3).Draw(t, "known")] {
		ids := rapid.SliceOfN(rapid.Int32Range(-1, 5), 0, 6).Draw(t, fmt.Sprint("partitions", i))
		g.Topics = append(g.Topics, assignor.Topic{Name: name, Partitions: ids})
	}
	for i := range rapid.IntRange(1, 5).Draw(t, "members") {
		m := assignor.Member{
			ID:         fmt.Sprint("m", i),
			Topics:     rapid.SliceOfNDistinct(rapid.SampledFrom(topics), 0, 3, rapid.ID[string]).Draw(t, "topics"),
			Generation: rapid.Int32Range(-2, 3).Draw(t, "generation"),
		}
		for range rapid.IntRange(0, 3).Draw(t, "owned") {
			m.Owned = append(m.Owned, tp(rapid.SampledFrom(topics).Draw(t, "topic"), rapid.SliceOfN(rapid.Int32Range(-1, 6), 0, 4).Draw(t, "ids")...))
		}
		g.Members = append(g.Members, m)
	}
	return g
}

// yieldOwned yields m's owned partitions one partition at a time, the way
// an adapter walks a client's own structures.
func yieldOwned(owned []assignor.TopicPartitions) iter.Seq2[string, []int32] {
	return func(yield func(string, []int32) bool) {
		for _, tp := range owned {
			for _, id := range tp.Partitions {
				if !yield(tp.Topic, []int32{id}) {
					return
				}
			}
		}
	}
}

// build indexes g with an IndexBuilder, members in reverse order, owned
// partitions through iterators, after Grow(grow, grow, grow) when grow is
// not 0 (a hint may be short, long or negative).
func build(t interface{ Fatalf(string, ...any) }, g assignor.Group, grow int) *assignor.Index {
	var b assignor.IndexBuilder
	if grow != 0 {
		b.Grow(grow, grow, grow)
	}
	for _, topic := range slices.Backward(g.Topics) {
		b.AddTopic(topic)
	}
	for _, m := range slices.Backward(g.Members) {
		owned := m.Owned
		m.Owned = nil
		b.AddMember(m, yieldOwned(owned))
	}
	ix, err := b.Build()
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return ix
}

// TestIndexBuilderMatchesNewIndex: an Index built from a client's metadata
// through iterators, with or without a capacity hint (Grow), gives every
// assignor of the module the plan the group itself gives, through
// AssignIndex and through Assign(ix.Group()).
func TestIndexBuilderMatchesNewIndex(t *testing.T) {
	t.Parallel()
	assignors := []assignor.Assignor{
		roundrobin.New(), sticky.New(),
		cooperative.Wrap(roundrobin.New()), cooperative.Wrap(sticky.New()),
	}
	rapid.Check(t, func(t *rapid.T) {
		g := randomGroup(t)
		ix := build(t, g, rapid.IntRange(-2, 8).Draw(t, "grow"))
		for _, a := range assignors {
			want, err := a.Assign(g)
			if err != nil {
				t.Fatalf("%s: Assign: %v", a.Name(), err)
			}
			got, err := assignor.AssignIndex(a, ix)
			if err != nil || got.String() != want.String() {
				t.Fatalf("%s: AssignIndex:\n%s(err %v)\nAssign:\n%s", a.Name(), got, err, want)
			}
			got, err = a.Assign(ix.Group())
			if err != nil || got.String() != want.String() {
				t.Fatalf("%s: Assign(ix.Group()):\n%s(err %v)\nAssign:\n%s", a.Name(), got, err, want)
			}
		}
	})
}

// TestIndexBuilderErrors: the builder refuses what NewIndex refuses, and a
// second Build.
func TestIndexBuilderErrors(t *testing.T) {
	t.Parallel()
	var b assignor.IndexBuilder
	b.AddMember(assignor.Member{ID: "a"}, nil)
	b.AddMember(assignor.Member{ID: "a"}, nil)
	if _, err := b.Build(); !errors.Is(err, assignor.ErrDuplicateMember) {
		t.Errorf("duplicate member: Build = %v, want ErrDuplicateMember", err)
	}
	var ok assignor.IndexBuilder
	ok.AddTopic(assignor.Topic{Name: "t", Partitions: assignor.Partitions(2)})
	if _, err := ok.Build(); err != nil {
		t.Fatal(err)
	}
	if _, err := ok.Build(); err == nil {
		t.Error("a second Build succeeded")
	}
}

// TestIndexMemberOwnedWithIterator: a member added with an iterator of
// owned partitions has a nil Owned in Index.Member, whatever the Member
// passed to AddMember held (those are not its claims: the iterator's are);
// one added without an iterator keeps its Owned as claims.
func TestIndexMemberOwnedWithIterator(t *testing.T) {
	var b assignor.IndexBuilder
	b.AddTopic(assignor.Topic{Name: "t", Partitions: assignor.Partitions(4)})
	b.AddMember(assignor.Member{ID: "it", Topics: []string{"t"}, Owned: []assignor.TopicPartitions{tp("t", 3)}}, yieldOwned([]assignor.TopicPartitions{tp("t", 0, 1)}))
	b.AddMember(assignor.Member{ID: "plain", Topics: []string{"t"}, Owned: []assignor.TopicPartitions{tp("t", 2)}}, nil)
	ix, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	it, _ := ix.MemberNumber("it")
	plain, _ := ix.MemberNumber("plain")
	if owned := ix.Member(it).Owned; owned != nil {
		t.Fatalf("Member(it).Owned = %v, want nil (its claims came from the iterator)", owned)
	}
	if got := ix.Claims(it); !slices.Equal(got, []int32{0, 1}) {
		t.Fatalf("Claims(it) = %v, want the iterator's [0 1]", got)
	}
	if got := ix.Claims(plain); !slices.Equal(got, []int32{2}) {
		t.Fatalf("Claims(plain) = %v, want [2]", got)
	}
}
