package assignor

import (
	"cmp"
	"maps"
	"slices"
)

// NormalizeTopicPartitions returns the canonical form of tps, the form in
// which the set operations below ([MergeTopicPartitions],
// [SubtractTopicPartitions], [IntersectTopicPartitions],
// [EqualTopicPartitions], [TopicPartitionsMap]) take and give a
// []TopicPartitions as a set of partitions: topics sorted by name and
// distinct (the entries of one topic merged), each topic's partitions sorted
// and distinct, no empty entry, and nil for the empty set. Partition IDs are
// kept as they are, negative ones included (a member's claims may hold them;
// see [Index]).
//
// Like every set operation here, it never modifies its argument and returns
// new slices: nothing in the result aliases tps. Nil and empty inputs are the
// empty set. O(n log n) for n partition entries; O(n) when tps is already
// canonical.
func NormalizeTopicPartitions(tps []TopicPartitions) []TopicPartitions {
	if IsCanonicalTopicPartitions(tps) {
		return cloneNonEmpty(tps)
	}
	sorted := make([]TopicPartitions, 0, len(tps))
	for _, tp := range tps {
		if len(tp.Partitions) > 0 {
			sorted = append(sorted, tp)
		}
	}
	slices.SortStableFunc(sorted, func(a, b TopicPartitions) int { return cmp.Compare(a.Topic, b.Topic) })
	var out []TopicPartitions
	for len(sorted) > 0 {
		n := 1
		for n < len(sorted) && sorted[n].Topic == sorted[0].Topic {
			n++
		}
		var ps []int32
		for _, tp := range sorted[:n] {
			ps = append(ps, tp.Partitions...)
		}
		slices.Sort(ps)
		out = append(out, TopicPartitions{Topic: sorted[0].Topic, Partitions: slices.Clip(slices.Compact(ps))})
		sorted = sorted[n:]
	}
	return out
}

// MergeTopicPartitions returns the union of a and b, the partitions in
// either, as a new canonical set (see [NormalizeTopicPartitions]); it
// modifies neither argument and aliases neither. It walks canonical inputs
// side by side, in O(|a| + |b|) for |a| and |b| partition entries; an input
// that is not canonical is normalised first, in O(n log n), with the same
// answer.
func MergeTopicPartitions(a, b []TopicPartitions) []TopicPartitions {
	return combine(a, b, keep{onlyA: true, both: true, onlyB: true})
}

// SubtractTopicPartitions returns a − b, the partitions of a that are not in
// b, as a new canonical set. Inputs, aliasing and cost as in
// [MergeTopicPartitions].
func SubtractTopicPartitions(a, b []TopicPartitions) []TopicPartitions {
	return combine(a, b, keep{onlyA: true})
}

// IntersectTopicPartitions returns the partitions in both a and b, as a new
// canonical set. Inputs, aliasing and cost as in [MergeTopicPartitions].
func IntersectTopicPartitions(a, b []TopicPartitions) []TopicPartitions {
	return combine(a, b, keep{both: true})
}

// EqualTopicPartitions reports whether a and b hold the same partitions,
// whatever their order and duplicates. Canonical inputs are compared entry by
// entry in O(|a| + |b|); others are normalised first, in O(n log n).
func EqualTopicPartitions(a, b []TopicPartitions) bool {
	a, b = canonical(a), canonical(b)
	return slices.EqualFunc(a, b, func(x, y TopicPartitions) bool {
		return x.Topic == y.Topic && slices.Equal(x.Partitions, y.Partitions)
	})
}

// TopicPartitionsFromMap returns the topic → partitions map m, as sarama and
// franz-go hand partitions over, as a new canonical set: a topic with no
// partitions is left out; nil when m holds no partition. It never aliases m.
// O(n log n) for n partition entries.
func TopicPartitionsFromMap(m map[string][]int32) []TopicPartitions {
	var out []TopicPartitions
	for _, topic := range slices.Sorted(maps.Keys(m)) {
		if len(m[topic]) == 0 {
			continue
		}
		ps := slices.Clone(m[topic])
		slices.Sort(ps)
		out = append(out, TopicPartitions{Topic: topic, Partitions: slices.Clip(slices.Compact(ps))})
	}
	return out
}

