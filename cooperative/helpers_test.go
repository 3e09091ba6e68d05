package cooperative

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/kgroup/assignor"
)

// parseTPs parses "t0[0 1] t1[2]" (the format of
// assignor.FormatTopicPartitions) as written, without sorting.
func parseTPs(s string) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		open := strings.IndexByte(s, '[')
		end := strings.IndexByte(s, ']')
		if open < 0 || end < open {
			panic("parseTPs: bad input " + strconv.Quote(s))
		}
		tp := assignor.TopicPartitions{Topic: s[:open], Partitions: []int32{}}
		for _, f := range strings.Fields(s[open+1 : end]) {
			n, err := strconv.Atoi(f)
			if err != nil {
				panic(err)
			}
			tp.Partitions = append(tp.Partitions, int32(n))
		}
		out = append(out, tp)
		s = s[end+1:]
	}
	return out
}

// member builds a member: topics space-separated, owned in parseTPs form.
func member(id string, gen int32, topics, owned string) assignor.Member {
	return assignor.Member{ID: id, Generation: gen, Topics: strings.Fields(topics), Owned: parseTPs(owned)}
}

func topic(name string, n int32) assignor.Topic {
	return assignor.Topic{Name: name, Partitions: assignor.Partitions(n)}
}

// planAssignor is an inner assignor that returns a fixed plan, given as
// member ID -> parseTPs text, with an entry for every member of the group
// (members not listed get nothing). It is as broken as its plan.
type planAssignor map[string]string

func (planAssignor) Name() string { return "fixed" }

func (pa planAssignor) Assign(g assignor.Group) (assignor.Plan, error) {
	var plan assignor.Plan
	for _, m := range g.Members {
		plan.Members = append(plan.Members, assignor.MemberPlan{Member: m.ID, Assigned: parseTPs(pa[m.ID])})
	}
	slices.SortFunc(plan.Members, func(a, b assignor.MemberPlan) int { return cmp.Compare(a.Member, b.Member) })
	return plan, nil
}

// hashAssignor gives each partition to one of its topic's subscribers,
// chosen by (topic index + partition) modulo their number. It ignores
// ownership, so it is stable, and it is balanced for one topic. It plays
// round-robin until package roundrobin is used.
type hashAssignor struct{}

func (hashAssignor) Name() string { return "hash" }

func (hashAssignor) Assign(g assignor.Group) (assignor.Plan, error) {
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return assignor.Plan{}, err
	}
	return ix.PlanOf(assignor.FlatPlan{Holder: hashHolders(ix, 0)}), nil
}

// hashHolders gives each partition to one of its topic's subscribers,
// chosen by (topic number + partition + shift) modulo their number, or -1
// when the topic has none.
func hashHolders(ix *assignor.Index, shift int) []int32 {
	holder := make([]int32, ix.NumPartitions())
	for t := range int32(ix.NumTopics()) {
		first, end := ix.TopicRange(t)
		subs := ix.Subscribers(t)
		for p := first; p < end; p++ {
			holder[p] = -1
			if len(subs) > 0 {
				holder[p] = subs[(int(t)+int(p)+shift)%len(subs)]
			}
		}
	}
	return holder
}

// keepAssignor keeps every partition with its valid owner when the owner
// subscribes, and gives the others as hashAssignor does. It is valid but
// not stable: a partition its previous plan kept with an owner goes by hash
// once the owner revokes it. (It still settles in practice: it never moves
// a partition away from a subscribing valid owner, so what the wrapper
// withholds from it went by hash already.)
type keepAssignor struct{}

func (keepAssignor) Name() string { return "keep" }

func (keepAssignor) Assign(g assignor.Group) (assignor.Plan, error) {
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return assignor.Plan{}, err
	}
	holder := hashHolders(ix, 0)
	for p := range int32(ix.NumPartitions()) {
		if o := ix.Owner(p); o >= 0 && ix.Subscribes(o, ix.TopicOf(p)) {
			holder[p] = o
		}
	}
	return ix.PlanOf(assignor.FlatPlan{Holder: holder}), nil
}

// rotateAssignor shifts hashAssignor's choice by the number of claimed
// partitions in the group: valid, deliberately unstable (its plan moves
// whenever ownership changes).
type rotateAssignor struct{}

func (rotateAssignor) Name() string { return "rotate" }

func (rotateAssignor) Assign(g assignor.Group) (assignor.Plan, error) {
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return assignor.Plan{}, err
	}
	shift := 0
	for m := range int32(ix.NumMembers()) {
		shift += len(ix.Claims(m))
	}
	return ix.PlanOf(assignor.FlatPlan{Holder: hashHolders(ix, shift)}), nil
}

// errAssignor fails.
type errAssignor struct{}

var errInner = errors.New("inner failed")

func (errAssignor) Name() string                                 { return "failing" }
func (errAssignor) Assign(assignor.Group) (assignor.Plan, error) { return assignor.Plan{}, errInner }

// declaring declares balanced, sticky, a subscription user data hook, and
// records OnAssignment calls.
type declaring struct {
	hashAssignor
	observed []int32
}

func (*declaring) Name() string   { return "declaring" }
func (*declaring) Balanced() bool { return true }
func (*declaring) Sticky() bool   { return true }
func (*declaring) SubscriptionUserData(st assignor.MemberState) ([]byte, error) {
	return []byte("inner:" + strconv.Itoa(int(st.Generation))), nil
}
func (d *declaring) OnAssignment(_ []assignor.TopicPartitions, _ []byte, gen int32) {
	d.observed = append(d.observed, gen)
}

// messyAssignor returns hashAssignor's assignment in a messy but valid
// form: topics and partitions in reverse order, a partition listed twice,
// an empty entry. The wrapper must still return canonical lists.
type messyAssignor struct{}

func (messyAssignor) Name() string { return "messy" }

func (messyAssignor) Assign(g assignor.Group) (assignor.Plan, error) {
	plan, err := hashAssignor{}.Assign(g)
	for i := range plan.Members {
		mp := &plan.Members[i]
		if len(mp.Assigned) == 0 {
			continue
		}
		var messy []assignor.TopicPartitions
		for _, tp := range slices.Backward(mp.Assigned) {
			ps := slices.Clone(tp.Partitions)
			slices.Reverse(ps)
			messy = append(messy, assignor.TopicPartitions{Topic: tp.Topic, Partitions: append(ps, ps[0])})
		}
		mp.Assigned = append(messy, assignor.TopicPartitions{Topic: mp.Assigned[0].Topic})
	}
	return plan, err
}

// indexedHash is hashAssignor answering in flat form
// (assignor.FlatAssignor) as well; its answer can be spoiled to test the
// checks.
type indexedHash struct {
	hashAssignor
	spoil func(ix *assignor.Index, holder []int32) ([]int32, [][]byte)
}

func (indexedHash) Name() string { return "indexed-hash" }

func (h indexedHash) AssignFlat(ix *assignor.Index) (assignor.FlatPlan, error) {
	holder := hashHolders(ix, 0)
	var userData [][]byte
	if h.spoil != nil {
		holder, userData = h.spoil(ix, holder)
	}
	return assignor.FlatPlan{Holder: holder, UserData: userData}, nil
}
