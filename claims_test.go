package assignor_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kgroup/assignor"
)

func claimant(id string, gen int32, owned ...assignor.TopicPartitions) assignor.Member {
	return assignor.Member{ID: id, Topics: []string{"t0", "t1"}, Generation: gen, Owned: owned}
}

// index builds g's index.
func index(t interface {
	Helper()
	Fatalf(string, ...any)
}, g assignor.Group) *assignor.Index {
	t.Helper()
	ix, err := assignor.NewIndex(g)
	if err != nil {
		t.Fatalf("NewIndex: %v", err)
	}
	return ix
}

// twoTopics is the metadata of most rows: t0 with 4 partitions, t1 with 2.
var twoTopics = []assignor.Topic{{Name: "t0", Partitions: assignor.Partitions(4)}, {Name: "t1", Partitions: assignor.Partitions(2)}}

// owners renders ix.Owner for the partitions that are claimed:
// "t0/1=a" for a valid owner, "t0/2=contested".
func owners(ix *assignor.Index) []string {
	var out []string
	for p := range int32(ix.NumPartitions()) {
		topic, id := ix.Partition(p)
		switch m := ix.Owner(p); m {
		case assignor.Unclaimed:
		case assignor.Contested:
			out = append(out, fmt.Sprintf("%s/%d=contested", topic, id))
		default:
			out = append(out, fmt.Sprintf("%s/%d=%s", topic, id, ix.Member(m).ID))
		}
	}
	return out
}

// stale renders the claims below their partition's highest generation, as
// the index's claims and generations tell them: "b:t0/0@3".
func stale(ix *assignor.Index) []string {
	top := make([]int32, ix.NumPartitions())
	for p := range top {
		top[p] = assignor.NoGeneration
	}
	for m := range int32(ix.NumMembers()) {
		for _, p := range ix.Claims(m) {
			top[p] = max(top[p], ix.Generation(m))
		}
	}
	var out []string
	for m := range int32(ix.NumMembers()) {
		for _, p := range ix.Claims(m) {
			if gen := ix.Generation(m); gen < top[p] {
				topic, id := ix.Partition(p)
				out = append(out, fmt.Sprintf("%s:%s/%d@%d", ix.Member(m).ID, topic, id, gen))
			}
		}
	}
	slices.Sort(out)
	return out
}

// outside renders ix.Outside: "a:t9/0@2 unknown topic valid".
func outside(ix *assignor.Index) []string {
	var out []string
	for _, c := range ix.Outside() {
		s := fmt.Sprintf("%s:%s/%d@%d %v", ix.Member(c.Member).ID, c.Topic, c.Partition, c.Generation, c.Reason)
		if c.Valid {
			s += " valid"
		}
		out = append(out, s)
	}
	return out
}

