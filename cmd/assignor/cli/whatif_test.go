package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/sticky"
)

func TestWhatIfBuiltins(t *testing.T) {
	v := newView(skewedSnapshot())
	for _, tc := range []struct {
		key string
		// The rule each row pins.
		check func(t *testing.T, w whatIf)
	}{
		{"sticky", func(t *testing.T, w whatIf) {
			// Count-balanced already: sticky keeps the assignment.
			if w.Moved != 0 || w.Rounds != 1 || w.After.LoadMax != w.Before.LoadMax {
				t.Errorf("sticky moved %d in %d rounds, heaviest %v → %v", w.Moved, w.Rounds, w.Before.LoadMax, w.After.LoadMax)
			}
		}},
		{"cooperative-sticky", func(t *testing.T, w whatIf) {
			if w.Moved != 0 || w.Rounds != 1 || w.Withheld != 0 {
				t.Errorf("moved %d, rounds %d, withheld %d", w.Moved, w.Rounds, w.Withheld)
			}
		}},
		{"round-robin", func(t *testing.T, w whatIf) {
			if w.After.CountSpread > 1 || w.Rounds != 1 {
				t.Errorf("count spread %d, rounds %d", w.After.CountSpread, w.Rounds)
			}
		}},
		{"weighted", func(t *testing.T, w whatIf) {
			// a[0] (100) without a[1] (40): the heaviest drops from 140,
			// more than the 10% hysteresis margin above the best.
			if w.After.LoadMax >= w.Before.LoadMax || w.Moved == 0 || w.Rounds != 1 {
				t.Errorf("heaviest %v → %v, moved %d, rounds %d", w.Before.LoadMax, w.After.LoadMax, w.Moved, w.Rounds)
			}
		}},
		{"cooperative-weighted", func(t *testing.T, w whatIf) {
			// Cooperative: what moves is withheld first, handed over in a
			// second round.
			if w.After.LoadMax >= w.Before.LoadMax || w.Rounds != 2 || w.Withheld == 0 || !w.Settled {
				t.Errorf("heaviest %v → %v, rounds %d, withheld %d, settled %v", w.Before.LoadMax, w.After.LoadMax, w.Rounds, w.Withheld, w.Settled)
			}
		}},
	} {
		t.Run(tc.key, func(t *testing.T) {
			e, ok := lookup(tc.key)
			if !ok {
				t.Fatalf("%s not registered", tc.key)
			}
			w, err := planWhatIf(v, e)
			if err != nil {
				t.Fatal(err)
			}
			if len(w.Members) != 3 || w.Before.Heaviest != "m1" || w.Before.LoadMax != 140 {
				t.Fatalf("before: %+v", w.Before)
			}
			var loads float64
			for _, m := range w.Members {
				loads += m.LoadAfter
			}
			if loads != 180 {
				t.Errorf("loads after add up to %v, want all 180 records/s placed", loads)
			}
			tc.check(t, w)
			var buf bytes.Buffer
			if err := renderWhatIf(&buf, w); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), "heaviest after:") {
				t.Errorf("render:\n%s", buf.String())
			}
		})
	}
}

// everything gives every partition to every member: an invalid plan.
type everything struct{}

func (everything) Name() string { return "everything" }
func (everything) Assign(g assignor.Group) (assignor.Plan, error) {
	var all []assignor.TopicPartitions
	for _, t := range g.Topics {
		all = append(all, assignor.TopicPartitions{Topic: t.Name, Partitions: t.Partitions})
	}
	var p assignor.Plan
	for _, m := range g.Members {
		p.Members = append(p.Members, assignor.MemberPlan{Member: m.ID, Assigned: assignor.CloneTopicPartitions(all)})
	}
	return p, nil
}

// forever asks for a follow-up round every time.
type forever struct{ *sticky.Assignor }

func (f forever) Assign(g assignor.Group) (assignor.Plan, error) {
	p, err := f.Assignor.Assign(g)
	p.FollowUp = true
	return p, err
}

func (forever) Protocols() []assignor.Protocol { return []assignor.Protocol{assignor.Eager} }

func TestWhatIfChecksThePlan(t *testing.T) {
	v := newView(skewedSnapshot())
	_, err := planWhatIf(v, Assignor("everything", "", func() everything { return everything{} }))
	if err == nil || !strings.Contains(err.Error(), "round 1: the plan is invalid") {
		t.Errorf("an invalid plan: %v", err)
	}
	w, err := planWhatIf(v, Assignor("forever", "", func() forever { return forever{sticky.New()} }))
	if err != nil {
		t.Fatal(err)
	}
	if w.Settled || w.Rounds != maxRounds {
		t.Errorf("an assignor that never settles: settled %v after %d rounds", w.Settled, w.Rounds)
	}
}

func TestWhatIfNotStable(t *testing.T) {
	s := skewedSnapshot()
	s.State = "CompletingRebalance"
	s.Members = []rawMember{{MemberID: "a"}}
	e, _ := lookup("sticky")
	if _, err := planWhatIf(newView(s), e); !errors.Is(err, errNotStable) {
		t.Errorf("got %v, want errNotStable", err)
	}
}

func TestRegister(t *testing.T) {
	saved := entries()
	t.Cleanup(func() { registryMu.Lock(); registry = saved; registryMu.Unlock() })
	mine := Assignor("mine-test", "my sticky", sticky.New) // a func() *sticky.Assignor
	if err := Register(mine); err != nil {
		t.Fatal(err)
	}
	if e, ok := lookup("mine-test"); !ok || e.New().Name() != "sticky" {
		t.Errorf("lookup: %+v %v", e, ok)
	}
	for _, tc := range []struct {
		name string
		e    Entry
		want string
	}{
		{"taken key", mine, "is taken"},
		{"built-in key", Assignor("sticky", "", sticky.New), "is taken"},
		{"malformed key", Assignor("my assignor", "", sticky.New), "want letters, digits and dashes"},
		{"nil constructor", Assignor[*sticky.Assignor]("nil-new", "", nil), "New is nil"},
		{"constructor returns nil", Assignor("nil-result", "", func() *sticky.Assignor { return nil }), "returned nil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := Register(tc.e); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}
