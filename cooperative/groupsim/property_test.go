package groupsim_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/cooperative/groupsim"
)

// unstable is a valid but deliberately unstable eager assignor: round-robin
// over the members rotated by the number of claims, so any change of
// ownership reshuffles everything.
type unstable struct{}

func (unstable) Name() string { return "unstable" }

func (unstable) Assign(g assignor.Group) (assignor.Plan, error) {
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return assignor.Plan{}, err
	}
	claims := 0
	for m := range int32(ix.NumMembers()) {
		claims += len(ix.Claims(m))
	}
	holder := make([]int32, ix.NumPartitions())
	for t := range int32(ix.NumTopics()) {
		first, end := ix.TopicRange(t)
		subs := ix.Subscribers(t)
		for p := first; p < end; p++ {
			holder[p] = -1
			if len(subs) > 0 {
				holder[p] = subs[(int(p)+claims)%len(subs)]
			}
		}
	}
	return ix.PlanFromHolders(holder), nil
}

func propertyFactories() map[string]groupsim.Factory {
	f := factories()
	f["unstable"] = func() assignor.Assignor { return unstable{} }
	f["cooperative-unstable"] = func() assignor.Assignor { return cooperative.Wrap(unstable{}) }
	return f
}

// TestRandomEvents drives random groups through random event sequences and
// checks after every step that no partition has two owners in the current
// generation; with a stable inner assignor the group must then settle with
// every subscribed partition owned once.
func TestRandomEvents(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		names := slices.Sorted(func(yield func(string) bool) {
			for n := range propertyFactories() {
				if !yield(n) {
					return
				}
			}
		})
		// A family is one assignor list for every member, or a migration
		// from eager to cooperative in which each join and restart draws
		// one of the deploys' lists, so eager and cooperative members mix.
		families := map[string][]string{}
		for _, n := range names {
			families[n] = []string{n}
		}
		families["migration-sticky"] = []string{"sticky", "cooperative-sticky,sticky", "cooperative-sticky"}
		families["migration-roundrobin"] = []string{"roundrobin", "cooperative-roundrobin,roundrobin", "cooperative-roundrobin"}
		family := rapid.SampledFrom(slices.Sorted(maps.Keys(families))).Draw(rt, "family")
		lists := families[family]
		list := func() string { return rapid.SampledFrom(lists).Draw(rt, "assignors") }
		as := family
		sim := groupsim.New(groupsim.Config{
			HeartbeatInterval: time.Second, SessionTimeout: 6 * time.Second,
			RebalanceTimeout: 10 * time.Second, Latency: 5 * time.Millisecond, Jitter: 3 * time.Millisecond, MetadataDelay: time.Second,
		}, propertyFactories())
		var history []string // the script so far, printed on failure
		exec := func(cmd string) {
			history = append(history, cmd)
			out, err := sim.Exec(cmd)
			if err != nil && strings.Contains(err.Error(), "is not running") {
				return // restarting, fenced or stopped: nothing to do
			}
			if err != nil {
				rt.Fatalf("%s: %v", cmd, err)
			}
			if strings.Contains(out, "FAILURE") {
				rt.Fatalf("%s:\n%s\nscript:\n%s", cmd, out, strings.Join(history, "\n"))
			}
		}
		topics := []string{"t0", "t1", "t2"}
		exists := map[string]int{}
		for _, tp := range topics[:2] {
			n := rapid.IntRange(1, 12).Draw(rt, "partitions")
			exec(fmt.Sprintf("topic create %s partitions=%d", tp, n))
			exists[tp] = n
		}
		static := rapid.Bool().Draw(rt, "static")
		staticFlag := ""
		if static {
			staticFlag = " static"
		}
		running := map[string]bool{}
		next := 0
		subscription := func() string {
			sub := rapid.SliceOfNDistinct(rapid.SampledFrom(topics), 1, 3, rapid.ID[string]).Draw(rt, "topics")
			slices.Sort(sub)
			return strings.Join(sub, ",")
		}
		join := func() {
			name := fmt.Sprintf("m%d", next)
			next++
			running[name] = true
			exec(fmt.Sprintf("join %s topics=%s assignors=%s%s", name, subscription(), list(), staticFlag))
		}
		for range rapid.IntRange(1, 4).Draw(rt, "initial") {
			join()
		}
		pick := func() (string, bool) {
			var live []string
			for n, ok := range running {
				if ok {
					live = append(live, n)
				}
			}
			if len(live) == 0 {
				return "", false
			}
			slices.Sort(live)
			return rapid.SampledFrom(live).Draw(rt, "member"), true
		}
		steps := rapid.IntRange(1, 12).Draw(rt, "steps")
		for range steps {
			switch rapid.IntRange(0, 10).Draw(rt, "event") {
			case 0:
				if len(running) < 6 {
					join()
				}
			case 1:
				if n, ok := pick(); ok && len(running) > 1 {
					exec("leave " + n)
					delete(running, n)
				}
			case 2:
				if n, ok := pick(); ok && len(running) > 1 {
					exec("crash " + n)
					delete(running, n)
				}
			case 3:
				if n, ok := pick(); ok {
					down := rapid.SampledFrom([]string{"0s", "2s", "8s"}).Draw(rt, "down")
					crash := rapid.SampledFrom([]string{"", " crash"}).Draw(rt, "crash")
					exec(fmt.Sprintf("restart %s down=%s%s assignors=%s", n, down, crash, list()))
				}
			case 4:
				if n, ok := pick(); ok {
					exec(fmt.Sprintf("disconnect %s for=%s", n, rapid.SampledFrom([]string{"2s", "8s", "15s"}).Draw(rt, "for")))
				}
			case 5:
				if n, ok := pick(); ok {
					exec(fmt.Sprintf("subscribe %s topics=%s", n, subscription()))
				}
			case 6:
				tp := rapid.SampledFrom(topics).Draw(rt, "topic")
				if n, ok := exists[tp]; ok {
					n += rapid.IntRange(1, 4).Draw(rt, "more")
					exec(fmt.Sprintf("topic grow %s partitions=%d", tp, n))
					exists[tp] = n
				} else {
					n := rapid.IntRange(1, 6).Draw(rt, "new")
					exec(fmt.Sprintf("topic create %s partitions=%d", tp, n))
					exists[tp] = n
				}
			case 7:
				tp := rapid.SampledFrom(topics).Draw(rt, "topic")
				if _, ok := exists[tp]; ok {
					exec("topic delete " + tp)
					delete(exists, tp)
				}
			case 8:
				if n, ok := pick(); ok {
					exec("stale " + n + " on")
					exec(fmt.Sprintf("run for=%s", rapid.SampledFrom([]string{"1s", "5s"}).Draw(rt, "stale-for")))
					exec("stale " + n + " off")
				}
			default:
				exec(fmt.Sprintf("run for=%dms", rapid.IntRange(0, 20000).Draw(rt, "run")))
			}
		}
		out, err := sim.Exec("settle max=10m")
		if err != nil {
			rt.Fatal(err)
		}
		if strings.Contains(out, "FAILURE") {
			rt.Fatalf("settle:\n%s\nscript:\n%s", out, strings.Join(history, "\n"))
		}
		if as != "unstable" && as != "cooperative-unstable" && !strings.HasPrefix(out, "settled") {
			rt.Fatalf("%s did not settle: %s\nscript:\n%s", as, out, strings.Join(history, "\n"))
		}
	})
}
