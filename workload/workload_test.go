package workload

import (
	"reflect"
	"slices"
	"testing"
)

var small = Shape{Topics: 4, Partitions: 5, Members: 6}

func ids(ms []Member) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	slices.Sort(out)
	return out
}

func TestBuildIsDeterministic(t *testing.T) {
	for _, sc := range Scenarios() {
		a, err := Build(small, sc, 7)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Build(small, sc, 7)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two builds from one seed differ", sc)
		}
		c, _ := Build(small, sc, 8)
		if reflect.DeepEqual(ids(a.After), ids(c.After)) {
			t.Errorf("%s: seeds 7 and 8 give the same member IDs", sc)
		}
	}
}

func TestScenarios(t *testing.T) {
	tests := []struct {
		sc    Scenario
		check func(t *testing.T, c Case)
	}{
		{Fresh, func(t *testing.T, c Case) {
			if c.Before != nil || len(c.After) != small.Members {
				t.Errorf("before %d, after %d members", len(c.Before), len(c.After))
			}
		}},
		{Join, func(t *testing.T, c Case) {
			before, after := ids(c.Before), ids(c.After)
			if len(after) != len(before)+1 {
				t.Fatalf("after has %d members, want %d", len(after), len(before)+1)
			}
			for _, id := range before {
				if !slices.Contains(after, id) {
					t.Errorf("member %s lost", id)
				}
			}
		}},
		{Leave, func(t *testing.T, c Case) {
			before, after := ids(c.Before), ids(c.After)
			if len(after) != len(before)-1 {
				t.Fatalf("after has %d members, want %d", len(after), len(before)-1)
			}
			for _, id := range after {
				if !slices.Contains(before, id) {
					t.Errorf("member %s appeared", id)
				}
			}
		}},
		{Mixed, func(t *testing.T, c Case) {
			half := 0
			for _, m := range c.After {
				if len(m.Topics) == small.Topics/2 {
					half++
				}
			}
			if half != small.Members/2 {
				t.Errorf("%d members take half the topics, want %d", half, small.Members/2)
			}
		}},
		{Racks, func(t *testing.T, c Case) {
			for _, tp := range c.Topics {
				for p, rs := range tp.ReplicaRacks {
					if len(rs) != 2 || rs[0] == rs[1] {
						t.Errorf("%s/%d: replica racks %v, want two distinct", tp.Name, p, rs)
					}
				}
			}
			for _, m := range c.After {
				if m.Rack == "" {
					t.Errorf("member %s has no rack", m.ID)
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(string(tt.sc), func(t *testing.T) {
			c, err := Build(small, tt.sc, 1)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

func TestScripts(t *testing.T) {
	roll, err := NewScript(Roll, small, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(roll.Events) != 2*small.Members {
		t.Errorf("roll has %d events, want %d", len(roll.Events), 2*small.Members)
	}
	scale, err := NewScript(Scale, small, 1)
	if err != nil {
		t.Fatal(err)
	}
	n, most := len(scale.Initial), len(scale.Initial)
	for _, ev := range scale.Events {
		n += len(ev.Join) - len(ev.Leave)
		most = max(most, n)
	}
	if most != small.Members || n != 1 {
		t.Errorf("scale peaks at %d members and ends at %d, want %d and 1", most, n, small.Members)
	}
	if _, err := NewScript("nope", small, 1); err == nil {
		t.Error("unknown script: no error")
	}
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name  string
		shape Shape
		sc    Scenario
	}{
		{"no topics", Shape{Partitions: 1, Members: 1}, Fresh},
		{"no partitions", Shape{Topics: 1, Members: 1}, Fresh},
		{"no members", Shape{Topics: 1, Partitions: 1}, Join},
		{"unknown scenario", small, "rolling"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if c, err := Build(tt.shape, tt.sc, DefaultSeed); err == nil {
				t.Fatalf("Build(%v, %q) = %+v, want an error", tt.shape, tt.sc, c)
			}
			if _, err := NewScript(Roll, tt.shape, DefaultSeed); err == nil && tt.sc == Fresh {
				t.Fatalf("NewScript(%v) gave no error", tt.shape)
			}
		})
	}
}
