package kgoassignor

import (
	"cmp"
	"slices"

	"github.com/twmb/franz-go/pkg/kgo"
)

// rackSource returns where this balance reads replica racks from:
// Config.ReplicaRacks, or else kgo's BalanceInfo. It returns nil when no
// member has a rack, since racks then change no assignment (KIP-881), and
// so kgo's metadata snapshot is not even built.
func (mb *memberBalancer) rackSource() func(topic string, partition int32) []string {
	if !mb.round.Racks() {
		return nil
	}
	if mb.b.cfg.ReplicaRacks != nil {
		return mb.b.cfg.ReplicaRacks
	}
	return infoRacks(mb.info)
}

// infoRacks reads replica racks from what kgo gives balancers: each
// partition's replicas in the client's metadata cache (BalanceInfo.Topics),
// then each broker's rack (BalanceInfo.Brokers). kgo requests no metadata
// for either: a topic it has not loaded has no racks. It returns nil when
// kgo gave no info or no broker has a rack. The list it returns is reused
// by its next call (topicRacks copies it).
func infoRacks(info kgo.BalanceInfo) func(topic string, partition int32) []string {
	if info.Topics == nil || info.Brokers == nil {
		return nil
	}
	rackOf := make(map[int32]string)
	for id, br := range info.Brokers() {
		if br.Rack != nil && *br.Rack != "" {
			rackOf[id] = *br.Rack
		}
	}
	if len(rackOf) == 0 {
		return nil
	}
	topics := info.Topics()
	var racks []string
	return func(topic string, partition int32) []string {
		ps := topics[topic].Partitions // sorted by partition
		i, ok := slices.BinarySearchFunc(ps, partition, func(pm kgo.PartitionMetadata, p int32) int { return cmp.Compare(pm.Partition, p) })
		if !ok {
			return nil
		}
		racks = racks[:0]
		for _, id := range ps[i].Replicas {
			if r, ok := rackOf[id]; ok && !slices.Contains(racks, r) {
				racks = append(racks, r)
			}
		}
		return racks
	}
}

// topicRacks asks racks for every partition 0..n-1 of a topic. It returns
// nil when no partition has known racks, else one entry per partition:
// copies (the source's slices are not kept), each entry capacity clipped.
// Partitions with equal racks share one copy while the topic has at most
// [sharedRackSets] distinct rack lists (replicas spread over a few racks),
// and the copies share one backing list sized for the topic.
func topicRacks(racks func(string, int32) []string, topic string, n int32) [][]string {
	out := make([][]string, n)
	var flat []string
	var distinct [][]string
	known := false
	for p := range n {
		r := racks(topic, p)
		if len(r) == 0 {
			continue
		}
		known = true
		if i := slices.IndexFunc(distinct, func(d []string) bool { return slices.Equal(d, r) }); i >= 0 {
			out[p] = distinct[i]
			continue
		}
		if flat == nil {
			flat = make([]string, 0, min(int(n), sharedRackSets)*len(r))
		}
		start := len(flat)
		flat = append(flat, r...)
		out[p] = flat[start:len(flat):len(flat)]
		if len(distinct) < sharedRackSets {
			distinct = append(distinct, out[p])
		}
	}
	if !known {
		return nil
	}
	return out
}

// sharedRackSets is how many distinct rack lists per topic topicRacks
// shares.
const sharedRackSets = 16
