package runner

import (
	"strings"
	"time"

	"github.com/kgroup/assignor/bench/internal/contender"
)

// The breakdown tables: each user path phase by phase (see
// contender.Phased). Phases are medians over the repetitions of the
// reported Lead's steps; core and fill are timed apart on the same group,
// so "adapter's own" (plan − core − fill) is an estimate, and the columns
// need not add up to the total exactly.

// saramaBreakdownHeader is the sarama path's columns.
var saramaBreakdownHeader = []string{"shape", "scenario", "contender", "total", "sarama decode", "adapter's own", "core", "least map fill", "sarama encode", "sarama's share", "adapter's own ÷ core"}

// franzBreakdownHeader is the franz-go adapter path's columns.
var franzBreakdownHeader = []string{"shape", "scenario", "contender", "total", "decode (MemberBalancer)", "adapter's own, with encoding", "core", "IntoSyncAssignment", "adapter's own ÷ core"}

// peerPhaseHeader is the peers' columns.
var peerPhaseHeader = []string{"shape", "scenario", "contender", "total", "decode", "plan", "encode"}

// breakdown renders the breakdown section of results.md, or "" when no row
// of the run timed its phases.
func breakdown(res *results) string {
	var sar, fr, peers strings.Builder
	for _, cl := range res.Cells {
		for _, r := range cl.Rows {
			if len(r.Phases) == 0 || r.Median == 0 {
				continue
			}
			head := []string{cl.Shape.String(), string(cl.Scenario), r.C.Name, dur(r.Median)}
			dec, plan, enc, core, fill := r.phase(contender.PhaseDecode), r.phase(contender.PhasePlan), r.phase(contender.PhaseEncode), r.phase(contender.PhaseCore), r.phase(contender.PhaseFill)
			switch {
			case core > 0 && fill > 0:
				own := max(plan-core-fill, 0)
				sar.WriteString(mdRow(append(head, dur(dec), dur(own), dur(core), dur(fill), dur(enc), dur(dec+fill+enc), ratio(durRatio(own, core)))))
			case core > 0:
				own := max(plan-core, 0)
				fr.WriteString(mdRow(append(head, dur(dec), dur(own), dur(core), dur(enc), ratio(durRatio(own, core)))))
			default:
				peers.WriteString(mdRow(append(head, dur(dec), dur(plan), dur(enc))))
			}
		}
	}
	if sar.Len()+fr.Len()+peers.Len() == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## The user paths, phase by phase\n\n")
	b.WriteString("Each leader's timed section split into its steps, timed inside the child's timed Leads (medians over the repetitions). For our adapters, the core (Assign alone) and, for sarama, the least map fill are timed apart on the same group, after the Leads; the adapter's own share is the plan step minus those, an estimate.\n\n")
	if sar.Len() > 0 {
		b.WriteString("### Ours through the sarama adapter\n\n")
		b.WriteString("sarama decode: `JoinGroupResponse.GetMembers`. adapter's own: reading sarama's decoded metadata into our view, and building sarama's plan maps beyond the least fill. core: Assign alone. least map fill: one map per member with one entry per member and topic, sized up front, reusing the plan's partition slices — what sarama's `BalanceStrategyPlan` type forces on any strategy. sarama encode: `AssignmentData` and `AddGroupAssignmentMember` for every member. sarama's share = decode + least map fill + encode.\n\n")
		b.WriteString(mdHeader(saramaBreakdownHeader) + sar.String() + "\n")
	}
	if fr.Len() > 0 {
		b.WriteString("### Ours through the franz-go adapter\n\n")
		b.WriteString("decode: sorting the members and the adapter's `MemberBalancer` (our codec decodes every member). adapter's own: `BalanceOrError` minus the core, which includes encoding every assignment with our codec (the adapter encodes in `BalanceOrError`; its `IntoSyncAssignment` hands over the bytes, hence the near-zero encode column).\n\n")
		b.WriteString(mdHeader(franzBreakdownHeader) + fr.String() + "\n")
	}
	if peers.Len() > 0 {
		b.WriteString("### The peers' leaders\n\n")
		b.WriteString("sarama: decode = `GetMembers`, plan = the strategy's `Plan`, encode = `AssignmentData` and `AddGroupAssignmentMember`. franz-go: decode = sorting the members and `MemberBalancer`, plan = `BalanceOrError` (with kgo's log strings in the rows that say so), encode = `IntoSyncAssignment`.\n\n")
		b.WriteString(mdHeader(peerPhaseHeader) + peers.String())
	}
	return b.String()
}

// durRatio is a ÷ b, or 0 when b is 0.
func durRatio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
