package saramaassignor

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/IBM/sarama"
)

// RackByPrefix returns a [Config.MemberRack] function for a leader-side map
// from client IDs or static instance IDs to racks.
//
// Kafka brokers (and kfake) build a member ID as "<client.id>-<uuid>" for a
// dynamic member and "<group.instance.id>-<uuid>" for a static one, and sarama
// hands the leader only member IDs. The function returns the rack of the
// longest key k for which the member ID starts with k + "-", or "" when no key
// matches. The map is copied; later changes to it have no effect. Give each
// member a distinct client ID (sarama's Config.ClientID) or instance ID for
// this to tell members apart.
func RackByPrefix(racks map[string]string) func(memberID string) string {
	keys := slices.SortedFunc(maps.Keys(racks), func(a, b string) int {
		return cmp.Or(cmp.Compare(len(b), len(a)), cmp.Compare(a, b))
	})
	byKey := maps.Clone(racks)
	return func(memberID string) string {
		for _, k := range keys {
			if len(memberID) > len(k) && memberID[len(k)] == '-' && strings.HasPrefix(memberID, k) {
				return byKey[k]
			}
		}
		return ""
	}
}

// BrokerMetadata is the part of a sarama.Client that [ClientReplicaRacks]
// reads; a sarama.Client implements it.
type BrokerMetadata interface {
	// Replicas returns the IDs of the brokers holding replicas of a partition.
	Replicas(topic string, partitionID int32) ([]int32, error)
	// Brokers returns the brokers the client knows, with their racks.
	Brokers() []*sarama.Broker
}

// ClientReplicaRacks returns a [Config.ReplicaRacks] function that reads a
// partition's replica racks from sarama's cached broker metadata: the
// partition's replica broker IDs, then each broker's rack (broker.rack, sent
// in Metadata v1+). This is how a Java leader learns them too (from its
// Cluster metadata); franz-go's leader does not use replica racks.
//
// It uses the client's cache and makes no request. Pass the client the
// consumer group was built from (sarama.NewConsumerGroupFromClient), whose
// metadata sarama refreshes for the subscribed topics right before Plan. A
// partition whose replicas are unknown, or whose brokers have no rack, has no
// racks; replicas on the same rack count once.
func ClientReplicaRacks(c BrokerMetadata) func(topic string, partition int32) []string {
	return func(topic string, partition int32) []string {
		replicas, err := c.Replicas(topic, partition)
		if err != nil || len(replicas) == 0 {
			return nil
		}
		rackOf := make(map[int32]string)
		for _, b := range c.Brokers() {
			if b != nil {
				rackOf[b.ID()] = b.Rack()
			}
		}
		var racks []string
		for _, id := range replicas {
			if r := rackOf[id]; r != "" && !slices.Contains(racks, r) {
				racks = append(racks, r)
			}
		}
		return racks
	}
}
