// Package touchfloor is the least work any Assign does on a group: read
// the [assignor.Group] and write an [assignor.Plan] of the same shape, with
// no assignment logic. It is the "touch floor" of the comparison with
// Kafka's broker assignors (docs/kafka-assignors.md): Kafka's coordinator
// hands its assignor topic IDs and a partition→owner map it keeps between
// rebalances, so Kafka's assign() starts where this floor's reading ends,
// while our Assign starts from names and lists.
//
// # What it does
//
// [New] (untimed) turns a decided plan into a dense owner array, as a
// solver holds its decision. [Floor.Plan] (timed) then
//
//   - reads the metadata: a map from topic names to topics, the topics in
//     name order, each topic's flat position;
//   - reads every member: its topic names resolved to topic numbers, each
//     owned partition written into a per-partition claims array (the
//     owner map Kafka's coordinator keeps);
//   - orders the members by ID, as a plan must be;
//   - writes the decided owners grouped by member and topic.
//
// It does not validate, classify claims, or decide anything.
//
// # Layouts
//
// [Shared] lays the plan out in three allocations whatever its size (the
// MemberPlans, one array of entries that every member slices, one array of
// partition IDs that every entry slices), with the Group's own strings as
// names; [PerList] appends into a slice per member and per entry. The
// difference is what the contract's types cost when they are filled one
// list at a time.
//
// The bench runs the floor as the contender touch-floor; BenchmarkFloor
// times both layouts beside sticky.New() and cooperative.Wrap(sticky.New())
// on the same groups.
package touchfloor
