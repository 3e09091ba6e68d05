package kafka_test

import (
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/bench/internal/kafka"
	"github.com/kgroup/assignor/bench/internal/measure"
	"github.com/kgroup/assignor/workload"
)

// harness builds the Java harness once for the package's tests, or skips
// them unless ASSIGNOR_KAFKA=1 (they need Java 17+, Maven and, the first
// time, Maven Central).
func harness(t *testing.T) *kafka.Harness {
	t.Helper()
	if os.Getenv("ASSIGNOR_KAFKA") != "1" {
		t.Skip("set ASSIGNOR_KAFKA=1 to run Kafka's assignors (needs Java 17+ and Maven)")
	}
	built.once.Do(func() { built.h, built.err = kafka.Build(t.Context(), os.Stderr) })
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.h
}

var built struct {
	once sync.Once
	h    *kafka.Harness
	err  error
}

// quick times one run after one warm-up run: the tests judge plans, not
// speed.
var quick = kafka.Options{Warmup: kafka.Budget{MinRuns: 1}, Timed: kafka.Budget{MinRuns: 1}}

// judge evaluates plan as the bench does: the members' Owned is their
// history.
func judge(g assignor.Group, plan assignor.Plan, proto assignor.Protocol) measure.Quality {
	joins := make([]contender.MemberJoin, len(g.Members))
	for i, m := range g.Members {
		joins[i] = contender.MemberJoin{ID: m.ID, Topics: m.Topics, Rack: m.Rack, Owned: m.Owned, Generation: m.Generation}
	}
	as := make([]contender.Assignment, len(plan.Members))
	for i, mp := range plan.Members {
		as[i] = contender.Assignment{Member: mp.Member, Partitions: mp.Assigned}
	}
	return measure.Evaluate(g.Topics, joins, as, proto)
}

// rejoin returns g's members owning what plan gave them, one generation on.
func rejoin(g assignor.Group, plan assignor.Plan, generation int32) assignor.Group {
	out := g.Clone()
	for i, m := range out.Members {
		mp, _ := plan.Member(m.ID)
		out.Members[i].Owned = assignor.CloneTopicPartitions(mp.Assigned)
		out.Members[i].Generation = generation
	}
	return out
}

// TestPlans runs every Kafka assignor on the bench's scenarios (history:
// the assignor's own plan of the group before, as the bench measures) and
// checks every plan: valid for its protocol; with identical subscriptions
// balanced (spread at most one; for the client's cooperative-sticky after
// its follow-up round) and, when a member joins or leaves, moving the
// fewest partitions; range's plans balanced topic by topic.
func TestPlans(t *testing.T) {
	h := harness(t)
	shapes := []workload.Shape{{Topics: 4, Partitions: 6, Members: 5}, workload.Shapes()[0]}
	scenarios := []workload.Scenario{workload.Fresh, workload.Join, workload.Leave, workload.Mixed, workload.MixedJoin}
	for _, a := range kafka.Assignors() {
		t.Run(string(a), func(t *testing.T) {
			proto := assignor.Eager
			if a.Cooperative() {
				proto = assignor.Cooperative
			}
			// One JVM per step: every group's history first, then every measured group.
			var cases []workload.Case
			var befores []assignor.Group
			for _, s := range shapes {
				for _, sc := range scenarios {
					c, err := workload.Build(s, sc, workload.DefaultSeed)
					if err != nil {
						t.Fatal(err)
					}
					cases = append(cases, c)
					befores = append(befores, c.BeforeGroup())
				}
			}
			hist := run(t, h, a, withMembers(befores), kafka.PlanOnly())
			var groups []assignor.Group
			for i, c := range cases {
				var history assignor.Plan
				if len(befores[i].Members) > 0 {
					history = hist[i].Plan
				}
				groups = append(groups, c.Group(history))
			}
			res := run(t, h, a, groups, quick)
			var follow []assignor.Group
			for i, g := range groups {
				q := judge(g, res[i].Plan, proto)
				if !q.Valid {
					t.Errorf("%s: invalid plan: %v", label(i, shapes, scenarios), q.Violations)
					continue
				}
				if a.Cooperative() {
					follow = append(follow, rejoin(g, res[i].Plan, 2))
					continue
				}
				check(t, label(i, shapes, scenarios), a, g, res[i], q)
			}
			if !a.Cooperative() {
				return
			}
			settled := run(t, h, a, follow, kafka.PlanOnly())
			for i, g := range follow {
				name := label(i, shapes, scenarios)
				if q := judge(g, settled[i].Plan, proto); !q.Valid || q.Withheld > 0 || q.Moves > 0 {
					t.Errorf("%s: follow-up round: valid %v, %d withheld, %d moved: %v", name, q.Valid, q.Withheld, q.Moves, q.Violations)
				} else if q.Uniform && q.Spread > 1 {
					t.Errorf("%s: settled spread %d, want at most 1", name, q.Spread)
				}
				// The first round moves no more than must move.
				if q := judge(groups[i], res[i].Plan, proto); q.MinMoves >= 0 && q.Moves != q.MinMoves {
					t.Errorf("%s: %d moves, want %d", name, q.Moves, q.MinMoves)
				}
			}
		})
	}
}

