package assignor

import (
	"cmp"
	"slices"
	"strings"
)

// Plan is an assignor's answer for one rebalance.
type Plan struct {
	// Members has one entry per member of the group, sorted by member ID.
	Members []MemberPlan
	// FollowUp reports that the plan withholds partitions, so the group must
	// rebalance again to hand them over (KIP-429's NEEDS_REJOIN). Only
	// cooperative assignors set it; the Kafka wire does not carry it (members
	// that revoke something rejoin at once, the others learn of the rebalance
	// from their next heartbeat), but this module's adapters mark the
	// assignments' user data with it, so that their members rejoin at once
	// too (fast re-join: package rebalance).
	FollowUp bool
}

// MemberPlan is one member's part of a plan.
type MemberPlan struct {
	Member string
	// Assigned are the partitions the member owns after this rebalance,
	// sorted by topic, then partition.
	Assigned []TopicPartitions
	// Revoked are the partitions the member claimed and must give up
	// (cooperative assignors only; KIP-429's RevokedPartitions), sorted like
	// Assigned. The wire does not carry it: members derive it as owned minus
	// assigned.
	Revoked []TopicPartitions
	// UserData is the optional assignment user data sent to the member.
	UserData []byte
}

// Member returns the plan of the member with the given ID. O(log M).
func (p Plan) Member(id string) (MemberPlan, bool) {
	i, ok := slices.BinarySearchFunc(p.Members, id, func(mp MemberPlan, id string) int { return cmp.Compare(mp.Member, id) })
	if !ok {
		return MemberPlan{}, false
	}
	return p.Members[i], true
}

// NumAssigned is the number of partitions in mp.Assigned.
func (mp MemberPlan) NumAssigned() int { return CountPartitions(mp.Assigned) }

// String renders the plan deterministically, one line per member in member
// ID order, for logs and golden tests:
//
//	m0: t0[0 2] t1[1]
//	m1: t0[1] revoke t1[0]
//	follow-up rebalance
func (p Plan) String() string {
	var b strings.Builder
	for _, mp := range p.Members {
		b.WriteString(mp.Member)
		b.WriteString(":")
		writeTopicPartitions(&b, mp.Assigned)
		if len(mp.Revoked) > 0 {
			b.WriteString(" revoke")
			writeTopicPartitions(&b, mp.Revoked)
		}
		if len(mp.UserData) > 0 {
			b.WriteString(" userdata=")
			b.WriteString(itoa(int64(len(mp.UserData))))
			b.WriteString("B")
		}
		b.WriteString("\n")
	}
	if p.FollowUp {
		b.WriteString("follow-up rebalance\n")
	}
	return b.String()
}

func writeTopicPartitions(b *strings.Builder, tps []TopicPartitions) {
	for _, tp := range tps {
		b.WriteString(" ")
		b.WriteString(tp.Topic)
		b.WriteString("[")
		for i, p := range tp.Partitions {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString(itoa(int64(p)))
		}
		b.WriteString("]")
	}
}

// FormatTopicPartitions renders tps as in [Plan.String]: "t0[0 2] t1[1]".
func FormatTopicPartitions(tps []TopicPartitions) string {
	var b strings.Builder
	writeTopicPartitions(&b, tps)
	return strings.TrimPrefix(b.String(), " ")
}
