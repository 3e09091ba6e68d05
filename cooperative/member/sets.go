package member

import (
	"cmp"
	"slices"

	"github.com/kgroup/assignor"
)

// normalize returns a canonical copy of tps: topics sorted by name and
// merged, partitions sorted and deduplicated, empty topics dropped. It never
// aliases tps and returns nil for an empty set.
func normalize(tps []assignor.TopicPartitions) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for _, tp := range tps {
		if len(tp.Partitions) == 0 {
			continue
		}
		out = append(out, assignor.TopicPartitions{Topic: tp.Topic, Partitions: slices.Clone(tp.Partitions)})
	}
	slices.SortStableFunc(out, func(a, b assignor.TopicPartitions) int { return cmp.Compare(a.Topic, b.Topic) })
	merged := out[:0]
	for _, tp := range out {
		if n := len(merged); n > 0 && merged[n-1].Topic == tp.Topic {
			merged[n-1].Partitions = append(merged[n-1].Partitions, tp.Partitions...)
			continue
		}
		merged = append(merged, tp)
	}
	for i := range merged {
		slices.Sort(merged[i].Partitions)
		merged[i].Partitions = slices.Compact(merged[i].Partitions)
	}
	if len(merged) == 0 {
		return nil
	}
	return merged
}

// minus returns a − b for canonical sets, as a new canonical set (nil if
// empty). O(|a| + |b|).
func minus(a, b []assignor.TopicPartitions) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	j := 0
	for _, tp := range a {
		for j < len(b) && b[j].Topic < tp.Topic {
			j++
		}
		var other []int32
		if j < len(b) && b[j].Topic == tp.Topic {
			other = b[j].Partitions
		}
		var keep []int32
		k := 0
		for _, p := range tp.Partitions {
			for k < len(other) && other[k] < p {
				k++
			}
			if k < len(other) && other[k] == p {
				continue
			}
			keep = append(keep, p)
		}
		if len(keep) > 0 {
			out = append(out, assignor.TopicPartitions{Topic: tp.Topic, Partitions: keep})
		}
	}
	return out
}

// outsideTopics returns the part of the canonical set tps whose topics are not
// in topics, as a new canonical set (nil if empty).
func outsideTopics(tps []assignor.TopicPartitions, topics []string) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for _, tp := range tps {
		if !slices.Contains(topics, tp.Topic) {
			out = append(out, assignor.TopicPartitions{Topic: tp.Topic, Partitions: slices.Clone(tp.Partitions)})
		}
	}
	return out
}
