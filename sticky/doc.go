// Package sticky is the reference sticky assignor (KIP-54): its plans are
// optimal, not merely good, on balance, then rack locality, then movement,
// and it runs in near-linear time (see # Cost; measured figures are in
// docs/sticky.md). It is eager; cooperative.Wrap(sticky.New()) is
// cooperative-sticky.
//
// # What it optimises
//
// Over all valid plans (every subscribed partition to exactly one of its
// subscribers), in this order of priority:
//
//  1. Balance: the sum of squared member loads is minimal. With identical
//     subscriptions that means no member has more than one partition above
//     another; in general it means no chain of moves between subscribers can
//     even the loads out further (which implies Java's local rule: no
//     partition can move to a subscriber with two fewer).
//  2. Racks (KIP-881): among those, as many partitions as possible go to a
//     member whose rack holds one of the partition's replicas. Racks count
//     when some member has a rack and some topic has replica racks; see
//     [Config.IgnoreRacks].
//  3. Stickiness: among those, the fewest partitions leave their valid
//     owner.
//  4. A deterministic tie-break that ignores ownership and the input order:
//     each topic's partitions are dealt round its subscribers in member ID
//     order (franz-go issue #795: every member reads every topic), and who
//     gets an extra partition is decided by member position.
//
// 1 to 3 are checked against exhaustive enumeration of every plan of
// thousands of small random groups (racks, stale and contested claims
// included) in the package's oracle test.
//
// # History
//
// Ownership comes from [assignor.Index]: a partition's valid owner is its
// unique highest-generation claimant; contested partitions (a tie at the top
// generation) have no owner, and stale claims never count (KIP-341,
// KIP-792). An owner that no longer subscribes to the topic is no owner.
// Members of the eager `sticky` protocol send no owned partitions (until
// subscription v1); their history is in the subscription user data, in the
// layout Java, sarama and franz-go share (package wire). A member that
// claims nothing and has user data that decodes is read as claiming what it
// says, at its generation (version 0: [assignor.NoGeneration]); malformed
// user data is no history, never an error. [Assignor.SubscriptionUserData]
// writes that layout.
//
// # How
//
// Partitions that no criterion tells apart are grouped: a hub is a set of
// partitions with the same subscribers and the same rack set; within a hub
// partitions differ only by owner. A million partitions with identical
// subscriptions and no racks form one hub.
//
// One hub, no rack preference (the common case): every member gets q or q+1
// where q = N/k. The q+1 slots go first to members owning more than q, by
// member position, then to the first other members by position. Each owner
// keeps min(owned, quota); the rest is pooled and dealt. O(P + M).
//
// Otherwise the assignor solves a min-cost flow from hubs to members whose
// costs compare lexicographically (load, then rack misses, then moves),
// after first solving balance alone: water-filling the hubs (smallest
// subscriber set first), then repairing along chains of subscribers until no
// member can pass a partition to one two below. That optimal load vector
// gives each member a band of loads optimal plans can have ({L}, {L, L+1}
// or {L-1, L}), and cutting the convex load cost to that band leaves the
// same optimal plans while making the flow a handful of Dijkstra phases with
// bulk augmentation instead of one phase per unit of load.
//
// Finally the flow's counts become partitions: an owner keeping part of its
// hub keeps the partitions aimed closest to it, and each hub's pool is dealt
// in flat order, each partition to the first member with room going round
// from the partition's target (a union-find skips full members).
//
// Worked example: A owns t0[0 2] t1[0], B owns t0[1 3] t1[1], and C joins
// subscribed to t1 only. Six partitions, three members: optimal loads are
// 2, 2, 2, and C can only reach 2 with both t1 partitions, so A and B each
// release theirs (2 moves, the fewest possible) and keep all of t0:
//
//	A: t0[0 2]
//	B: t0[1 3]
//	C: t1[0 1]
//
// # Stability
//
// The cooperative wrapper withholds the partitions a plan P takes from
// their valid owners and asks again once they are revoked. The members then
// own P minus those partitions (more generally: minus any of the partitions
// P did not leave with their valid owner, moved or previously unowned).
// P itself is then a zero-move optimal plan, so the follow-up plan moves
// nothing and keeps P's balance and rack locality. With one hub it is
// exactly P: the quota rule and the deal are both consistent under
// restriction (see solveUniform and deal), which the property tests pin.
// With several hubs the formerly withheld partitions may land on other,
// equally good members (the flow's tie-breaking is not
// restriction-consistent), but nothing owned moves, so the group settles in
// two rebalances either way. (P minus an arbitrary subset cannot give P
// back for any sticky assignor: minus everything is a fresh group.)
//
// # Cost
//
// For P partitions, M members, S subscription entries and H hubs: one hub,
// O(P + M + S) time; in general O(P + S) plus the balance repair and the
// flow, both on the H×M hub graph, not on partitions (a few Dijkstra phases
// of O(E log(H+M)) for E = Σ subscribers over hubs, in practice). Memory is
// O(P + M + H·M). The plan is built with a fixed number of allocations.
// The benchmarks and their growth slope are in docs/sticky.md.
//
// # Examples
//
// The package Example (a member joins: the fewest moves), Example_fresh,
// and ExampleNewWithConfig (racks off, user data ignored).
//
// # KIPs
//
// KIP-54 (sticky assignor), KIP-341 (generation in the sticky user data),
// KIP-792 (generations of owned partitions), KIP-881 (rack-aware
// assignment), KIP-429 (the cooperative protocol this assignor serves
// through package cooperative).
package sticky
