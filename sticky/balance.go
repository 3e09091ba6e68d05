package sticky

import "github.com/kgroup/assignor/internal/balance"

// Balance alone (criterion 1) is solved before the flow, because it tells
// the flow which loads are possible at all, and that makes the flow cheap.
//
// The loads of the optimal plans (those minimising the sum of squared loads)
// form a narrow band: member m's load is L_m or, for some members, one more
// or one less, never both (Frank and Murota's decreasingly-minimal
// elements). If one optimal load vector L is known, m can rise to L_m + 1
// in an optimal plan exactly when a member at L_m + 1 can pass it a
// partition along a chain of subscribers, and fall to L_m - 1 when m can
// pass one to a member at L_m - 1 (the two never both hold, or L would not
// be optimal). With lo_m and hi_m the band, the convex load cost can be cut
// to: free up to lo_m, 2·lo_m + 1 for the one unit up to hi_m, forbidden
// beyond. That cut cost has exactly the same minimisers as the sum of
// squares, and it has at most two prices per member, so the flow needs a
// handful of phases instead of one per unit of load.

// countBands sets net.lo and net.hi, the band of optimal loads over the
// network hubs on top of net.load (the settled single-member hubs):
// balance.CountBands on the network's exchange graph.
func (net *flowNetwork) countBands() {
	net.lo, net.hi = balance.CountBands(&net.graph, net.size, net.load)
}
