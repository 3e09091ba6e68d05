package io.kgroup.assignor.kafkabench;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * The Java client's CooperativeStickyAssignor (kafka-clients) through its public
 * {@code ConsumerPartitionAssignor.assign(Cluster, GroupSubscription)}, the call the classic
 * protocol's group leader makes ({@code ConsumerCoordinator.onLeaderElected}) after it has decoded
 * the members' subscriptions.
 *
 * <p>Kept between rebalances ({@link #load}): the leader's metadata snapshot (a {@code Cluster} of
 * one broker leading every partition), the leader's assignor instance, and what each member would
 * send: its topics, owned partitions, generation and the user data its own
 * CooperativeStickyAssignor makes (onAssignment with the member's generation, then
 * subscriptionUserData).
 *
 * <p>Built per rebalance ({@link #handOver}, untimed), as the leader's decoding of the JoinGroup
 * metadata builds them: fresh {@code Subscription}s (topic list, user data, owned
 * {@code TopicPartition}s, generation, rack) in a {@code GroupSubscription}.
 */
final class ClientCooperativeSticky implements Contender {
    private final CooperativeStickyAssignor leader = new CooperativeStickyAssignor();

    private GroupInput group;
    private Cluster cluster;
    private Map<String, Integer> memberIndex;
    private Map<String, Integer> topicIndex;
    private List<List<String>> topics;
    private byte[][] userData;

    private GroupSubscription subscriptions;

    @Override
    public void load(GroupInput g) {
        group = g;
        Node node = new Node(1, "localhost", 9092);
        Node[] replicas = {node};
        List<PartitionInfo> partitions = new ArrayList<>(g.partitions());
        topicIndex = new HashMap<>();
        for (int t = 0; t < g.topicNames.length; t++) {
            topicIndex.put(g.topicNames[t], t);
            for (int p = 0; p < g.topicPartitions[t]; p++) {
                partitions.add(new PartitionInfo(g.topicNames[t], p, node, replicas, replicas));
            }
        }
        cluster = new Cluster("bench", List.of(node), partitions, new HashSet<>(), new HashSet<>());

        memberIndex = new HashMap<>();
        topics = new ArrayList<>(g.memberIds.length);
        userData = new byte[g.memberIds.length][];
        for (int m = 0; m < g.memberIds.length; m++) {
            memberIndex.put(g.memberIds[m], m);
            List<String> names = new ArrayList<>();
            for (int t : g.memberTopics[m]) {
                names.add(g.topicNames[t]);
            }
            topics.add(names);
            CooperativeStickyAssignor member = new CooperativeStickyAssignor();
            member.onAssignment(new Assignment(owned(m)),
                new ConsumerGroupMetadata("bench", g.generations[m], g.memberIds[m], Optional.empty()));
            ByteBuffer ud = member.subscriptionUserData(new HashSet<>(names));
            if (ud != null) {
                userData[m] = new byte[ud.remaining()];
                ud.get(userData[m]);
            }
        }
    }

    private List<TopicPartition> owned(int m) {
        List<TopicPartition> out = new ArrayList<>();
        for (int[] row : group.owned.get(m)) {
            for (int i = 1; i < row.length; i++) {
                out.add(new TopicPartition(group.topicNames[row[0]], row[i]));
            }
        }
        return out;
    }

    @Override
    public void handOver() {
        Map<String, Subscription> subs = new HashMap<>();
        for (int m = 0; m < group.memberIds.length; m++) {
            ByteBuffer ud = userData[m] == null ? null : ByteBuffer.wrap(userData[m].clone());
            subs.put(group.memberIds[m], new Subscription(new ArrayList<>(topics.get(m)), ud, owned(m),
                group.generations[m], Optional.ofNullable(group.racks[m])));
        }
        subscriptions = new GroupSubscription(subs);
    }

    @Override
    public Object assign() {
        return leader.assign(cluster, subscriptions);
    }

    @Override
    public List<int[]> plan(Object result) {
        List<int[]> rows = new ArrayList<>();
        for (Map.Entry<String, Assignment> e : ((GroupAssignment) result).groupAssignment().entrySet()) {
            Integer m = memberIndex.get(e.getKey());
            if (m == null) {
                throw new IllegalStateException("CooperativeStickyAssignor assigned to unknown member " + e.getKey());
            }
            Map<Integer, List<Integer>> byTopic = new HashMap<>();
            for (TopicPartition tp : e.getValue().partitions()) {
                Integer t = topicIndex.get(tp.topic());
                if (t == null) {
                    throw new IllegalStateException("CooperativeStickyAssignor assigned unknown topic " + tp.topic() + " to " + e.getKey());
                }
                byTopic.computeIfAbsent(t, k -> new ArrayList<>()).add(tp.partition());
            }
            for (Map.Entry<Integer, List<Integer>> tp : byTopic.entrySet()) {
                rows.add(BrokerAssignor.row(m, tp.getKey(), tp.getValue()));
            }
        }
        return rows;
    }

    @Override
    public String subscriptionType() {
        return "-";
    }
}