// TestClaimClassification pins each rule of claim classification
// (KIP-429 ownership, KIP-792 generations) in NewIndex.
func TestClaimClassification(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		members []assignor.Member
		owners  []string
		stale   []string
		outside []string
	}{
		{
			name:    "KIP-792: the unique highest-generation claimant is the valid owner; lower claims are stale",
			members: []assignor.Member{claimant("a", 5, tp("t0", 0)), claimant("b", 3, tp("t0", 0, 1))},
			owners:  []string{"t0/0=a", "t0/1=b"},
			stale:   []string{"b:t0/0@3"},
		},
		{
			name:    "contested: a tie at the highest generation has no owner; lower claims are still stale",
			members: []assignor.Member{claimant("a", 4, tp("t0", 2)), claimant("b", 4, tp("t0", 2)), claimant("c", 2, tp("t0", 2))},
			owners:  []string{"t0/2=contested"},
			stale:   []string{"c:t0/2@2"},
		},
		{
			name:    "a higher generation resolves a tie below it",
			members: []assignor.Member{claimant("a", 4, tp("t0", 2)), claimant("b", 4, tp("t0", 2)), claimant("c", 6, tp("t0", 2))},
			owners:  []string{"t0/2=c"},
			stale:   []string{"a:t0/2@4", "b:t0/2@4"},
		},
		{
			name:    "a tie at NoGeneration is contested",
			members: []assignor.Member{claimant("a", assignor.NoGeneration, tp("t1", 1)), claimant("b", assignor.NoGeneration, tp("t1", 1))},
			owners:  []string{"t1/1=contested"},
		},
		{
			name:    "NoGeneration ranks below every explicit generation, generation 0 included",
			members: []assignor.Member{claimant("a", assignor.NoGeneration, tp("t1", 0)), claimant("b", 0, tp("t1", 0))},
			owners:  []string{"t1/0=b"},
			stale:   []string{"a:t1/0@-1"},
		},
		{
			name:    "a negative generation reads as NoGeneration",
			members: []assignor.Member{claimant("a", -9, tp("t1", 0)), claimant("b", assignor.NoGeneration, tp("t1", 0))},
			owners:  []string{"t1/0=contested"},
		},
		{
			name:    "a lone claim without generation is valid",
			members: []assignor.Member{claimant("a", assignor.NoGeneration, tp("t0", 3))},
			owners:  []string{"t0/3=a"},
		},
		{
			name:    "outside: unknown topic, valid when its claimant is unique",
			members: []assignor.Member{claimant("a", 2, tp("t9", 0))},
			outside: []string{"a:t9/0@2 unknown topic valid"},
		},
		{
			name:    "outside: partition beyond the known ones",
			members: []assignor.Member{claimant("a", 2, tp("t0", 4, 99))},
			outside: []string{"a:t0/4@2 unknown partition valid", "a:t0/99@2 unknown partition valid"},
		},
		{
			name:    "outside: a negative partition is never valid",
			members: []assignor.Member{claimant("a", 2, tp("t0", -1)), claimant("b", 2, tp("t9", -3))},
			outside: []string{"a:t0/-1@2 negative partition", "b:t9/-3@2 negative partition"},
		},
		{
			name: "outside: the highest generation wins among outside claims; a tie leaves none valid",
			members: []assignor.Member{
				claimant("a", 2, tp("t9", 0)), claimant("b", 3, tp("t9", 0)),
				claimant("c", 1, tp("t9", 1)), claimant("d", 1, tp("t9", 1)),
			},
			outside: []string{"a:t9/0@2 unknown topic", "b:t9/0@3 unknown topic valid", "c:t9/1@1 unknown topic", "d:t9/1@1 unknown topic"},
		},
		{
			name:    "a member that lists a partition twice claims it once, and does not contest itself",
			members: []assignor.Member{claimant("a", 1, tp("t0", 1, 1), tp("t0", 1), tp("t9", 0), tp("t9", 0))},
			owners:  []string{"t0/1=a"},
			outside: []string{"a:t9/0@1 unknown topic valid"},
		},
		{
			name:    "claims of a topic the member does not subscribe to still count",
			members: []assignor.Member{{ID: "a", Topics: []string{"t1"}, Generation: 3, Owned: []assignor.TopicPartitions{tp("t0", 0)}}},
			owners:  []string{"t0/0=a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g := assignor.Group{Members: tt.members, Topics: twoTopics}
			before := g.Clone()
			ix := index(t, g)
			if got := owners(ix); !slices.Equal(got, tt.owners) {
				t.Errorf("owners = %q, want %q", got, tt.owners)
			}
			if got := stale(ix); !slices.Equal(got, tt.stale) {
				t.Errorf("stale = %q, want %q", got, tt.stale)
			}
			if got := outside(ix); !slices.Equal(got, tt.outside) {
				t.Errorf("outside = %q, want %q", got, tt.outside)
			}
			if !reflect.DeepEqual(g, before) {
				t.Error("NewIndex mutated the group")
			}
		})
	}
}

