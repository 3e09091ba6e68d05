package franzgo

import (
	"maps"
	"slices"

	"github.com/kgroup/assignor"
)

// The conversions between kgo's topic → partitions maps and the sorted
// lists of the assignor contract. (The core is to export set operations on
// []assignor.TopicPartitions; these three move there when it does.)

// fromMap converts kgo's topic → partitions map to a list sorted by topic,
// each partition list sorted and without duplicates; topics without
// partitions are left out. It never aliases m. O(n log n) in the partitions.
func fromMap(m map[string][]int32) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for _, topic := range slices.Sorted(maps.Keys(m)) {
		if ps := sortedSet(slices.Clone(m[topic])); len(ps) > 0 {
			out = append(out, assignor.TopicPartitions{Topic: topic, Partitions: ps})
		}
	}
	return out
}

// toMap converts a list to kgo's topic → partitions map. The map's slices
// alias tps.
func toMap(tps []assignor.TopicPartitions) map[string][]int32 {
	m := make(map[string][]int32, len(tps))
	for _, tp := range tps {
		m[tp.Topic] = tp.Partitions
	}
	return m
}

// canonical returns tps in canonical form: sorted by topic, one entry per
// topic, each partition list strictly increasing, no empty entries. A list
// already in that form (every plan of a well-behaved assignor) is returned
// as is; any other is merged into a new list that does not alias tps, so
// the same partitions always encode to the same bytes.
func canonical(tps []assignor.TopicPartitions) []assignor.TopicPartitions {
	if isCanonical(tps) {
		return tps
	}
	merged := make(map[string][]int32, len(tps))
	for _, tp := range tps {
		merged[tp.Topic] = append(merged[tp.Topic], tp.Partitions...)
	}
	return fromMap(merged)
}

func isCanonical(tps []assignor.TopicPartitions) bool {
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

// sortedSet sorts ps in place and drops duplicates.
func sortedSet(ps []int32) []int32 {
	slices.Sort(ps)
	return slices.Compact(ps)
}
