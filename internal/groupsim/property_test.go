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
	"github.com/kgroup/assignor/internal/groupsim"
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
	return ix.PlanOf(assignor.FlatPlan{Holder: holder}), nil
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
		g := newRandomGroup(rt)
		for range rapid.IntRange(1, 12).Draw(rt, "steps") {
			g.step()
		}
		out, err := g.sim.Exec("settle max=10m")
		if err != nil {
			rt.Fatal(err)
		}
		if strings.Contains(out, "FAILURE") {
			rt.Fatalf("settle:\n%s\nscript:\n%s", out, strings.Join(g.history, "\n"))
		}
		if g.family != "unstable" && g.family != "cooperative-unstable" && !strings.HasPrefix(out, "settled") {
			rt.Fatalf("%s did not settle: %s\nscript:\n%s", g.family, out, strings.Join(g.history, "\n"))
		}
	})
}

// randomGroup is one random group of TestRandomEvents: a simulation driven
// by script commands drawn from rt, and what it holds so far.
type randomGroup struct {
	rt      *rapid.T
	sim     *groupsim.Sim
	family  string   // the assignor family
	lists   []string // the assignor lists a join or restart draws from
	static  string   // " static" when the members are static
	history []string // the script so far, printed on failure
	running map[string]bool
	exists  map[string]int // topic → partitions
	next    int            // the next member's number
}

// topicNames are the topics a random group may create and subscribe to.
var topicNames = []string{"t0", "t1", "t2"}

// newRandomGroup draws an assignor family, two topics and one to four
// members.
func newRandomGroup(rt *rapid.T) *randomGroup {
	names := slices.Sorted(maps.Keys(propertyFactories()))
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
	g := &randomGroup{rt: rt, family: family, lists: families[family], running: map[string]bool{}, exists: map[string]int{}}
	g.sim = groupsim.New(groupsim.Config{
		HeartbeatInterval: time.Second, SessionTimeout: 6 * time.Second,
		RebalanceTimeout: 10 * time.Second, Latency: 5 * time.Millisecond, Jitter: 3 * time.Millisecond, MetadataDelay: time.Second,
	}, propertyFactories())
	for _, tp := range topicNames[:2] {
		n := rapid.IntRange(1, 12).Draw(rt, "partitions")
		g.exec(fmt.Sprintf("topic create %s partitions=%d", tp, n))
		g.exists[tp] = n
	}
	if rapid.Bool().Draw(rt, "static") {
		g.static = " static"
	}
	for range rapid.IntRange(1, 4).Draw(rt, "initial") {
		g.join()
	}
	return g
}

// exec runs one command and fails on an error (but a member that is not
// running) or a failure the simulation saw.
func (g *randomGroup) exec(cmd string) {
	g.history = append(g.history, cmd)
	out, err := g.sim.Exec(cmd)
	if err != nil && strings.Contains(err.Error(), "is not running") {
		return // restarting, fenced or stopped: nothing to do
	}
	if err != nil {
		g.rt.Fatalf("%s: %v", cmd, err)
	}
	if strings.Contains(out, "FAILURE") {
		g.rt.Fatalf("%s:\n%s\nscript:\n%s", cmd, out, strings.Join(g.history, "\n"))
	}
}

func (g *randomGroup) list() string { return rapid.SampledFrom(g.lists).Draw(g.rt, "assignors") }

func (g *randomGroup) subscription() string {
	sub := rapid.SliceOfNDistinct(rapid.SampledFrom(topicNames), 1, 3, rapid.ID[string]).Draw(g.rt, "topics")
	slices.Sort(sub)
	return strings.Join(sub, ",")
}

func (g *randomGroup) join() {
	name := fmt.Sprintf("m%d", g.next)
	g.next++
	g.running[name] = true
	g.exec(fmt.Sprintf("join %s topics=%s assignors=%s%s", name, g.subscription(), g.list(), g.static))
}

// pick draws a running member, or returns false if none runs.
func (g *randomGroup) pick() (string, bool) {
	var live []string
	for n, ok := range g.running {
		if ok {
			live = append(live, n)
		}
	}
	if len(live) == 0 {
		return "", false
	}
	slices.Sort(live)
	return rapid.SampledFrom(live).Draw(g.rt, "member"), true
}

// step draws one event: a member joins, leaves, crashes, restarts, is cut
// off, changes its subscription or goes stale; a topic grows, appears or
// goes; the coordinator fails over; or time passes.
func (g *randomGroup) step() {
	switch rapid.IntRange(0, 11).Draw(g.rt, "event") {
	case 0:
		if len(g.running) < 6 {
			g.join()
		}
	case 1:
		g.stop("leave")
	case 2:
		g.stop("crash")
	case 3:
		if n, ok := g.pick(); ok {
			down := rapid.SampledFrom([]string{"0s", "2s", "8s"}).Draw(g.rt, "down")
			crash := rapid.SampledFrom([]string{"", " crash"}).Draw(g.rt, "crash")
			g.exec(fmt.Sprintf("restart %s down=%s%s assignors=%s", n, down, crash, g.list()))
		}
	case 4:
		if n, ok := g.pick(); ok {
			g.exec(fmt.Sprintf("disconnect %s for=%s", n, rapid.SampledFrom([]string{"2s", "8s", "15s"}).Draw(g.rt, "for")))
		}
	case 5:
		if n, ok := g.pick(); ok {
			g.exec(fmt.Sprintf("subscribe %s topics=%s", n, g.subscription()))
		}
	case 6:
		g.growOrCreate()
	case 7:
		tp := rapid.SampledFrom(topicNames).Draw(g.rt, "topic")
		if _, ok := g.exists[tp]; ok {
			g.exec("topic delete " + tp)
			delete(g.exists, tp)
		}
	case 8:
		if n, ok := g.pick(); ok {
			g.exec("stale " + n + " on")
			g.exec(fmt.Sprintf("run for=%s", rapid.SampledFrom([]string{"1s", "5s"}).Draw(g.rt, "stale-for")))
			g.exec("stale " + n + " off")
		}
	case 9:
		g.exec("failover for=" + rapid.SampledFrom([]string{"1s", "3s", "8s"}).Draw(g.rt, "failover"))
	default:
		g.exec(fmt.Sprintf("run for=%dms", rapid.IntRange(0, 20000).Draw(g.rt, "run")))
	}
}

// stop makes a running member leave or crash (verb), unless it is the last.
func (g *randomGroup) stop(verb string) {
	if n, ok := g.pick(); ok && len(g.running) > 1 {
		g.exec(verb + " " + n)
		delete(g.running, n)
	}
}

// growOrCreate grows a topic that exists, or creates one that does not.
func (g *randomGroup) growOrCreate() {
	tp := rapid.SampledFrom(topicNames).Draw(g.rt, "topic")
	if n, ok := g.exists[tp]; ok {
		n += rapid.IntRange(1, 4).Draw(g.rt, "more")
		g.exec(fmt.Sprintf("topic grow %s partitions=%d", tp, n))
		g.exists[tp] = n
	} else {
		n := rapid.IntRange(1, 6).Draw(g.rt, "new")
		g.exec(fmt.Sprintf("topic create %s partitions=%d", tp, n))
		g.exists[tp] = n
	}
}