// check judges a broker assignor's target assignment.
func check(t *testing.T, name string, a kafka.Assignor, g assignor.Group, r kafka.Result, q measure.Quality) {
	t.Helper()
	if q.Withheld > 0 {
		t.Errorf("%s: %d partitions assigned to nobody", name, q.Withheld)
	}
	wantType := "heterogeneous"
	if q.Uniform {
		wantType = "homogeneous"
	}
	if r.Subscription != wantType {
		t.Errorf("%s: subscription type %q, want %q", name, r.Subscription, wantType)
	}
	if a == kafka.Range {
		for topic, loads := range topicLoads(g, r.Plan) {
			if spread(loads) > 1 {
				t.Errorf("%s: range: topic %s split %v over its subscribers", name, topic, loads)
			}
		}
		return
	}
	if q.Uniform && q.Spread > 1 {
		t.Errorf("%s: spread %d, want at most 1", name, q.Spread)
	}
	if q.MinMoves >= 0 && q.Moves != q.MinMoves {
		t.Errorf("%s: %d moves, want %d", name, q.Moves, q.MinMoves)
	}
}

// topicLoads returns, per topic, how many of its partitions each of its
// subscribers got.
func topicLoads(g assignor.Group, plan assignor.Plan) map[string][]int {
	out := map[string][]int{}
	for _, m := range g.Members {
		mp, _ := plan.Member(m.ID)
		for _, topic := range m.Topics {
			n := 0
			for _, tp := range mp.Assigned {
				if tp.Topic == topic {
					n += len(tp.Partitions)
				}
			}
			out[topic] = append(out[topic], n)
		}
	}
	return out
}

func spread(xs []int) int {
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	return hi - lo
}

// withMembers replaces groups without members (scenarios without history)
// by a one-member group on the same topics, so that every group can go to
// the JVM; their results are not used.
func withMembers(gs []assignor.Group) []assignor.Group {
	out := make([]assignor.Group, len(gs))
	for i, g := range gs {
		if len(g.Members) == 0 {
			g.Members = []assignor.Member{{ID: "placeholder", Generation: assignor.NoGeneration}}
		}
		out[i] = g
	}
	return out
}

