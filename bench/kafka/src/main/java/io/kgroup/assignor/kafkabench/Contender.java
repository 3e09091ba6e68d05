package io.kgroup.assignor.kafkabench;

import java.util.List;

/**
 * One Kafka assignor as the harness runs it. Call order per group: {@link #load} once, then for
 * every run {@link #handOver} (untimed) and {@link #assign} (timed), then {@link #plan} on the last
 * run's result.
 */
interface Contender {
    /**
     * Builds what Kafka keeps between rebalances for the group (untimed, once): the metadata and,
     * for the broker's assignors, the coordinator's target assignment and partition-to-owner map.
     */
    void load(GroupInput g);

    /**
     * Builds what the assignor is handed at the start of a rebalance (untimed, before every run),
     * as Kafka builds it afresh for every rebalance.
     */
    void handOver();

    /** The timed section: the assignor's public assign() on what {@link #handOver} built. */
    Object assign();

    /** Rows {member, topic, partition...} of result, partitions sorted (untimed). */
    List<int[]> plan(Object result);

    /** The subscription type the broker's assignor was told ("homogeneous", "heterogeneous"), or "-". */
    String subscriptionType();
}
