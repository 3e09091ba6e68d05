package e2e

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroup/assignor/adapters/kgoassignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// Franz-go kinds: this module's cooperative-sticky through the franz-go
// adapter, with fast re-join (the adapter's default) and without, and
// kgo's own eager sticky. Each member gets a fresh balancer, which the
// harness also passes to kgo.WithHooks (the adapter binds itself to its
// client that way).
var (
	OursKgo = Kind{Name: "ours-kgo", Kgo: func() []kgo.GroupBalancer {
		return []kgo.GroupBalancer{kgoassignor.CooperativeSticky()}
	}}
	OursKgoNoFastRejoin = Kind{Name: "ours-kgo-nofast", Kgo: func() []kgo.GroupBalancer {
		b, err := kgoassignor.New(cooperative.Wrap(sticky.New()), kgoassignor.Config{DisableFastRejoin: true})
		if err != nil { // unreachable: the assignor is non-nil and named
			panic(err)
		}
		return []kgo.GroupBalancer{b}
	}}
	KgoSticky = Kind{Name: "kgo-sticky", Kgo: func() []kgo.GroupBalancer {
		return []kgo.GroupBalancer{kgo.StickyBalancer()}
	}}
)

// FranzGoScripts are the franz-go adapter's end-to-end scenarios: the
// single-kind scripts of [Scripts], the migration from kgo's eager sticky
// and a mixed group of four kinds on two clients.
var FranzGoScripts = []Script{
	{"rolling-restart", true, rollingRestart},
	{"scale-out-in", true, scaleOutIn},
	{"crash", true, crashAndReplace},
	{"static-restart", true, staticRestart},
	{"migrate-from-kgo-eager", false, migrateFromKgoEager},
	{"mixed-clients", false, mixedClients},
}

// migrateFromKgoEager is the migration of a franz-go group: 4 members on
// kgo's eager sticky, then two rolling deploys, first to [k, sticky] (the
// group keeps choosing "sticky" until every member lists both, and kgo
// stays eager while any balancer it has is eager), then to [k] alone. k
// must be a franz-go kind.
func migrateFromKgoEager(h *Harness, k Kind) error {
	if k.Kgo == nil {
		return fmt.Errorf("e2e: migrate-from-kgo-eager: %s is not a franz-go kind", k.Name)
	}
	both := Kind{Name: k.Name + "+sticky", Kgo: func() []kgo.GroupBalancer {
		return append(k.Kgo(), kgo.StickyBalancer())
	}}
	return migrate(h, KgoSticky, both, k)
}

// mixedClients is the mixed group on two clients: k (ours on franz-go),
// kgo's own cooperative-sticky, ours on sarama and sarama's own
// cooperative-sticky, two members each, restarted until each kind has led
// alone (see mixedLeaders) or 20 restarts are done.
func mixedClients(h *Harness, k Kind) error {
	return mixedGroup(h, []Kind{k, KgoCooperativeSticky, Ours, SaramaCooperativeSticky}, 20)
}

// FranzGoScriptNamed returns the franz-go script with the given name.
func FranzGoScriptNamed(name string) (Script, bool) {
	i := slices.IndexFunc(FranzGoScripts, func(s Script) bool { return s.Name == name })
	if i < 0 {
		return Script{}, false
	}
	return FranzGoScripts[i], true
}

// FranzGoFigures runs the figures of docs/franzgo.md, runs times each,
// interleaved: the single-kind scripts with ours on franz-go with and
// without fast re-join, kgo's cooperative-sticky and kgo's eager sticky;
// the migration with ours on franz-go with and without fast re-join; the
// mixed group with ours on franz-go. only, if non-empty, keeps the scripts
// and kinds it names (a script or kind it does not name is kept when only
// names none of its group).
func FranzGoFigures(runs int, opts Options, only []string, progress func(Report, error)) []Row {
	kinds := map[string][]Kind{
		"migrate-from-kgo-eager": {OursKgo, OursKgoNoFastRejoin},
		"mixed-clients":          {OursKgo},
	}
	scripts := keep(FranzGoScripts, only, func(s Script) string { return s.Name })
	var rows []Row
	for _, s := range scripts {
		ks, ok := kinds[s.Name]
		if !ok {
			ks = []Kind{OursKgo, OursKgoNoFastRejoin, KgoCooperativeSticky, KgoSticky}
		}
		rows = append(rows, figures([]Script{s}, keep(ks, only, func(k Kind) string { return k.Name }), runs, opts, progress)...)
	}
	return rows
}

// keep returns the elements of xs whose name only lists, or all of them when
// only lists none.
func keep[T any](xs []T, only []string, name func(T) string) []T {
	if !slices.ContainsFunc(xs, func(x T) bool { return slices.Contains(only, name(x)) }) {
		return xs
	}
	var out []T
	for _, x := range xs {
		if slices.Contains(only, name(x)) {
			out = append(out, x)
		}
	}
	return out
}

// MarkdownSettle renders rows as a Markdown table of what a rebalance costs:
// the safety counts, then settle time per event, partition-seconds without
// an owner and the longest member pause.
func MarkdownSettle(rows []Row) string {
	var b strings.Builder
	b.WriteString("| script | kind | runs | overlaps | lost | duplicates | rebalances | settle per event, median | settle, max | unowned partition-s | longest member pause |\n")
	b.WriteString("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range rows {
		runs := fmt.Sprint(r.Runs)
		if r.Failed > 0 {
			runs += fmt.Sprintf(" (+%d failed)", r.Failed)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %g | %g | %g | %g | %v | %v | %.1f | %v |\n",
			r.Script, r.Kind, runs, r.Overlaps, r.Lost, r.Duplicates, r.Rebalances,
			roundSeconds(r.MedianSettle), roundSeconds(r.MaxSettle), r.UnownedSeconds, roundSeconds(r.MaxPause))
	}
	return b.String()
}

// roundSeconds shows a duration to the hundredth of a second.
func roundSeconds(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }
