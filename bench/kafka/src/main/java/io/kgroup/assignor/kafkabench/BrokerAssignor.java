package io.kgroup.assignor.kafkabench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metadata.PartitionRecord;
import org.apache.kafka.common.metadata.TopicRecord;
import org.apache.kafka.common.utils.internals.LogContext;
import org.apache.kafka.coordinator.common.runtime.CoordinatorMetadataImage;
import org.apache.kafka.coordinator.common.runtime.KRaftCoordinatorMetadataImage;
import org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.GroupSpec;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.apache.kafka.coordinator.group.modern.Assignment;
import org.apache.kafka.coordinator.group.modern.GroupSpecImpl;
import org.apache.kafka.coordinator.group.modern.MemberSubscriptionAndAssignmentImpl;
import org.apache.kafka.coordinator.group.modern.SubscribedTopicDescriberImpl;
import org.apache.kafka.coordinator.group.modern.TopicIds;
import org.apache.kafka.image.MetadataDelta;
import org.apache.kafka.image.MetadataImage;
import org.apache.kafka.image.MetadataProvenance;
import org.apache.kafka.timeline.SnapshotRegistry;
import org.apache.kafka.timeline.TimelineHashMap;

/**
 * A broker-side assignor of KIP-848 (UniformAssignor or RangeAssignor of kafka-group-coordinator)
 * through its public {@code ConsumerGroupPartitionAssignor.assign(GroupSpec,
 * SubscribedTopicDescriber)}, on inputs built as the group coordinator builds them.
 *
 * <p>Kept between rebalances (built once in {@link #load}), as the coordinator's {@code ModernGroup}
 * keeps them: the metadata image (a KRaft {@code MetadataImage} replayed from TopicRecord and
 * PartitionRecord records, wrapped in {@code KRaftCoordinatorMetadataImage}); each member's target
 * assignment ({@code Assignment}, a HashSet of partitions per topic ID, as
 * {@code Assignment.fromRecord} loads it) in a {@code TimelineHashMap}; the inverted target
 * assignment, topic ID to partition to member ID, in {@code TimelineHashMap}s; each member's
 * subscribed topic names.
 *
 * <p>Built per rebalance (in {@link #handOver}, untimed), as {@code TargetAssignmentBuilder.build}
 * builds them before it calls assign: one {@code MemberSubscriptionAndAssignmentImpl} per member
 * with its subscription as {@code TopicIds} over a fresh {@code CachedTopicResolver} (names resolved
 * to topic IDs lazily, inside assign), the {@code GroupSpecImpl} over those and the inverted map, and
 * the {@code SubscribedTopicDescriberImpl} over the image. The subscription type is the one the
 * coordinator derives: homogeneous when every member subscribes to the same topics.
 *
 * <p>With {@code hashMaps} set, the inverted target assignment is handed over in
 * {@code java.util.HashMap}s instead, as Kafka's own ServerSideAssignorBenchmark (jmh-benchmarks)
 * builds it: the same lookups without the timeline maps' snapshot bookkeeping.
 */
final class BrokerAssignor implements Contender {
    private final ConsumerGroupPartitionAssignor assignor;
    private final boolean hashMaps;

    private GroupInput group;
    private CoordinatorMetadataImage image;
    private Uuid[] topicIds;
    private Map<Uuid, Integer> topicIndex;
    private Map<String, Integer> memberIndex;
    private List<Set<String>> subscribedTopicNames;
    private TimelineHashMap<String, Assignment> targetAssignment;
    private TimelineHashMap<Uuid, TimelineHashMap<Integer, String>> invertedTargetAssignment;
    private Map<Uuid, Map<Integer, String>> handedOverOwners;
    private SubscriptionType subscriptionType;

    private GroupSpec spec;
    private SubscribedTopicDescriber describer;

    BrokerAssignor(ConsumerGroupPartitionAssignor assignor, boolean hashMaps) {
        this.assignor = assignor;
        this.hashMaps = hashMaps;
    }

