// Package balance holds what the count-balancing assignor (package sticky)
// and the load-balancing one (package weighted) both need:
//
//   - reading a group off an [assignor.Index] alike: the members' racks
//     numbered in member order ([MemberRacks], [HasReplicaRacks]) and
//     whether anything is claimed ([HasClaims]);
//   - interning lists of numbers, so that topics with the same subscribers
//     share one subscriber set and members with the same sets one class
//     ([Interner]);
//   - the exchange graph of members and the groups of partitions they may
//     pass each other ([Graph]), and the breadth-first [Walk] over it that
//     both use to move a partition, or a count, along a chain of members.
//
// Nothing here allocates per step: a Walk is reset and reused across
// searches, and an Interner keeps the lists it is given.
package balance
