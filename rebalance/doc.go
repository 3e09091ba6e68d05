// Package rebalance is the kit for client adapters: the work a Kafka
// client's consumer group leader and members do around an
// [assignor.Assignor], written once for every client. The sarama and
// franz-go adapters of this repository are built on it alone (with the
// root package and package cooperative); an adapter for another client is
// a few hundred lines of glue.
//
// # The leader
//
// A [Leader] runs one assignor on the group leader. For each rebalance the
// adapter opens a [Round], feeds it the members as its client hands them
// over — decoded ([Round.AddSubscription]) or as raw JoinGroup metadata
// ([Round.AddMetadata]) — and the topic metadata ([Round.AddTopic]), and
// calls [Round.Assign]. The round:
//
//   - builds the canonical view ([assignor.Index]) straight from the
//     client's structures, reading each member's claim generation from its
//     subscription (v2+) or its user data (below v2);
//   - sets aside the members it cannot assign (an empty or duplicate member
//     ID, metadata that cannot be read) and drops claims that cannot be
//     true (a generation at or above the one being balanced into), each with
//     a warning, so that one member's bytes never fail the group's
//     rebalance;
//   - runs the assignor on its fastest path ([assignor.FlatAssignor], else
//     [assignor.IndexAssignor] or Assign, whose plan is checked and read
//     into flat form);
//   - under the cooperative protocol, withholds what the members it set
//     aside still claim, since they hold it until they revoke it, and what
//     members whose claims it cannot read may hold (see # Memory);
//   - returns one [Assignment] per member ID, canonical, with the
//     assignor's user data and the fast re-join mark, and the round's
//     [Stats].
//
// The same input always gives the same bytes ([Assignment.AppendTo]),
// whatever the order of members and topics (KIP-814).
//
// # Memory
//
// A cooperative Leader remembers its last round: its assignments, and what
// it withheld from whom. The next round uses it, and only the next round
// (the generation after it, when the client says which), once the plan is
// known to have been delivered ([Leader.Delivered], or a readable member
// claiming what it was given in it):
//
//   - a member whose claims cannot be read (metadata that does not decode,
//     a subscription cut short before its owned partitions) gets the claims
//     the plan implies: what it assigned the member, at its generation, as
//     ordinary claims every assignor treats alike, and what it withheld from
//     the member, kept from everyone else once more in case the member
//     missed the plan. Without a plan to vouch for (a new or restarted
//     leader), the round withholds every partition no readable member
//     claims, for one round;
//   - the fast re-join mark is left off a plan that withholds exactly what
//     the last one withheld, from the same members at the same generations
//     (members slow to sync or revoke: rejoining at once would only repeat
//     the round and keep them from syncing), or that carries a withheld
//     claim over.
//
// A plan that withholds for members whose claims are unknown needs a second
// round that nobody's revocation may bring: the adapter makes the leader
// rejoin ([Config.LeaderRejoins]) or, when its client cannot, the round
// takes one partition from a member that holds it, so that the member
// revokes it and rejoins. Adapters keep one Leader per client instance, for
// as long as the client lives.
//
// # Fast re-join
//
// A cooperative rebalance that moves partitions takes two rounds; the
// second starts only when every member has rejoined, and a member that
// revoked nothing learns of it from its next heartbeat. So, as the KIP-429
// design has it (step 2.6, NEEDS_REJOIN "for all the members"), the leader
// marks every assignment of a plan that withholds partitions, inside the
// assignment's user data (an envelope around the assignor's own: see
// [Assignment]), and a member whose adapter reads the mark
// ([ParseAssignment], [ReadUserData]) rejoins at once, for at most
// [MaxFastRejoins] marked assignments in a row ([FastRejoinGuard]). The mark
// is written only when the assignor builds its members' subscription user
// data itself ([assignor.SubscriptionUserDataAssignor]; every cooperative
// wrapper does), since a client that copies assignment user data into the
// next subscription (sarama, for strategies without that hook) would send
// the mark back to a leader that reads it as the assignor's own. Java's,
// sarama's and kgo's own members ignore assignment user data under
// cooperative-sticky, so the mark costs them nothing.
//
// # The member
//
// [ParseAssignment] decodes an assignment and takes the fast re-join mark
// out of its user data; [ReadUserData] does the latter for a client that
// decodes assignments itself; [FastRejoinGuard] decides whether to act on a
// mark; [SubscriptionMetadata] encodes a member's JoinGroup metadata with its
// assignor's user data.
//
// # KIPs
//
// KIP-429 (cooperative rebalancing, and its design's NEEDS_REJOIN), KIP-792
// (generations of claims), KIP-881 (racks), KIP-345 and KIP-814 (static
// members, and a restarted static leader).
package rebalance