func run(t *testing.T, h *kafka.Harness, a kafka.Assignor, groups []assignor.Group, opt kafka.Options) []kafka.Result {
	t.Helper()
	res, err := h.Run(t.Context(), a, groups, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != len(groups) {
		t.Fatalf("%d results for %d groups", len(res), len(groups))
	}
	for i, r := range res {
		if len(r.Times) != max(opt.Timed.MinRuns, 1) || r.Capped || r.Times[0] <= 0 {
			t.Errorf("group %d: times %v, capped %v", i, r.Times, r.Capped)
		}
	}
	return res
}

func label(i int, shapes []workload.Shape, scenarios []workload.Scenario) string {
	return shapes[i/len(scenarios)].String() + " " + string(scenarios[i%len(scenarios)])
}

// The same group gives the same plan in every JVM (topic IDs and member
// order are fixed by the input), so the bench's judgement of one run holds
// for all.
func TestDeterministic(t *testing.T) {
	h := harness(t)
	c, err := workload.Build(workload.Shapes()[0], workload.Mixed, workload.DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	g := c.Group(assignor.Plan{})
	for _, a := range kafka.Assignors() {
		first := run(t, h, a, []assignor.Group{g}, kafka.PlanOnly())
		again := run(t, h, a, []assignor.Group{g}, quick)
		if !reflect.DeepEqual(first[0].Plan, again[0].Plan) {
			t.Errorf("%s: two JVMs, two plans", a)
		}
		if strings.Contains(first[0].JVM, "AlwaysPreTouch") || !strings.Contains(again[0].JVM, "AlwaysPreTouch") {
			t.Errorf("%s: the plan-only JVM touches its heap (%s), or the timed one does not (%s)", a, first[0].JVM, again[0].JVM)
		}
	}
}

// A run over the cap ends the group's runs and says so; the JVM states the
// heap it was given.
func TestCapAndHeap(t *testing.T) {
	h := harness(t)
	c, err := workload.Build(workload.Shapes()[1], workload.Fresh, workload.DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	opt := kafka.Options{Timed: kafka.Budget{MinRuns: 5}, Cap: time.Nanosecond, HeapMB: 300}
	res := run2(t, h, c.Group(assignor.Plan{}), opt)
	if !res.Capped || len(res.Times) != 1 {
		t.Errorf("capped %v after %d runs, want capped after 1", res.Capped, len(res.Times))
	}
	for _, want := range []string{"-Xms300m", "-Xmx300m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"} {
		if !strings.Contains(res.JVM, want) {
			t.Errorf("JVM %q lacks %s", res.JVM, want)
		}
	}
}

func run2(t *testing.T, h *kafka.Harness, g assignor.Group, opt kafka.Options) kafka.Result {
	t.Helper()
	res, err := h.Run(t.Context(), kafka.Uniform, []assignor.Group{g}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res[0]
}

// The budgets count runs as documented: at least MinRuns; more up to
// MaxRuns within Spend; more up to QuickRuns within QuickSpend.
func TestBudgets(t *testing.T) {
	h := harness(t)
	c, err := workload.Build(workload.Shape{Topics: 2, Partitions: 4, Members: 3}, workload.Fresh, workload.DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	g := c.Group(assignor.Plan{})
	tests := []struct {
		name   string
		budget kafka.Budget
		want   int
	}{
		{"MinRuns alone", kafka.Budget{MinRuns: 2}, 2},
		{"up to MaxRuns within Spend", kafka.Budget{MinRuns: 1, MaxRuns: 3, Spend: time.Minute}, 3},
		{"up to QuickRuns within QuickSpend", kafka.Budget{MinRuns: 1, MaxRuns: 2, Spend: time.Minute, QuickRuns: 6, QuickSpend: time.Minute}, 6},
		{"nothing more once Spend is spent", kafka.Budget{MinRuns: 1, MaxRuns: 9, Spend: time.Nanosecond}, 1},
	}
	var groups []assignor.Group
	for range tests {
		groups = append(groups, g)
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := h.Run(t.Context(), kafka.Range, groups[i:i+1], kafka.Options{Warmup: kafka.Budget{MinRuns: 2}, Timed: tt.budget})
			if err != nil {
				t.Fatal(err)
			}
			if len(res[0].Times) != tt.want || res[0].WarmupRuns != 2 {
				t.Errorf("%d timed runs, %d warm-up runs; want %d and 2", len(res[0].Times), res[0].WarmupRuns, tt.want)
			}
		})
	}
}
