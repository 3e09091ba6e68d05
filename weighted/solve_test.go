package weighted

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestSolveRejects: invalid input is an error that wraps errInput (for the
// group) and names the culprit; nothing panics.
func TestSolveRejects(t *testing.T) {
	valid := func() group {
		return group{members: 2, topic: []int32{0, 0}, weight: []int64{1, 2}, subscribers: [][]int32{{0, 1}}}
	}
	for _, row := range []struct {
		name    string
		change  func(g *group, c *config)
		culprit string // in the message
		input   bool   // wraps errInput
	}{
		{"negative weight", func(g *group, _ *config) { g.weight[1] = -1 }, "partition 1: negative weight -1", true},
		{"topic out of range", func(g *group, _ *config) { g.topic[0] = 3 }, "partition 0: topic 3", true},
		{"negative topic", func(g *group, _ *config) { g.topic[0] = -1 }, "partition 0: topic -1", true},
		{"subscriber out of range", func(g *group, _ *config) { g.subscribers[0] = []int32{0, 2} }, "topic 0: subscriber 2", true},
		{"owner out of range", func(g *group, _ *config) { g.owner = []int32{-1, 5} }, "partition 1: owner 5", true},
		{"owners of another length", func(g *group, _ *config) { g.owner = []int32{0} }, "1 owners for 2 partitions", true},
		{"weights of another length", func(g *group, _ *config) { g.weight = []int64{1} }, "1 weights for 2 partitions", true},
		{"total above 2^61", func(g *group, _ *config) { g.weight = []int64{maxTotal, 1} }, "partition 1: total weight", true},
		{"rack set out of range", func(g *group, _ *config) { g.replicaRacks = []int32{0, 1}; g.rackSets = [][]int32{{0}} }, "partition 1: rack set 1", true},
		{"negative rack in a set", func(g *group, _ *config) { g.replicaRacks = []int32{0, 0}; g.rackSets = [][]int32{{-2}} }, "rack set 0: rack -2", true},
		{"member rack below -1", func(g *group, _ *config) { g.memberRack = []int32{0, -3} }, "member 1: rack -3", true},
		{"negative members", func(g *group, _ *config) { g.members = -1 }, "-1 members", true},
		{"negative skew", func(_ *group, c *config) { c.countTolerance = -1 }, "count skew -1", false},
		{"margin above 100%", func(_ *group, c *config) { c.marginPPM = 1_000_001 }, "margin 1000001", false},
		{"negative band", func(_ *group, c *config) { c.bandPPM = -1 }, "band -1", false},
	} {
		t.Run(row.name, func(t *testing.T) {
			g, cfg := valid(), defaultConfig()
			row.change(&g, &cfg)
			_, err := solve(g, cfg)
			switch {
			case err == nil:
				t.Fatal("no error")
			case !strings.HasPrefix(err.Error(), "weighted: ") || !strings.Contains(err.Error(), row.culprit):
				t.Fatalf("error %q does not name %q", err, row.culprit)
			case errors.Is(err, errInput) != row.input:
				t.Fatalf("error %q: wraps errInput %v, want %v", err, !row.input, row.input)
			}
		})
	}
}

// TestSolveCases pins small plans whose answer is the spec: the package
// documentation's example, and the edges.
func TestSolveCases(t *testing.T) {
	docGroup := func() *group {
		return &group{members: 3, topic: []int32{0, 0, 0, 0, 0, 0}, weight: []int64{90, 40, 30, 20, 10, 10}, subscribers: [][]int32{{0, 1, 2}}}
	}
	drifted := docGroup()
	drifted.owner = []int32{0, 1, 2, 2, 1, 1}
	drifted.weight = []int64{94, 38, 31, 19, 10, 10}
	joined := docGroup()
	joined.members = 4
	joined.subscribers = [][]int32{{0, 1, 2, 3}}
	joined.owner = []int32{0, 1, 2, 2, 1, 1}
	for _, row := range []struct {
		name string
		g    *group
		want []int32
	}{
		{"doc example: the heaviest partition alone, the rest by weight", docGroup(), []int32{0, 1, 2, 2, 1, 1}},
		{"doc example: ±5% drift moves nothing", drifted, []int32{0, 1, 2, 2, 1, 1}},
		{"doc example: D joins, takes t0[1] from B, B takes t0[3] from C", joined, []int32{0, 3, 2, 1, 1, 1}},
		{"no members: every partition unassigned", &group{topic: []int32{0, 0}, weight: []int64{1, 1}, subscribers: [][]int32{nil}}, []int32{-1, -1}},
		{"empty group", &group{}, []int32{}},
		{"unsubscribed topic stays unassigned", &group{members: 2, topic: []int32{0, 1, 1}, weight: []int64{5, 1, 1}, subscribers: [][]int32{nil, {1}}}, []int32{-1, 1, 1}},
		{"all idle: counts balanced, each topic spread", &group{members: 2, topic: []int32{0, 0, 1, 1}, weight: []int64{0, 0, 0, 0}, subscribers: [][]int32{{0, 1}, {0, 1}}}, []int32{0, 1, 0, 1}},
		{"an owner that no longer subscribes is no owner", &group{members: 2, topic: []int32{0, 0}, weight: []int64{3, 3}, owner: []int32{0, 0}, subscribers: [][]int32{{1}}}, []int32{1, 1}},
	} {
		t.Run(row.name, func(t *testing.T) {
			if got := mustSolve(t, row.g, defaultConfig()); !slices.Equal(got, row.want) {
				t.Fatalf("plan %v, want %v", got, row.want)
			}
		})
	}
}

// TestSolveRacks: with equal weights and one partition per rack and member,
// every partition goes to the member in its replica's rack; racks never
// cost balance beyond the band.
func TestSolveRacks(t *testing.T) {
	g := &group{
		members: 3, topic: []int32{0, 0, 0, 0, 0, 0}, weight: []int64{10, 10, 10, 10, 10, 10},
		subscribers: [][]int32{{0, 1, 2}},
		memberRack:  []int32{2, 0, 1}, replicaRacks: []int32{0, 1, 2, 0, 1, 2}, rackSets: [][]int32{{0}, {1}, {2}},
	}
	got := mustSolve(t, g, defaultConfig())
	if want := []int32{1, 2, 0, 1, 2, 0}; !slices.Equal(got, want) {
		t.Fatalf("plan %v, want every partition in its replica's rack %v", got, want)
	}
	g.weight = []int64{100, 10, 10, 10, 10, 10} // a rack-local plan would load member 1 with 110
	load, _ := loadsOf(g, mustSolve(t, g, defaultConfig()))
	if maxOf(load) > 101 {
		t.Fatalf("loads %v: racks cost balance", load)
	}
}
