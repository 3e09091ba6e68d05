// Package workload builds the benchmark's inputs: group shapes, the
// single-rebalance scenarios and the multi-round scripts, all from a fixed
// seed, so that every contender sees byte-for-byte the same group.
//
// # Inputs
//
// A [Shape] is topics × partitions per topic and a member count. [Build]
// turns a shape, a [Scenario] and a seed into a [Case]: the topic metadata and
// the members of one or two rebalances (Before is the group whose plan
// becomes the history of After in the join and leave scenarios). Member IDs
// are random hex from the seed, as real member IDs are random; the order in
// which members appear (the coordinator's JoinGroup order) is shuffled from
// the seed too, so no contender benefits from sorted input.
//
// [NewScript] builds the multi-round scripts the cooperative contenders run
// round by round: a rolling restart of every member and a scale out and in.
package workload
