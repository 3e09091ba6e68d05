// Package kgoassignor runs any [assignor.Assignor] in a github.com/twmb/franz-go
// (kgo v1.22+) consumer group, wire-compatible with Java, sarama and kgo's
// own members of the same group.
//
// # Plugging in
//
// One [Balancer] per client, passed to kgo twice, as the group's balancer
// and as a hook so that it knows its client: [Balancer.Opts] returns both
// options.
//
//	b := kgoassignor.CooperativeSticky()
//	cl, err := kgo.NewClient(append([]kgo.Opt{
//		kgo.SeedBrokers(brokers...),
//		kgo.ConsumerGroup("billing"),
//		kgo.ConsumeTopics("orders"),
//	}, b.Opts()...)...)
//
// [CooperativeSticky] is this module's cooperative-sticky
// (cooperative.Wrap(sticky.New())), protocol name "cooperative-sticky": it
// shares a group with Java's, sarama's and kgo's own cooperative-sticky
// members, and takes over as leader from any of them. Any other assignor
// goes through [New], with a [Config] for racks, logging (log/slog) and a
// per-rebalance hook ([Config.OnRebalance], with the round's [Stats]). kgo.Balancers
// replaces kgo's default list (cooperative-sticky); to migrate a group from
// another protocol, list both, the new one first, as with any kgo balancer.
//
// # What kgo does around the balancer
//
// On every member, before each JoinGroup, kgo calls
// [Balancer.JoinGroupMetadata] with the member's topics, its last
// assignment and its generation, and then, if the client has a rack
// (kgo.Rack), decodes the result with kmsg, sets the rack and encodes it
// again. After SyncGroup it calls [Balancer.ParseSyncAssignment] with the
// member's assignment, before it revokes or starts anything.
//
// On the leader, kgo (v1.22.3):
//
//  1. sorts the JoinGroup response's members by instance ID, then member ID,
//     and hands them to [Balancer.MemberBalancer] undecoded: the raw
//     metadata of each member, duplicates included (kgo drops duplicate
//     member IDs only inside its own balancers);
//  2. finds a partition count for every topic MemberBalancer returned, from
//     its own metadata, or with one metadata request for topics it does not
//     consume; a topic it cannot load is left out;
//  3. tells the balancer the generation being balanced into, the leader's
//     member ID, and functions for its cached topic and broker metadata
//     (kgo.BalanceInfo). kgo requests no metadata for these: a topic it has
//     not loaded is missing, and what it has may be up to
//     kgo.MetadataMaxAge old. (For rack-aware balancing kgo loads the
//     topics missing from its cache first, but only for its own
//     *kgo.ConsumerBalancer);
//  4. calls BalanceOrError and sends one assignment per member in SyncGroup.
//
// # What a bad member costs
//
// kgo hands over raw bytes, so the adapter reads them itself, with the
// rebalance kit ([rebalance.Round.AddMetadata]: any version, a version above
// 3 as its version-3 prefix, trailing bytes ignored), and one member's bytes
// never fail the group's rebalance or panic:
//   - metadata that does not decode is read as version 0, its topics only
//     (as kgo does for a short v1, franz-go issue #493): the member loses its
//     user data and rack, and its claims are unknown (see below); if not
//     even its topics can be read, it is assigned nothing;
//   - an empty member ID, or a member ID listed more than once: assigned
//     nothing. Under the cooperative protocol the partitions such a member
//     claims are withheld from everyone else for the round (unless their
//     own claim is newer), since it holds them until it revokes them;
//   - a claim at or above the generation being balanced into cannot be true
//     (no member has been given anything in it yet): the member loses its
//     history, so a well-formed hostile member cannot outrank true owners;
//   - an empty topic name is ignored; each of these is a warning
//     ([Config.Logger]).
//
// # Unreadable metadata
//
// A member whose claims cannot be read (metadata that does not decode, or a
// subscription that ends before its owned partitions) may still hold
// partitions: under the cooperative protocol no other member may be handed
// them until it revokes them. The leader keeps its last plan between
// rebalances (the Balancer lives as long as the client) and, in the round
// right after a plan that was delivered (its own member received its
// assignment, or a readable member claims what it was given), reads such a
// member's claims from it: what the plan assigned it, at that generation,
// as ordinary claims, and what the plan withheld from it, kept from
// everyone else one round more in case it missed that plan. Without such a
// plan (this member did not lead the last generation, or it restarted) the
// round withholds every partition no readable member claims, the safest
// choice that keeps the group going: what the member may hold is never
// handed to another member, and what readable members hold moves as usual.
// After a plan that withheld partitions for such a member, the leader's
// client rejoins at once (kgo.Client.ForceRebalance), fast re-join or not,
// so that the second round comes even if nobody revokes anything. A member
// that keeps sending such metadata costs a round only when an event moves
// its partitions (one more, to cover a missed plan), not every rebalance.
// What the round worked around is in [Stats] (ClaimsUnknown, Withheld).
//
// # Racks
//
// Member racks come from subscriptions v3 (kgo members with kgo.Rack, Java
// members with client.rack) or else from [Config.MemberRack]. Replica racks
// come from [Config.ReplicaRacks], or else from kgo.BalanceInfo: each
// partition's replicas in the leader's metadata cache, then each broker's
// rack. They are read only when some member has a rack. Java's leader does
// the same (all replicas); kgo's own sticky balancers, with
// kgo.BalanceRacks, use each partition's leader only.
//
// # Static members and KIP-814
//
// When a static leader restarts, the broker tells it to skip assignment
// (KIP-814). For balancers named "range", "roundrobin", "sticky" and
// "cooperative-sticky" kgo balances anyway and compares the assignment it
// computes for itself with the one the broker kept; if they differ it
// rejoins, which costs the group a rebalance. The adapter's assignment
// bytes are a pure function of the plan (sorted members, topics and
// partitions, fixed version), so that an unchanged plan compares equal. For
// any other protocol name kgo skips the balance.
//
// # Member side
//
// The assignor's member-side hooks run on every member:
// [assignor.SubscriptionUserDataAssignor] in JoinGroupMetadata, from the
// state kgo passes; [assignor.AssignmentObserver] in ParseSyncAssignment,
// with the generation read from the bound client. See [Balancer] for why
// each client needs its own.
//
// # Fast re-join
//
// A cooperative rebalance that moves partitions takes two rounds: the first
// withholds what moves, its owners revoke it and rejoin at once, and the
// second hands it over. That second round starts only when every member
// has rejoined, and a member that revoked nothing learns of it from its
// next heartbeat (kgo's cooperative members heartbeat 500 ms after a sync,
// then every kgo.HeartbeatInterval; Java's and sarama's every 3 s). So, as
// the KIP-429 design has it (step 2.6, NEEDS_REJOIN "for all the members"),
// the leader marks every assignment of a plan that withholds partitions,
// inside the assignment's user data (an envelope around the assignor's
// own; see the rebalance package), and a member of this
// adapter whose assignment is marked rejoins at once: ParseSyncAssignment
// calls kgo.Client.ForceRebalance on the bound client, a non-blocking send
// that ends the session kgo is about to start. The mark changes only when
// members rejoin, never what they are assigned. Java's, sarama's and kgo's
// own members ignore assignment user data under cooperative-sticky, so a
// mark costs them nothing, but one of them in the group makes the second
// round wait for its heartbeat anyway.
//
// What it costs, in kgo v1.22.3 (pkg/kgo/consumer_group.go):
//   - the forced end of the session cancels the offset fetch of the
//     partitions the marked round added (revoke: s.cancelFetch, line
//     1045); kgo keeps them in its fetching set and fetches them again in
//     the next session (adjustCooperativeFetchOffsets, line 1897), so they
//     start after the second round, one JoinGroup and SyncGroup later,
//     instead of at once. Partitions the member already had go on being
//     consumed throughout;
//   - with kgo.BlockRebalanceOnPoll, the rejoin waits for
//     kgo.Client.AllowRebalance, as any rebalance does (revoke calls
//     waitAndAddRebalance first, line 1043);
//   - OnPartitionsAssigned still runs before the rejoin (revoke waits for
//     it, line 1042).
//
// A member rejoins for at most three marked assignments in a row
// ([rebalance.MaxFastRejoins]), so an inner assignor that withholds in every
// round falls back to heartbeat pace. The leader leaves the mark off a plan
// that withholds exactly what the last one did, from the same members at
// the same generations: those members have not taken their last assignment
// yet (slow to sync or to revoke), and rejoining at once would only repeat
// the round; they rejoin once they have revoked. It does not rejoin when its balancer
// is bound to no client or shared by several (it cannot tell which client
// the call is for; logged once). [Config.DisableFastRejoin] turns it off,
// as leader (no mark) and as member (the mark is ignored).
//
// # Mixed groups
//
// Members of this adapter, Java, sarama and kgo's own cooperative-sticky
// share a group on the wire and follow whatever plan they are sent, so a
// rebalance is as safe as its leader (docs/compatibility.md has the table).
// Under this balancer a claimed partition goes only to its valid owner
// (KIP-792's highest generation), with generations read from subscription
// v2+ or, below it, from the user data: the 4-byte cooperative layout Java
// and sarama send, or sticky's, which this module's wrapper sends with
// cooperative.Config{InnerUserData: true}. kgo's
// own leader (v1.22.3) guards only with the subscription's generation, so
// a member on subscription v1 (sarama below Kafka 3.2, Java up to 3.3) that
// rejoins with a stale claim gets the partition at once, while its owner
// still holds it; sarama's own cooperative-sticky leader does that at any
// version.
//
// # Examples
//
// [CooperativeSticky]'s example is the kgo options; [New]'s plugs in any
// assignor with racks; [Balancer.MemberBalancer]'s runs the leader's side
// as kgo does; [Config]'s logger example logs, with log/slog, a claim at a
// generation the group has not reached being dropped.
//
// # KIPs
//
// KIP-429 (cooperative rebalancing: owned partitions, subscription v1;
// the design's NEEDS_REJOIN, as fast re-join),
// KIP-792 (generation in subscription v2), KIP-881 (racks, subscription v3),
// KIP-345 and KIP-814 (static membership, and a restarted static leader).
package kgoassignor
