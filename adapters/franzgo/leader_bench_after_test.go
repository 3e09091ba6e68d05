package franzgo

import (
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

// benchAfter times the phases of the adapter as it is.
func benchAfter(b *testing.B, in leaderInput) {
	gmb, _, err := in.b.MemberBalancer(in.members)
	if err != nil {
		b.Fatal(err)
	}
	mb := gmb.(*memberBalancer)
	mb.SetBalanceInfo(kgo.BalanceInfo{Generation: in.generation})
	plan, err := mb.assign(mb.topics(in.counts))
	if err != nil {
		b.Fatal(err)
	}
	bench(b, "decode/after", func(b *testing.B) { in.b.MemberBalancer(in.members) })
	bench(b, "core/after", func(b *testing.B) {
		if _, err := mb.assign(mb.topics(in.counts)); err != nil {
			b.Fatal(err)
		}
	})
	bench(b, "encode/after", func(b *testing.B) { in.b.syncAssignments(plan, mb.ids).IntoSyncAssignment() })
}