func TestIndexClaimsAndGenerations(t *testing.T) {
	t.Parallel()
	g := assignor.Group{
		Members: []assignor.Member{claimant("b", -4, tp("t1", 1, 0), tp("t0", 3)), claimant("a", 7, tp("t0", 2, 2, 0))},
		Topics:  twoTopics,
	}
	ix := index(t, g)
	// Members by ID: a, b. Flat numbers: t0/0..3 are 0..3, t1/0..1 are 4..5.
	if got, want := [][]int32{ix.Claims(0), ix.Claims(1)}, [][]int32{{0, 2}, {3, 4, 5}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Claims = %v, want %v", got, want)
	}
	if got, want := []int32{ix.Generation(0), ix.Generation(1)}, []int32{7, assignor.NoGeneration}; !slices.Equal(got, want) {
		t.Errorf("Generation = %v, want %v", got, want)
	}
}

// TestIndexMetadata pins how NewIndex normalises the metadata.
func TestIndexMetadata(t *testing.T) {
	t.Parallel()
	t.Run("non-contiguous partition lists keep their IDs and ID order", func(t *testing.T) {
		t.Parallel()
		g := assignor.Group{
			Members: []assignor.Member{{ID: "a", Topics: []string{"t0"}, Generation: 1, Owned: []assignor.TopicPartitions{tp("t0", 9, 3)}}},
			Topics:  []assignor.Topic{{Name: "t0", Partitions: []int32{5, 2, 9}}},
		}
		ix := index(t, g)
		if got := ix.Topic(0).Partitions; !slices.Equal(got, []int32{2, 5, 9}) {
			t.Errorf("partitions = %v, want [2 5 9]", got)
		}
		for flat, id := range []int32{2, 5, 9} {
			if p, ok := ix.Flat(0, id); !ok || p != int32(flat) {
				t.Errorf("Flat(t0, %d) = %d, %v; want %d", id, p, ok, flat)
			}
			if topic, got := ix.Partition(int32(flat)); topic != "t0" || got != id {
				t.Errorf("Partition(%d) = %s/%d, want t0/%d", flat, topic, got, id)
			}
		}
		if _, ok := ix.Flat(0, 3); ok {
			t.Error("Flat(t0, 3) found a partition the metadata lacks")
		}
		if got, want := owners(ix), []string{"t0/9=a"}; !slices.Equal(got, want) {
			t.Errorf("owners = %q, want %q", got, want)
		}
		if got, want := outside(ix), []string{"a:t0/3@1 unknown partition valid"}; !slices.Equal(got, want) {
			t.Errorf("outside = %q, want %q", got, want)
		}
		if !slices.Equal(g.Topics[0].Partitions, []int32{5, 2, 9}) {
			t.Error("NewIndex sorted the caller's partition list")
		}
	})
	t.Run("duplicate and negative metadata partitions are dropped, replica racks follow", func(t *testing.T) {
		t.Parallel()
		g := assignor.Group{Topics: []assignor.Topic{{
			Name:         "t0",
			Partitions:   []int32{3, -1, 3, 0},
			ReplicaRacks: [][]string{{"r3"}, {"rneg"}, {"r3dup", "r3"}, {"r0"}},
			Weights:      []int64{30, -1, 31, 10},
		}}}
		ix := index(t, g)
		if got := ix.Topic(0).Partitions; !slices.Equal(got, []int32{0, 3}) {
			t.Errorf("partitions = %v, want [0 3]", got)
		}
		if got, want := ix.Topic(0).ReplicaRacks, [][]string{{"r0"}, {"r3", "r3dup"}}; !reflect.DeepEqual(got, want) {
			t.Errorf("replica racks = %v, want %v (a duplicate has the union of its listings' racks)", got, want)
		}
		if got, want := ix.Topic(0).Weights, []int64{10, 31}; !slices.Equal(got, want) {
			t.Errorf("weights = %v, want %v (a duplicate weighs its heaviest listing)", got, want)
		}
		if ix.NumPartitions() != 2 {
			t.Errorf("NumPartitions = %d, want 2", ix.NumPartitions())
		}
	})
	t.Run("duplicates resolve the same whatever their order", func(t *testing.T) {
		// Issue 24, finding 6: the first listing of a duplicate won, so the
		// plan depended on the order of the metadata.
		t.Parallel()
		type listing struct {
			id     int32
			racks  []string
			weight int64
		}
		listings := []listing{{2, []string{"b"}, 5}, {1, nil, assignor.UnknownWeight}, {2, []string{"a", "b"}, 9}, {1, []string{"c"}, 0}, {2, nil, assignor.UnknownWeight}}
		var want assignor.Topic
		for i, perm := range permutations(len(listings)) {
			tp := assignor.Topic{Name: "t"}
			for _, j := range perm {
				tp.Partitions = append(tp.Partitions, listings[j].id)
				tp.ReplicaRacks = append(tp.ReplicaRacks, listings[j].racks)
				tp.Weights = append(tp.Weights, listings[j].weight)
			}
			got := index(t, assignor.Group{Topics: []assignor.Topic{tp}}).Topic(0)
			if i == 0 {
				want = got
				if fmt.Sprint(got) != "{t [1 2] [[c] [a b]] [0 9]}" {
					t.Fatalf("topic %v, want partitions [1 2], racks [[c] [a b]], weights [0 9]", got)
				}
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("listing order %v: topic %v, order %v gave %v", perm, got, permutations(len(listings))[0], want)
			}
		}
	})
	t.Run("members and topics are numbered in ID and name order; unknown subscriptions are ignored", func(t *testing.T) {
		t.Parallel()
		g := assignor.Group{
			Members: []assignor.Member{{ID: "b", Topics: []string{"z", "missing", "a", "z"}}, {ID: "a", Topics: []string{"missing"}}},
			Topics:  []assignor.Topic{{Name: "z", Partitions: assignor.Partitions(1)}, {Name: "a", Partitions: assignor.Partitions(2)}},
		}
		ix := index(t, g)
		if ix.Member(0).ID != "a" || ix.Member(1).ID != "b" || ix.Topic(0).Name != "a" || ix.Topic(1).Name != "z" {
			t.Errorf("order: members %s %s, topics %s %s", ix.Member(0).ID, ix.Member(1).ID, ix.Topic(0).Name, ix.Topic(1).Name)
		}
		if got, want := [][]int32{ix.Subscriptions(0), ix.Subscriptions(1)}, [][]int32{{}, {0, 1}}; !reflect.DeepEqual(got, want) {
			t.Errorf("Subscriptions = %v, want %v", got, want)
		}
		if got, want := [][]int32{ix.Subscribers(0), ix.Subscribers(1)}, [][]int32{{1}, {1}}; !reflect.DeepEqual(got, want) {
			t.Errorf("Subscribers = %v, want %v", got, want)
		}
		first0, end0 := ix.TopicRange(0)
		first1, end1 := ix.TopicRange(1)
		if got := []int32{first0, end0, first1, end1}; !slices.Equal(got, []int32{0, 2, 2, 3}) {
			t.Errorf("TopicRange = %v, want [0 2 2 3]", got)
		}
	})
	t.Run("empty topics share a start and own no flat partition", func(t *testing.T) {
		t.Parallel()
		g := assignor.Group{Topics: []assignor.Topic{
			{Name: "a"}, {Name: "b", Partitions: assignor.Partitions(2)}, {Name: "c"}, {Name: "d", Partitions: assignor.Partitions(1)}, {Name: "e"},
		}}
		ix := index(t, g)
		for p, want := range []string{"b/0", "b/1", "d/0"} {
			if topic, id := ix.Partition(int32(p)); fmt.Sprintf("%s/%d", topic, id) != want {
				t.Errorf("Partition(%d) = %s/%d, want %s", p, topic, id, want)
			}
		}
	})
}

