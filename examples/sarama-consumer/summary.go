package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// summary is the outcome of one run, from the moment the first member
// consumed every partition.
type summary struct {
	protocol string        // "cooperative" or "eager"
	warmup   time.Duration // what a member paid to take a partition

	produced, lost, duplicates, overlaps int
	plans                                int // the leader's plans

	partitions []partitionSummary // by partition
	members    []memberSummary    // in the order they joined
}

type partitionSummary struct {
	id         int32
	taken      int           // how often a member took it, each time paying the warm-up
	longest    time.Duration // longest time between two of its records
	unconsumed time.Duration // total of those times of [stalled] or more
}

type memberSummary struct {
	name    string
	records int
	waited  time.Duration // from joining to its first record (0 for the first member)
	stall   time.Duration // longest time between two of its records
}

func (t *tally) summary(produced offsets, protocol string, warmup time.Duration) summary {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := summary{
		protocol: protocol, warmup: warmup,
		produced: produced.count(), lost: t.missing(produced), duplicates: t.duplicates, overlaps: t.overlaps,
		plans: t.plans,
	}
	for _, p := range slices.Sorted(maps.Keys(t.partitions)) {
		pt := t.partitions[p]
		s.partitions = append(s.partitions, partitionSummary{id: p, taken: pt.taken, longest: pt.longest, unconsumed: pt.unconsumed})
	}
	for _, name := range t.order {
		m := t.members[name]
		s.members = append(s.members, memberSummary{name: name, records: m.records, waited: m.waited, stall: m.stall})
	}
	return s
}

// column is one figure of the table, worst or total over the group.
type column struct {
	head   string
	digits int    // after the decimal point
	unit   string // after the figure
	value  func(summary) float64
}

// columns are the table's figures, after the protocol and the warm-up.
var columns = []column{
	{"plans", 0, "", func(s summary) float64 { return float64(s.plans) }},
	{"partitions taken", 0, "", func(s summary) float64 {
		return float64(sum(s.partitions, func(p partitionSummary) int { return p.taken }))
	}},
	{"longest a partition went unconsumed", 2, " s", func(s summary) float64 {
		return longest(s.partitions, func(p partitionSummary) time.Duration { return p.longest })
	}},
	{"partition-s unconsumed", 1, "", func(s summary) float64 {
		return sum(s.partitions, func(p partitionSummary) time.Duration { return p.unconsumed }).Seconds()
	}},
	{"longest a joining member waited", 2, " s", func(s summary) float64 {
		return longest(s.members, func(m memberSummary) time.Duration { return m.waited })
	}},
	{"longest a consuming member stopped", 2, " s", func(s summary) float64 {
		return longest(s.members, func(m memberSummary) time.Duration { return m.stall })
	}},
}

func (c column) format(v float64) string { return strconv.FormatFloat(v, 'f', c.digits, 64) }

func sum[T any, N int | time.Duration](items []T, f func(T) N) (n N) {
	for _, it := range items {
		n += f(it)
	}
	return n
}

// longest is the largest f over items, in seconds.
func longest[T any](items []T, f func(T) time.Duration) float64 {
	var d time.Duration
	for _, it := range items {
		d = max(d, f(it))
	}
	return d.Seconds()
}

// String is the summary for a person: records, then each partition, then
// each member, then the run's row of the table.
func (s summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nproduced %d records: %d not consumed, %d consumed twice", s.produced, s.lost, s.duplicates)
	if s.duplicates > 0 {
		b.WriteString(" (what a revoked partition processed since its last auto-commit, consumed again by its next owner)")
	}
	if s.overlaps > 0 {
		fmt.Fprintf(&b, "; %d times a member took a partition another member still held\n", s.overlaps)
	} else {
		b.WriteString("; no partition held by two members at once\n")
	}
	fmt.Fprintf(&b, "from the moment member-1 consumed every partition: %d plans by the leader\n\n", s.plans)

	b.WriteString("partition                  ")
	for _, p := range s.partitions {
		fmt.Fprintf(&b, " %6d", p.id)
	}
	b.WriteString("\ntaken by a member          ")
	for _, p := range s.partitions {
		fmt.Fprintf(&b, " %6d", p.taken)
	}
	b.WriteString("\nlongest without a record  ")
	for _, p := range s.partitions {
		fmt.Fprintf(&b, " %5.2fs", p.longest.Seconds())
	}

	b.WriteString("\n\nmember    records  waited for its first record  longest between two records\n")
	for _, m := range s.members {
		waited := "-" // the first member, consuming when measuring began
		if m.waited > 0 {
			waited = fmt.Sprintf("%.2fs", m.waited.Seconds())
		}
		fmt.Fprintf(&b, "%-9s %7d  %27s  %27.2fs\n", m.name, m.records, waited, m.stall.Seconds())
	}

	b.WriteString("\n" + tableHeader() + "\n" + s.row() + "\n")
	return b.String()
}

// tableHeader heads the rows of [summary.row]: a Markdown table, to paste.
func tableHeader() string {
	head, rule := "| protocol | warm-up |", "|---|--:|"
	for _, c := range columns {
		head += " " + c.head + " |"
		rule += "--:|"
	}
	return head + "\n" + rule
}

// row is the run's row of the table under [tableHeader].
func (s summary) row() string {
	cells := []string{s.protocol, s.warmup.String()}
	for _, c := range columns {
		cells = append(cells, c.format(c.value(s))+c.unit)
	}
	return "| " + strings.Join(cells, " | ") + " |"
}
