package runner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/workload"
)

func keysOf(cs []contender.Contender) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Key)
	}
	return out
}

func lookupAll(t *testing.T, keys ...string) []contender.Contender {
	t.Helper()
	var cs []contender.Contender
	for _, k := range keys {
		c, ok := contender.Lookup(k)
		if !ok {
			t.Fatalf("no contender %q", k)
		}
		cs = append(cs, c)
	}
	return cs
}

// The default time plot holds ours through each adapter, each client's
// own cooperative-sticky, the floor and your contenders; every other
// contender goes to the variants plot; a run with none of the default
// contenders draws all of its own on the default plot.
func TestSplitContenders(t *testing.T) {
	tests := []struct {
		name           string
		keys           []string
		main, variants string
	}{
		{"every built-in contender", keysOf(realContenders()),
			"ours-sarama-coop,ours-franz-coop,sarama-coop,franz-coop,floor", ""},
		{"yours on the default plot, its core row a variant", []string{"mine", "mine-core", "franz-coop", "ours-coop"},
			"franz-coop,mine", "mine-core,ours-coop"},
		{"Kafka's comparison: core rows only", []string{"ours-coop-core", "ours-sticky-owned-core", "touch-floor"},
			"ours-coop-core,ours-sticky-owned-core,touch-floor", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			main, variants, styles := splitContenders(lookupAll(t, tt.keys...))
			if got := strings.Join(keysOf(main), ","); got != tt.main {
				t.Errorf("default plot %s, want %s", got, tt.main)
			}
			if tt.variants != "" {
				if got := strings.Join(keysOf(variants), ","); got != tt.variants {
					t.Errorf("variants %s, want %s", got, tt.variants)
				}
			}
			seen := map[string]string{} // colour → key, on the default plot
			for _, c := range main {
				st, ok := styles[c.Key]
				if !ok {
					t.Fatalf("%s has no style", c.Key)
				}
				if other, dup := seen[colorKey(st.Color)]; dup {
					t.Errorf("%s and %s share a colour on the default plot", c.Key, other)
				}
				seen[colorKey(st.Color)] = c.Key
			}
			for _, c := range variants {
				if _, ok := styles[c.Key]; !ok {
					t.Errorf("variant %s has no style", c.Key)
				}
			}
		})
	}
	// Every built-in contender not on the default plot is on the variants plot.
	all := realContenders()
	main, variants, _ := splitContenders(all)
	if len(main)+len(variants) != len(all) {
		t.Errorf("%d on the default plot and %d variants, of %d contenders", len(main), len(variants), len(all))
	}
}

func colorKey(c interface{ RGBA() (r, g, b, a uint32) }) string {
	r, g, b, _ := c.RGBA()
	return string(rune(r>>8)) + string(rune(g>>8)) + string(rune(b>>8))
}

// The x axis is labelled in the shapes' notation only, with the members
// under each tick when they grow with the shapes.
func TestShapeTicks(t *testing.T) {
	shapes := workload.Shapes()
	ticks := shapeTicks{shapes: shapes, members: true}.Ticks(1, 1e9)
	if len(ticks) != len(shapes) {
		t.Fatalf("%d ticks for %d shapes", len(ticks), len(shapes))
	}
	for i, tk := range ticks {
		if want := fmt.Sprintf("%s\n(%d)", shapes[i].Short(), shapes[i].Members); tk.Label != want {
			t.Errorf("tick %d labelled %q, want %q", i, tk.Label, want)
		}
	}
	if ticks := (shapeTicks{shapes: workload.GrowthShapes()}).Ticks(1, 1e9); strings.Contains(ticks[0].Label, "(") {
		t.Errorf("growth shapes (1,000 members each): tick %q names members", ticks[0].Label)
	}
}
