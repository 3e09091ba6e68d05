// Package dense is the one home of the flat representation of a consumer
// group that this module's assignors work on: members and topics numbered
// in a canonical order, every partition a flat integer, every member's
// claims classified. Package assignor builds it (NewIndex) and gives custom
// assignors a read-only view of it ([assignor.Index]); package sticky and
// package cooperative use it directly.
//
// # Numbering
//
// Members are numbered by member ID order, topics by name order, and each
// topic's partitions (sorted, deduplicated, negatives dropped) get a
// contiguous range of flat partition numbers, Index.TopicStart[t] to
// Index.TopicStart[t+1]. Flat order is therefore topic name order, then
// partition ID order, and every plan built from flat numbers comes out
// sorted.
//
// # Claims
//
// Every member's owned partitions, read at the member's generation (negative
// generations read as NoGeneration), are claims. For each partition in the
// metadata its valid owner is its unique highest-generation claimant
// (KIP-792); a tie at the highest generation makes it Contested; every claim
// below the highest generation is stale. A claim outside the metadata (a
// topic the metadata lacks, a partition not in the topic's list, a negative
// partition) is kept in Index.Outside. Claims are never an error.
//
// # What is here
//
//   - [Builder] builds an [Index] in three steps (metadata and members, then
//     claims in member order, then classification), so that package
//     assignor can feed it from a Group or from a client's decoded metadata
//     without an intermediate copy.
//   - [TopicCursor] and [SubscriptionCursor] resolve names and
//     subscriptions asked mostly in ascending order.
//   - [Lists] and [ListsOf] turn flat partitions into per-member topic
//     lists, the one builder every plan goes through.
//   - [PlanReader] and [Check] are the plan rules, once: a plan's lists are
//     read into per-partition holders, and the holders are checked; every
//     violation is a [Violation].
//   - [Assigner] is the fast path between the cooperative wrapper and an
//     inner assignor that can answer on the wrapper's Index.
//
// # Why two hooks
//
// Package assignor imports this package, so this package cannot name
// assignor's types. The two things other packages need that involve them —
// the Index behind an *assignor.Index, and violations converted into
// assignor's public error types — are functions package assignor installs
// at init ([Of], [Errors]).
package dense
