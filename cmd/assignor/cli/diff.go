package cli

import (
	"cmp"
	"slices"
	"strings"

	"github.com/kgroup/assignor"
)

// move is one partition whose holder changed between two assignments.
// From is "" for a partition nobody held before, To "" for one nobody
// holds after.
type move struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	From      string `json:"from"`
	To        string `json:"to"`
}

// holders maps each partition of an assignment (member → partitions) to
// its holder. A partition two members hold keeps the first in member
// order; such an assignment is invalid and diff reports it as is.
func holders(a map[string][]assignor.TopicPartitions) map[tp]string {
	out := map[tp]string{}
	for _, id := range sortedKeys(a) {
		for _, t := range a[id] {
			for _, p := range t.Partitions {
				if _, dup := out[tp{t.Topic, p}]; !dup {
					out[tp{t.Topic, p}] = id
				}
			}
		}
	}
	return out
}

// diff returns the partitions whose holder differs between before and
// after (member ID → assigned partitions), sorted by topic and partition.
// Members are matched by ID: rename maps a member ID of before to the one
// it has in after (a static member's new incarnation), or is nil.
// Pure; O(P log P).
func diff(before, after map[string][]assignor.TopicPartitions, rename map[string]string) []move {
	b, a := holders(before), holders(after)
	var out []move
	for k, from := range b {
		if r, ok := rename[from]; ok {
			from = r
		}
		if to := a[k]; to != from {
			out = append(out, move{Topic: k.Topic, Partition: k.Partition, From: from, To: to})
		}
	}
	for k, to := range a {
		if _, held := b[k]; !held {
			out = append(out, move{Topic: k.Topic, Partition: k.Partition, To: to})
		}
	}
	slices.SortFunc(out, func(x, y move) int {
		return cmp.Or(cmp.Compare(x.Topic, y.Topic), cmp.Compare(x.Partition, y.Partition))
	})
	return out
}

// countMoves splits moves into partitions that changed holder and
// partitions placed (held by nobody before) or dropped (by nobody after).
func countMoves(ms []move) (moved, placed, dropped int) {
	for _, m := range ms {
		switch {
		case m.From == "":
			placed++
		case m.To == "":
			dropped++
		default:
			moved++
		}
	}
	return moved, placed, dropped
}

// formatMoves renders moves compactly, grouped by the pair of members:
// "a→b orders[1 4]; →c payments[2]". names gives each member's short
// name; at most limit groups are listed, then "… and N more".
func formatMoves(ms []move, names map[string]string, limit int) string {
	type pair struct{ from, to string }
	groups := map[pair][]assignor.TopicPartitions{}
	var order []pair
	for _, m := range ms {
		k := pair{m.From, m.To}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = assignor.MergeTopicPartitions(groups[k], []assignor.TopicPartitions{{Topic: m.Topic, Partitions: []int32{m.Partition}}})
	}
	slices.SortFunc(order, func(x, y pair) int { return cmp.Or(cmp.Compare(x.from, y.from), cmp.Compare(x.to, y.to)) })
	name := func(id string) string {
		if id == "" {
			return "∅"
		}
		if n, ok := names[id]; ok {
			return n
		}
		return id
	}
	var parts []string
	for i, k := range order {
		if limit > 0 && i == limit {
			parts = append(parts, "… and "+itoa(len(order)-limit)+" more")
			break
		}
		parts = append(parts, name(k.from)+"→"+name(k.to)+" "+assignor.FormatTopicPartitions(groups[k]))
	}
	return strings.Join(parts, "; ")
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
