package kgoassignor

import (
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

// benchAfter times the phases of the adapter as it is: decode
// (MemberBalancer), core (the round: the index, the assignor, the
// assignments' lists) and encode (the SyncGroup bytes).
func benchAfter(b *testing.B, in leaderInput) {
	gmb, _, err := in.b.MemberBalancer(in.members)
	if err != nil {
		b.Fatal(err)
	}
	mb := gmb.(*memberBalancer)
	mb.SetBalanceInfo(kgo.BalanceInfo{Generation: in.generation})
	mb.addTopics(in.counts)
	res, err := mb.round.Assign(in.generation)
	if err != nil {
		b.Fatal(err)
	}
	bench(b, "decode/after", func(b *testing.B) { in.b.MemberBalancer(in.members) })
	bench(b, "core/after", func(b *testing.B) {
		if _, err := mb.round.Assign(in.generation); err != nil {
			b.Fatal(err)
		}
	})
	bench(b, "encode/after", func(b *testing.B) { syncAssignments(res.Assignments).IntoSyncAssignment() })
}
