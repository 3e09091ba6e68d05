package dense

// Rule is one rule a group or a plan can break. Package assignor maps each
// to its public sentinel error.
type Rule uint8

// The rules. The first six make a group impossible to index; the rest are
// the plan rules.
const (
	EmptyMemberID Rule = iota + 1
	DuplicateMember
	EmptyTopicName
	DuplicateTopic
	ReplicaRacksMismatch
	// BadWeights: weights that do not match the partitions, or a weight
	// below UnknownWeight (-1).
	BadWeights

	// AssignedTwice: a partition in the lists of two members (Member and
	// Other).
	AssignedTwice
	// NotSubscribed: a partition given to a member that does not subscribe
	// to its topic.
	NotSubscribed
	// UnknownMember: a plan entry for a member not in the group (MemberID).
	UnknownMember
	// DuplicateEntry: a second plan entry for the same member.
	DuplicateEntry
	// MissingMember: a member of the group without a plan entry.
	MissingMember
	// OutsideMetadata: a partition outside the metadata, other than a valid
	// claim given back to its owner under the cooperative protocol.
	OutsideMetadata
	// Unassigned: a partition of a subscribed topic that nobody holds (under
	// the cooperative protocol, only if nobody claims it either).
	Unassigned
	// NotOwner: under the cooperative protocol, a claimed partition held by
	// a member other than its valid owner (KIP-429's safety rule).
	NotOwner
	// Unsorted: plan entries or a member's lists out of order.
	Unsorted
)

// Violation is one broken rule, with the culprit: member numbers (-1 for
// none), the member ID where the member is not in the index, the topic and
// partition ID (-1 for none), and the generation of the member's claim.
type Violation struct {
	Rule       Rule
	Member     int32
	MemberID   string // when Member is -1: a member the index does not know
	Other      int32  // AssignedTwice: the other holder
	Topic      string
	Partition  int32
	Generation int32
}

// Errors converts violations of ix into package assignor's public error
// types, joined; nil for none. Package assignor installs it.
var Errors func(ix *Index, vs []Violation) error

// Of returns the Index behind an *assignor.Index. Package assignor
// installs it.
var Of func(index any) *Index

// partitionViolation is the violation of rule by member m (or -1) on flat
// partition p.
func (ix *Index) partitionViolation(rule Rule, m, p int32) Violation {
	topic, id := ix.Partition(p)
	v := Violation{Rule: rule, Member: m, Other: -1, Topic: topic, Partition: id, Generation: NoGeneration}
	if m >= 0 {
		v.Generation = ix.Generation[m]
	}
	return v
}

// Rules says which plan rules [Index.Check] applies beyond the one every
// plan keeps (a partition is held only by a subscriber of its topic,
// [NotSubscribed]).
type Rules struct {
	// Owners: a claimed partition is held only by its valid owner
	// ([NotOwner]), KIP-429's safety rule.
	Owners bool
	// Complete: every partition of a topic someone subscribes to is held
	// ([Unassigned]) — unless Withhold and someone claims it.
	Complete bool
	// Withhold: a claimed partition may be held by nobody, withheld for a
	// follow-up rebalance.
	Withhold bool
	// GiveBack: an outside claim may be given back to its claimer when it is
	// the valid claim of a topic the claimer still subscribes to; any other
	// given back is [OutsideMetadata].
	GiveBack bool
}

// EagerPlan are the rules of a plan of the eager protocol.
var EagerPlan = Rules{Complete: true}

// CooperativePlan are the rules of a plan of the cooperative protocol.
var CooperativePlan = Rules{Owners: true, Complete: true, Withhold: true, GiveBack: true}

// Check applies rules to an assignment in holder form and returns every
// violation, in flat partition order, then outside claim order. holder[p] is
// the member given flat partition p, or -1; back[i] reports that the
// outside claim ix.Outside[i] is given back to its claimer (back may be nil
// for none). A partition held twice cannot be expressed in holder form:
// [PlanReader] reports it when it reads lists. O(P + S + C) for P
// partitions, S subscription entries and C outside claims; no maps.
func (ix *Index) Check(holder []int32, back []bool, rules Rules) []Violation {
	var vs []Violation
	// subscribedTo[m] == t+1 while topic t is checked and m subscribes to it.
	subscribedTo := make([]int32, len(ix.Members))
	owners, complete, withhold := rules.Owners, rules.Complete, rules.Withhold
	for t := range ix.Topics {
		run := int32(t) + 1
		for _, m := range ix.Subscribers[t] {
			subscribedTo[m] = run
		}
		subscribed := len(ix.Subscribers[t]) > 0
		first := ix.TopicStart[t]
		for i, m := range holder[first:ix.TopicStart[t+1]] {
			p := first + int32(i)
			switch {
			case m < 0:
				if complete && subscribed && (!withhold || ix.Owner[p] == Unclaimed) {
					vs = append(vs, ix.partitionViolation(Unassigned, -1, p))
				}
				continue
			case subscribedTo[m] != run:
				vs = append(vs, ix.partitionViolation(NotSubscribed, m, p))
			}
			if owners {
				if o := ix.Owner[p]; o != Unclaimed && o != m {
					vs = append(vs, ix.partitionViolation(NotOwner, m, p))
				}
			}
		}
	}
	for i, given := range back {
		if oc := ix.Outside[i]; given && !(rules.GiveBack && oc.Valid && ix.SubscribesByName(oc.Member, oc.Topic)) {
			vs = append(vs, Violation{Rule: OutsideMetadata, Member: oc.Member, Other: -1, Topic: oc.Topic, Partition: oc.Partition, Generation: oc.Generation})
		}
	}
	return vs
}