// naiveClassification classifies g's claims straight from the rules, with
// maps and no flat numbering, rendered like owners, stale and outside.
func naiveClassification(g assignor.Group) (own, old, out []string) {
	known := map[string]map[int32]bool{}
	for _, t := range g.Topics {
		known[t.Name] = map[int32]bool{}
		for _, p := range t.Partitions {
			if p >= 0 {
				known[t.Name][p] = true
			}
		}
	}
	type key struct {
		topic string
		id    int32
	}
	type claim struct {
		member string
		gen    int32
	}
	inside, outsideClaims := map[key][]claim{}, map[key][]claim{}
	reason := map[key]string{}
	for _, m := range g.Members {
		gen := max(m.Generation, assignor.NoGeneration)
		seen := map[key]bool{}
		for _, tp := range m.Owned {
			for _, id := range tp.Partitions {
				k := key{tp.Topic, id}
				if seen[k] {
					continue
				}
				seen[k] = true
				switch {
				case id < 0:
					reason[k] = "negative partition"
				case known[tp.Topic] == nil:
					reason[k] = "unknown topic"
				case !known[tp.Topic][id]:
					reason[k] = "unknown partition"
				default:
					inside[k] = append(inside[k], claim{m.ID, gen})
					continue
				}
				outsideClaims[k] = append(outsideClaims[k], claim{m.ID, gen})
			}
		}
	}
	best := func(cs []claim) (int32, int) {
		top, n := cs[0].gen, 0
		for _, c := range cs {
			top = max(top, c.gen)
		}
		for _, c := range cs {
			if c.gen == top {
				n++
			}
		}
		return top, n
	}
	for k, cs := range inside {
		top, n := best(cs)
		for _, c := range cs {
			switch {
			case c.gen < top:
				old = append(old, fmt.Sprintf("%s:%s/%d@%d", c.member, k.topic, k.id, c.gen))
			case n == 1:
				own = append(own, fmt.Sprintf("%s/%d=%s", k.topic, k.id, c.member))
			}
		}
		if n > 1 {
			own = append(own, fmt.Sprintf("%s/%d=contested", k.topic, k.id))
		}
	}
	for k, cs := range outsideClaims {
		top, n := best(cs)
		for _, c := range cs {
			s := fmt.Sprintf("%s:%s/%d@%d %s", c.member, k.topic, k.id, c.gen, reason[k])
			if c.gen == top && n == 1 && k.id >= 0 {
				s += " valid"
			}
			out = append(out, s)
		}
	}
	slices.Sort(own)
	slices.Sort(old)
	slices.Sort(out)
	return own, old, out
}

