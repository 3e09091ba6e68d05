package kafka

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kgroup/assignor"
)

// encodeGroup appends g in the harness's text form (see GroupInput.java),
// labelled label. Topics are written in g's order, members in g's order;
// the plan read back refers to both by index. A member's topics that the
// metadata lacks are left out, as Kafka leaves them out. It fails on what
// Kafka never hands its assignors: partitions other than 0..n-1, a claim
// on a partition the metadata lacks, names with white space.
func encodeGroup(b []byte, label string, g assignor.Group) ([]byte, error) {
	topicIndex := make(map[string]int, len(g.Topics))
	b = fmt.Appendf(b, "group %s\ntopics %d\n", label, len(g.Topics))
	for i, t := range g.Topics {
		if err := word("topic", t.Name); err != nil {
			return nil, err
		}
		if _, dup := topicIndex[t.Name]; dup {
			return nil, fmt.Errorf("kafka: topic %q listed twice", t.Name)
		}
		for j, p := range t.Partitions {
			if p != int32(j) {
				return nil, fmt.Errorf("kafka: topic %q: partition %d at position %d; the harness takes partitions 0..n-1 in order", t.Name, p, j)
			}
		}
		topicIndex[t.Name] = i
		b = fmt.Appendf(b, "%s %d\n", t.Name, len(t.Partitions))
	}
	b = fmt.Appendf(b, "members %d\n", len(g.Members))
	owned := 0
	for _, m := range g.Members {
		if err := word("member", m.ID); err != nil {
			return nil, err
		}
		rack := m.Rack
		if rack == "" {
			rack = "-"
		} else if err := word("rack", rack); err != nil {
			return nil, fmt.Errorf("member %q: %w", m.ID, err)
		}
		var ts []int
		for _, name := range m.Topics {
			if t, ok := topicIndex[name]; ok {
				ts = append(ts, t)
			}
		}
		slices.Sort(ts)
		ts = slices.Compact(ts)
		b = fmt.Appendf(b, "%s %d %s %d", m.ID, max(m.Generation, assignor.NoGeneration), rack, len(ts))
		for _, t := range ts {
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(t), 10)
		}
		b = append(b, '\n')
		owned += len(m.Owned)
	}
	b = fmt.Appendf(b, "owned %d\n", owned)
	for i, m := range g.Members {
		for _, tp := range m.Owned {
			t, ok := topicIndex[tp.Topic]
			if !ok {
				return nil, fmt.Errorf("kafka: member %q owns partitions of topic %q, which the metadata lacks", m.ID, tp.Topic)
			}
			b = fmt.Appendf(b, "%d %d", i, t)
			for _, p := range tp.Partitions {
				if p < 0 || int(p) >= len(g.Topics[t].Partitions) {
					return nil, fmt.Errorf("kafka: member %q owns %s-%d, which the metadata lacks", m.ID, tp.Topic, p)
				}
				b = append(b, ' ')
				b = strconv.AppendInt(b, int64(p), 10)
			}
			b = append(b, '\n')
		}
	}
	return append(b, "end\n"...), nil
}

// word fails if s is empty or holds white space.
func word(what, s string) error {
	if s == "" || strings.ContainsAny(s, " \t\r\n") {
		return fmt.Errorf("kafka: %s %q: empty or with white space, which the harness's text form cannot carry", what, s)
	}
	return nil
}

// decodeResults reads the harness's output for groups (see Main.java): the
// jvm line, then one result per group in order.
func decodeResults(r io.Reader, groups []assignor.Group) (jvm string, out []Result, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	line := 0
	next := func(keyword string) (string, error) {
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return "", err
			}
			return "", fmt.Errorf("output ends at line %d where %q was expected", line, keyword)
		}
		line++
		s := sc.Text()
		if keyword == "" {
			return s, nil
		}
		rest, ok := strings.CutPrefix(s, keyword)
		if !ok || (rest != "" && rest[0] != ' ') {
			return "", fmt.Errorf("line %d: want %q, got %.60q", line, keyword, s)
		}
		return strings.TrimPrefix(rest, " "), nil
	}
	if jvm, err = next("jvm"); err != nil {
		return "", nil, err
	}
	for i, g := range groups {
		res, err := decodeResult(next, g)
		if err != nil {
			return jvm, out, fmt.Errorf("group %d: %w", i, err)
		}
		res.JVM = jvm
		out = append(out, res)
	}
	return jvm, out, nil
}