    @Override
    public void load(GroupInput g) {
        group = g;
        // Topic IDs from a fixed seed, so that a group's plan is the same in every run.
        Random rng = new Random(1);
        topicIds = new Uuid[g.topicNames.length];
        topicIndex = new HashMap<>();
        MetadataDelta delta = new MetadataDelta.Builder().setImage(MetadataImage.EMPTY).build();
        for (int t = 0; t < topicIds.length; t++) {
            Uuid id;
            do {
                id = new Uuid(rng.nextLong(), rng.nextLong());
            } while (Uuid.RESERVED.contains(id) || topicIndex.containsKey(id));
            topicIds[t] = id;
            topicIndex.put(id, t);
            delta.replay(new TopicRecord().setName(g.topicNames[t]).setTopicId(id));
            for (int p = 0; p < g.topicPartitions[t]; p++) {
                delta.replay(new PartitionRecord()
                    .setPartitionId(p)
                    .setTopicId(id)
                    .setReplicas(List.of(1))
                    .setIsr(List.of(1))
                    .setLeader(1)
                    .setLeaderEpoch(0)
                    .setPartitionEpoch(0));
            }
        }
        image = new KRaftCoordinatorMetadataImage(delta.apply(MetadataProvenance.EMPTY));

        memberIndex = new HashMap<>();
        subscribedTopicNames = new ArrayList<>(g.memberIds.length);
        boolean homogeneous = true;
        for (int m = 0; m < g.memberIds.length; m++) {
            memberIndex.put(g.memberIds[m], m);
            Set<String> names = new HashSet<>();
            for (int t : g.memberTopics[m]) {
                names.add(g.topicNames[t]);
            }
            subscribedTopicNames.add(Collections.unmodifiableSet(names));
            homogeneous &= names.equals(subscribedTopicNames.get(0));
        }
        subscriptionType = homogeneous ? SubscriptionType.HOMOGENEOUS : SubscriptionType.HETEROGENEOUS;

        SnapshotRegistry registry = new SnapshotRegistry(new LogContext("[bench] "));
        targetAssignment = new TimelineHashMap<>(registry, 0);
        invertedTargetAssignment = new TimelineHashMap<>(registry, 0);
        for (int m = 0; m < g.memberIds.length; m++) {
            List<int[]> rows = g.owned.get(m);
            if (rows.isEmpty()) {
                continue;
            }
            Map<Uuid, Set<Integer>> partitions = new HashMap<>();
            for (int[] row : rows) {
                Uuid id = topicIds[row[0]];
                Set<Integer> set = partitions.computeIfAbsent(id, k -> new HashSet<>());
                TimelineHashMap<Integer, String> owners = invertedTargetAssignment.computeIfAbsent(
                    id, k -> new TimelineHashMap<>(registry, g.topicPartitions[row[0]]));
                for (int i = 1; i < row.length; i++) {
                    set.add(row[i]);
                    owners.put(row[i], g.memberIds[m]);
                }
            }
            targetAssignment.put(g.memberIds[m], new Assignment(partitions));
        }
        if (hashMaps) {
            Map<Uuid, Map<Integer, String>> plain = new HashMap<>();
            for (Map.Entry<Uuid, TimelineHashMap<Integer, String>> e : invertedTargetAssignment.entrySet()) {
                plain.put(e.getKey(), new HashMap<>(e.getValue()));
            }
            handedOverOwners = plain;
        } else {
            handedOverOwners = Collections.unmodifiableMap(invertedTargetAssignment);
        }
    }

    @Override
    public void handOver() {
        TopicIds.TopicResolver resolver = new TopicIds.CachedTopicResolver(image);
        Map<String, MemberSubscriptionAndAssignmentImpl> members = new HashMap<>();
        for (int m = 0; m < group.memberIds.length; m++) {
            String id = group.memberIds[m];
            members.put(id, new MemberSubscriptionAndAssignmentImpl(
                Optional.ofNullable(group.racks[m]),
                Optional.empty(),
                new TopicIds(subscribedTopicNames.get(m), resolver),
                targetAssignment.getOrDefault(id, Assignment.EMPTY)));
        }
        spec = new GroupSpecImpl(
            Collections.unmodifiableMap(members),
            subscriptionType,
            handedOverOwners);
        describer = new SubscribedTopicDescriberImpl(image);
    }

    @Override
    public Object assign() {
        return assignor.assign(spec, describer);
    }

    @Override
    public List<int[]> plan(Object result) {
        List<int[]> rows = new ArrayList<>();
        for (Map.Entry<String, MemberAssignment> e : ((GroupAssignment) result).members().entrySet()) {
            Integer m = memberIndex.get(e.getKey());
            if (m == null) {
                throw new IllegalStateException(assignor.name() + " assigned to unknown member " + e.getKey());
            }
            for (Map.Entry<Uuid, Set<Integer>> tp : e.getValue().partitions().entrySet()) {
                Integer t = topicIndex.get(tp.getKey());
                if (t == null) {
                    throw new IllegalStateException(assignor.name() + " assigned unknown topic ID " + tp.getKey() + " to " + e.getKey());
                }
                rows.add(row(m, t, tp.getValue()));
            }
        }
        return rows;
    }

    /** {member, topic, partitions sorted}. */
    static int[] row(int member, int topic, Collection<Integer> partitions) {
        int[] row = new int[2 + partitions.size()];
        row[0] = member;
        row[1] = topic;
        int i = 2;
        for (int p : partitions) {
            row[i++] = p;
        }
        Arrays.sort(row, 2, row.length);
        return row;
    }

    @Override
    public String subscriptionType() {
        return subscriptionType == SubscriptionType.HOMOGENEOUS ? "homogeneous" : "heterogeneous";
    }
}