// TestClaimClassificationMatchesNaive compares NewIndex with
// naiveClassification on random groups: few partitions and generations, so
// that ties, stale claims, duplicates and outside claims are common.
func TestClaimClassificationMatchesNaive(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		topics := []string{"t0", "t1", "t2"}
		var g assignor.Group
		for i, name := range topics[:rapid.IntRange(0, 2).Draw(t, "known")] {
			ids := rapid.SliceOfN(rapid.Int32Range(-1, 4), 0, 5).Draw(t, fmt.Sprint("partitions", i))
			g.Topics = append(g.Topics, assignor.Topic{Name: name, Partitions: ids})
		}
		for i := range rapid.IntRange(1, 5).Draw(t, "members") {
			m := assignor.Member{ID: fmt.Sprint("m", i), Topics: topics, Generation: rapid.Int32Range(-3, 2).Draw(t, "generation")}
			for range rapid.IntRange(0, 3).Draw(t, "owned") {
				m.Owned = append(m.Owned, tp(rapid.SampledFrom(topics).Draw(t, "topic"), rapid.SliceOfN(rapid.Int32Range(-1, 5), 0, 4).Draw(t, "ids")...))
			}
			g.Members = append(g.Members, m)
		}
		ix := index(t, g)
		wantOwners, wantStale, wantOutside := naiveClassification(g)
		gotOwners, gotOutside := owners(ix), outside(ix)
		slices.Sort(gotOwners)
		slices.Sort(gotOutside)
		if !slices.Equal(gotOwners, wantOwners) {
			t.Errorf("owners = %q, naive %q", gotOwners, wantOwners)
		}
		if got := stale(ix); !slices.Equal(got, wantStale) {
			t.Errorf("stale = %q, naive %q", got, wantStale)
		}
		if !slices.Equal(gotOutside, wantOutside) {
			t.Errorf("outside = %q, naive %q", gotOutside, wantOutside)
		}
	})
}

// permutations returns every permutation of 0..n-1.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := range n {
			q := append(append(append([]int{}, p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}