// TopicPartitionsMap returns the set tps as a new topic → partitions map, as
// sarama and franz-go take partitions: one key per topic with partitions,
// its partitions sorted and distinct; nil when tps holds no partition. It
// never aliases tps. O(n) for n partition entries when tps is canonical,
// O(n log n) otherwise.
func TopicPartitionsMap(tps []TopicPartitions) map[string][]int32 {
	tps = canonical(tps)
	if len(tps) == 0 {
		return nil
	}
	m := make(map[string][]int32, len(tps))
	for _, tp := range tps {
		m[tp.Topic] = slices.Clone(tp.Partitions)
	}
	return m
}

// CountPartitions returns the number of partition entries in tps, the size
// of the set when tps is canonical (duplicates count each time otherwise).
// O(len(tps)).
func CountPartitions(tps []TopicPartitions) int {
	n := 0
	for _, tp := range tps {
		n += len(tp.Partitions)
	}
	return n
}

// IsCanonicalTopicPartitions reports whether tps is already in the
// canonical form [NormalizeTopicPartitions] returns: topics strictly
// increasing, each with partitions strictly increasing, no empty entry. A
// caller that must hand on a canonical set copies only when it is not. O(n)
// for n partition entries.
func IsCanonicalTopicPartitions(tps []TopicPartitions) bool {
	for i, tp := range tps {
		if len(tp.Partitions) == 0 || i > 0 && tps[i-1].Topic >= tp.Topic {
			return false
		}
		for j := 1; j < len(tp.Partitions); j++ {
			if tp.Partitions[j-1] >= tp.Partitions[j] {
				return false
			}
		}
	}
	return true
}

// canonical returns tps itself when it is canonical and its canonical copy
// otherwise; the result is for reading only.
func canonical(tps []TopicPartitions) []TopicPartitions {
	if IsCanonicalTopicPartitions(tps) {
		return tps
	}
	return NormalizeTopicPartitions(tps)
}

// cloneNonEmpty returns a deep copy of the canonical set tps, nil when it is
// empty.
func cloneNonEmpty(tps []TopicPartitions) []TopicPartitions {
	if len(tps) == 0 {
		return nil
	}
	return CloneTopicPartitions(tps)
}

// keep says which partitions a set operation keeps: those only in a, those
// in both, those only in b.
type keep struct{ onlyA, both, onlyB bool }

// combine walks the canonical forms of a and b topic by topic and keeps the
// partitions k asks for.
func combine(a, b []TopicPartitions, k keep) []TopicPartitions {
	a, b = canonical(a), canonical(b)
	var out []TopicPartitions
	for len(a) > 0 || len(b) > 0 {
		var topic string
		var pa, pb []int32
		switch {
		case len(b) == 0 || len(a) > 0 && a[0].Topic < b[0].Topic:
			topic, pa, a = a[0].Topic, a[0].Partitions, a[1:]
		case len(a) == 0 || b[0].Topic < a[0].Topic:
			topic, pb, b = b[0].Topic, b[0].Partitions, b[1:]
		default:
			topic, pa, pb = a[0].Topic, a[0].Partitions, b[0].Partitions
			a, b = a[1:], b[1:]
		}
		if ps := combinePartitions(pa, pb, k); len(ps) > 0 {
			out = append(out, TopicPartitions{Topic: topic, Partitions: ps})
		}
	}
	return out
}

// combinePartitions walks two sorted, distinct partition lists side by side
// and returns, in a new slice, the partitions k asks for (nil for none).
func combinePartitions(a, b []int32, k keep) []int32 {
	switch {
	case len(b) == 0 && !k.onlyA, len(a) == 0 && !k.onlyB:
		return nil
	case len(b) == 0:
		return slices.Clone(a)
	case len(a) == 0:
		return slices.Clone(b)
	}
	var out []int32
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0] < b[0]:
			if k.onlyA {
				out = append(out, a[0])
			}
			a = a[1:]
		case len(a) == 0 || b[0] < a[0]:
			if k.onlyB {
				out = append(out, b[0])
			}
			b = b[1:]
		default:
			if k.both {
				out = append(out, a[0])
			}
			a, b = a[1:], b[1:]
		}
	}
	return slices.Clip(out)
}
