package cli

import (
	"time"

	"github.com/kgroup/assignor"
)

// Group types, as ListGroups names them.
const (
	typeClassic  = "classic"  // JoinGroup/SyncGroup: a client leader assigns
	typeConsumer = "consumer" // KIP-848: the broker assigns
)

// snapshot is what one look at the brokers returns, undecoded: the group
// as DescribeGroups or ConsumerGroupDescribe gives it, the metadata of the
// topics its members subscribe to, the group's committed offsets, and the
// end offsets of those topics (twice, over a window, when rates are
// measured). Building one is the only I/O; everything that reads it is
// pure.
type snapshot struct {
	At    time.Time
	Group string
	Type  string // typeClassic or typeConsumer

	State        string
	ProtocolType string // classic: "consumer" for consumer groups
	Protocol     string // classic: the assignor the coordinator picked; "" unless Stable
	// KIP-848 only.
	Epoch, AssignmentEpoch int32
	AssignorName           string

	Members []rawMember
	Topics  []topicMeta // sorted by name

	// Committed offsets of the group; a partition without one is absent.
	Committed map[tp]int64
	// End offsets at At.
	End map[tp]int64
	// Rates are records/s per partition from two end-offset samples
	// Window apart; nil when not measured.
	Rates  map[tp]float64
	Window time.Duration
}

// rawMember is one member as the broker describes it.
type rawMember struct {
	MemberID, InstanceID, ClientID, ClientHost string

	// Classic: the metadata of the protocol the group runs (a
	// ConsumerProtocolSubscription) and the member's assignment (a
	// ConsumerProtocolAssignment); both empty unless the group is Stable.
	Metadata, Assignment []byte

	// KIP-848.
	Rack                 string
	MemberEpoch          int32
	MemberType           int8 // 0 classic (a member of a migrating group), 1 consumer, -1 unknown
	SubscribedTopics     []string
	SubscribedRegex      string
	Assigned, Target     []assignor.TopicPartitions
	UnresolvedTopicNames int // topic IDs the metadata did not name
}

// topicMeta is one topic's metadata.
type topicMeta struct {
	Name       string
	Partitions []int32
	// Racks[i] are the racks of the replicas of Partitions[i]; nil when no
	// broker has a rack.
	Racks [][]string
}

// tp names one partition.
type tp struct {
	Topic     string
	Partition int32
}

func (s *snapshot) topic(name string) (topicMeta, bool) {
	for _, t := range s.Topics {
		if t.Name == name {
			return t, true
		}
	}
	return topicMeta{}, false
}
