// Package roundrobin is the round-robin partition assignor, placing
// partitions exactly as Kafka's Java RoundRobinAssignor does for the same
// group, so a Go leader and a Java leader agree.
//
// # Placement
//
// The members stand in a ring, in Java's order: members with a static
// instance ID (KIP-345) first, ordered by instance ID, then the dynamic
// members ordered by member ID (strings compared as Java compares them, by
// UTF-16 code units). The partitions of every subscribed topic are laid out
// by topic name, then partition ID. Each partition in turn goes to the next
// member around the ring that subscribes to its topic; members that do not
// are skipped, and the ring carries on from the member after the one served.
// Topics nobody subscribes to, and subscribed topics missing from the
// metadata, are ignored. Claims and user data are ignored: every rebalance
// starts afresh (the protocol is eager).
//
// Two members C0 and C1 subscribed to t0 and t1, three partitions each:
//
//	C0: t0[0 2] t1[1]
//	C1: t0[1] t1[0 2]
//
// # Balance
//
// With identical subscriptions no member gets more than one partition above
// another, and the assignor declares itself balanced for the conformance
// kit. With different subscriptions it can be far from balanced. C0
// subscribed to t0, C1 to t0 and t1, C2 to t0, t1 and t2, where t0, t1 and
// t2 have 1, 2 and 3 partitions:
//
//	C0: t0[0]
//	C1: t1[0]
//	C2: t1[1] t2[0 1 2]
//
// # Static members
//
// Ordering static members by instance ID keeps their assignment when they
// restart with new member IDs, as long as the group's members and
// subscriptions stay the same. Members C0, C1, C2 with instance IDs I0, I1,
// I2 get t0[0] t1[0], t0[1] t1[1] and t0[2] t1[2]; after a rolling bounce
// renames them C5, C3, C4, instance I0 (now C5) still gets t0[0] t1[0].
// Ordered by member ID alone, C3 (formerly I1) would get it.
//
// # Cost
//
// Assign costs O(P + S + M log M) time and O(P + M + S) memory for P
// partitions, M members and S subscription entries: each topic's partitions
// are dealt to its subscribers in ring order, so no member is visited twice
// per partition.
//
// # Examples
//
// ExampleNew (Java's ring over mixed subscriptions) and
// ExampleNew_staticMembers (static members first, KIP-345).
//
// # KIPs
//
// KIP-345 (static membership, the instance-ID ordering).
package roundrobin