// decodeResult reads one group's result through next.
func decodeResult(next func(string) (string, error), g assignor.Group) (Result, error) {
	var res Result
	if _, err := next("result"); err != nil {
		return res, err
	}
	var err error
	if res.Subscription, err = next("subscription"); err != nil {
		return res, err
	}
	s, err := next("warmup")
	if err != nil {
		return res, err
	}
	warm, err := ints(s)
	if err != nil || len(warm) != 2 {
		return res, fmt.Errorf("warmup %q: want RUNS NANOS", s)
	}
	res.WarmupRuns, res.Warmup = int(warm[0]), time.Duration(warm[1])
	var times, allocs, gcs []int64
	for _, f := range []struct {
		name string
		into *[]int64
	}{{"times", &times}, {"allocs", &allocs}, {"gcs", &gcs}} {
		if s, err = next(f.name); err != nil {
			return res, err
		}
		if *f.into, err = ints(s); err != nil {
			return res, fmt.Errorf("%s: %w", f.name, err)
		}
	}
	if len(allocs) != len(times) || len(gcs) != len(times) {
		return res, fmt.Errorf("%d times, %d allocs, %d gcs", len(times), len(allocs), len(gcs))
	}
	for i := range times {
		res.Times = append(res.Times, time.Duration(times[i]))
		res.AllocBytes = append(res.AllocBytes, uint64(allocs[i]))
		res.GCs = append(res.GCs, uint32(gcs[i]))
	}
	if s, err = next("capped"); err != nil {
		return res, err
	}
	res.Capped = s == "1"
	if s, err = next("plan"); err != nil {
		return res, err
	}
	rows, err := strconv.Atoi(s)
	if err != nil {
		return res, fmt.Errorf("plan %q: %w", s, err)
	}
	assigned := make([][]assignor.TopicPartitions, len(g.Members))
	for range rows {
		if s, err = next(""); err != nil {
			return res, err
		}
		f, err := ints(s)
		if err != nil || len(f) < 2 {
			return res, fmt.Errorf("plan row %q: want a member, a topic and partitions", s)
		}
		m, t := f[0], f[1]
		if m < 0 || int(m) >= len(g.Members) || t < 0 || int(t) >= len(g.Topics) {
			return res, fmt.Errorf("plan row %q: member or topic index out of range", s)
		}
		ps := make([]int32, len(f)-2)
		for i, p := range f[2:] {
			ps[i] = int32(p)
		}
		assigned[m] = append(assigned[m], assignor.TopicPartitions{Topic: g.Topics[t].Name, Partitions: ps})
	}
	if _, err := next("end"); err != nil {
		return res, err
	}
	res.Plan = planOf(g, assigned)
	return res, nil
}

// planOf returns the plan giving g.Members[i] assigned[i]: members sorted by
// ID, each member's topics sorted by name (the harness sorts partitions).
func planOf(g assignor.Group, assigned [][]assignor.TopicPartitions) assignor.Plan {
	p := assignor.Plan{Members: make([]assignor.MemberPlan, len(g.Members))}
	for i, m := range g.Members {
		tps := assigned[i]
		slices.SortFunc(tps, func(a, b assignor.TopicPartitions) int { return cmp.Compare(a.Topic, b.Topic) })
		p.Members[i] = assignor.MemberPlan{Member: m.ID, Assigned: tps}
	}
	slices.SortFunc(p.Members, func(a, b assignor.MemberPlan) int { return cmp.Compare(a.Member, b.Member) })
	return p
}

// ints parses space-separated integers.
func ints(s string) ([]int64, error) {
	f := strings.Fields(s)
	out := make([]int64, len(f))
	for i, x := range f {
		v, err := strconv.ParseInt(x, 10, 64)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
