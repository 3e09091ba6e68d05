package balance

import (
	"slices"
	"testing"
)

func TestInterner(t *testing.T) {
	var in Interner
	for _, row := range []struct {
		name string
		list []int32
		want int32
	}{
		{"a new list is numbered next", []int32{0, 1}, 0},
		{"the same list as the last", []int32{0, 1}, 0},
		{"another list", []int32{1, 2}, 1},
		{"an earlier list, found by its hash", []int32{0, 1}, 0},
		{"the empty list", nil, 2},
		{"a prefix is another list", []int32{0}, 3},
	} {
		if got := in.Intern(row.list); got != row.want {
			t.Errorf("%s: Intern(%v) = %d, want %d", row.name, row.list, got, row.want)
		}
	}
	if in.Len() != 4 || !slices.Equal(in.Lists[1], []int32{1, 2}) {
		t.Errorf("lists = %v", in.Lists)
	}
}

// exampleGraph is the Graph doc's example: members A=0, B=1, C=2, groups
// 0 = {A, B} (slots 0, 1) and 1 = {B, C} (slots 2, 3).
func exampleGraph() *Graph {
	g := NewGraph(3, [][]int32{{0, 1}, {1, 2}}, nil)
	return &g
}

func TestGraph(t *testing.T) {
	g := exampleGraph()
	if !slices.Equal(g.SlotFrom, []int32{0, 2, 4}) {
		t.Errorf("SlotFrom = %v, want [0 2 4]", g.SlotFrom)
	}
	if got := g.GroupsOf(1); !slices.Equal(got, []int32{0, 1}) {
		t.Errorf("GroupsOf(B) = %v, want [0 1]", got)
	}
	if got := g.SlotsOf(1); !slices.Equal(got, []int32{1, 2}) {
		t.Errorf("SlotsOf(B) = %v, want [1 2]", got)
	}
	if s, ok := g.Slot(1, 2); s != 3 || !ok {
		t.Errorf("Slot(1, C) = %d, %v, want 3, true", s, ok)
	}
	if _, ok := g.Slot(1, 0); ok {
		t.Error("Slot(1, A) found A in group 1")
	}
	given := NewGraph(3, [][]int32{{0, 1}, {1, 2}}, []int32{10, 20})
	if got := given.SlotsOf(1); !slices.Equal(got, []int32{11, 20}) {
		t.Errorf("with slotFrom [10 20]: SlotsOf(B) = %v, want [11 20]", got)
	}
}

func TestWalk(t *testing.T) {
	g := exampleGraph()
	for _, row := range []struct {
		name     string
		held     []int32 // per slot
		forward  bool
		start    int32
		stop     int32 // the member to stop at
		want     int32
		chain    []int32 // from want back to the start
		chainVia []int32 // ParentSlot along the chain
	}{
		{"A passes through B to C", []int32{1, 0, 1, 0}, true, 0, 2, 2, []int32{2, 1, 0}, []int32{2, 0}},
		{"B holds nothing of group 1: C is out of reach", []int32{1, 0, 0, 0}, true, 0, 2, -1, nil, nil},
		{"backward: C is fed by B, fed by A", []int32{1, 0, 1, 0}, false, 2, 0, 0, []int32{0, 1, 2}, []int32{0, 2}},
		{"backward: A holds nothing, nobody feeds B", []int32{0, 0, 1, 0}, false, 2, 0, -1, nil, nil},
	} {
		t.Run(row.name, func(t *testing.T) {
			w := NewWalk(g, row.held)
			w.Reset()
			w.Start(row.start)
			stop := func(m int32) bool { return m == row.stop }
			var got int32
			if row.forward {
				got = w.Forward(nil, stop)
			} else {
				got = w.Backward(stop)
			}
			if got != row.want {
				t.Fatalf("reached %d, want %d", got, row.want)
			}
			if got < 0 {
				return
			}
			var chain, via []int32
			for u := got; u >= 0; u = w.Parent[u] {
				chain = append(chain, u)
				if w.Parent[u] >= 0 {
					via = append(via, w.ParentSlot[u])
				}
			}
			if !slices.Equal(chain, row.chain) || !slices.Equal(via, row.chainVia) {
				t.Errorf("chain %v via slots %v, want %v via %v", chain, via, row.chain, row.chainVia)
			}
		})
	}
	t.Run("blocked members are not crossed", func(t *testing.T) {
		w := NewWalk(g, []int32{1, 1, 1, 1})
		w.Reset()
		w.Start(0)
		if got := w.Forward([]bool{false, true, false}, func(m int32) bool { return m == 2 }); got != -1 {
			t.Errorf("reached %d through blocked B", got)
		}
		if !slices.Equal(w.Queue, []int32{0}) {
			t.Errorf("queue %v, want [0]", w.Queue)
		}
	})
}
