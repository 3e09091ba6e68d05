package io.kgroup.interop;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Apache Kafka's Java consumers in one JVM, driven by the Go interop suite.
 *
 * <p>Standard input carries one command per line, a flat JSON object of string values:
 *
 * <pre>
 * {"op":"start","id":"j1","bootstrap":"127.0.0.1:9092","group":"g","topics":"a,b",
 *  "instance":"","session":"3000","heartbeat":"300","maxpoll":"5000"}
 * {"op":"stop","id":"j1"}      close the consumer (a dynamic member leaves the group;
 *                              a static member, one with "instance", does not)
 * {"op":"quit"}                stop every consumer and exit
 * </pre>
 *
 * <p>Standard output carries one event per line, a JSON object with "ev", "id" and "t" (wall
 * clock, Unix microseconds, the clock Go's time.Now reads): started, assigned (added partitions,
 * the whole assignment, generation, member id), revoked and lost (at the end of the callback, so
 * after the final commit; lost says whether the member was closing, since a consumer closed
 * during a rebalance reports its partitions lost rather than revoked), consumed (offsets of one partition in one poll), committed (the next
 * offset to read), commitfail, closed, error. Partitions are [topic, partition] pairs.
 *
 * <p>Every consumer uses the classic group protocol with CooperativeStickyAssignor, commits
 * synchronously after each poll and again, for what is still uncommitted, in
 * onPartitionsRevoked; max.poll.interval.ms, also the rebalance timeout, comes from "maxpoll".
 */
public final class InteropConsumer {
  private static final PrintStream OUT =
      new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
  private static final Pattern FIELD = Pattern.compile("\"(\\w+)\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
  private static final Map<String, Member> MEMBERS = new ConcurrentHashMap<>();

  private InteropConsumer() {}

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      Map<String, String> cmd = parse(line);
      String op = cmd.getOrDefault("op", "");
      String id = cmd.getOrDefault("id", "");
      try {
        switch (op) {
          case "start" -> {
            if (MEMBERS.containsKey(id)) {
              throw new IllegalStateException("member " + id + " is already running");
            }
            Member m = new Member(cmd);
            MEMBERS.put(id, m);
            m.thread.start();
          }
          case "stop" -> {
            Member m = MEMBERS.get(id);
            if (m == null) {
              throw new IllegalStateException("member " + id + " is not running");
            }
            m.stopAndJoin();
          }
          case "quit" -> {
            stopAll();
            return;
          }
          default -> throw new IllegalArgumentException("unknown op " + quote(op) + " in " + line);
        }
      } catch (Exception e) {
        emit("error", id, "\"msg\":" + quote(String.valueOf(e)));
      }
    }
    stopAll();
  }

  private static void stopAll() throws InterruptedException {
    for (Member m : new ArrayList<>(MEMBERS.values())) {
      m.stopAndJoin();
    }
  }

  /** One group member: a KafkaConsumer and the thread that polls it. */
  private static final class Member implements ConsumerRebalanceListener {
    final String id;
    final KafkaConsumer<byte[], byte[]> consumer;
    final List<String> topics;
    final Thread thread;
    volatile boolean stopping;
    /** Next offset to commit for partitions consumed but not yet committed; poll thread only. */
    final Map<TopicPartition, OffsetAndMetadata> uncommitted = new HashMap<>();

    Member(Map<String, String> cmd) {
      id = cmd.get("id");
      topics = List.of(cmd.getOrDefault("topics", "").split(","));
      Properties p = new Properties();
      p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cmd.get("bootstrap"));
      p.put(ConsumerConfig.GROUP_ID_CONFIG, cmd.get("group"));
      p.put(ConsumerConfig.CLIENT_ID_CONFIG, id);
      p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
      p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
      p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
      p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, cmd.getOrDefault("session", "3000"));
      p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, cmd.getOrDefault("heartbeat", "300"));
      p.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, cmd.getOrDefault("maxpoll", "5000"));
      p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "100");
      p.put(ConsumerConfig.RETRY_BACKOFF_MS_CONFIG, "50");
      p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
      p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
      String instance = cmd.getOrDefault("instance", "");
      if (!instance.isEmpty()) {
        p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instance);
      }
      consumer = new KafkaConsumer<>(p);
      thread = new Thread(this::run, "member-" + id);
    }

    void stopAndJoin() throws InterruptedException {
      stopping = true;
      consumer.wakeup();
      thread.join();
    }

    void run() {
      try {
        consumer.subscribe(topics, this);
        emit("started", id, null);
        while (!stopping) {
          ConsumerRecords<byte[], byte[]> records;
          try {
            records = consumer.poll(Duration.ofMillis(100));
          } catch (WakeupException e) {
            continue;
          }
          if (records.isEmpty()) {
            continue;
          }
          int generation = consumer.groupMetadata().generationId();
          Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
          for (TopicPartition tp : records.partitions()) {
            StringBuilder offsets = new StringBuilder();
            long last = -1;
            for (ConsumerRecord<byte[], byte[]> r : records.records(tp)) {
              if (offsets.length() > 0) {
                offsets.append(',');
              }
              offsets.append(r.offset());
              last = r.offset();
            }
            emit("consumed", id, "\"gen\":" + generation + ",\"topic\":" + quote(tp.topic())
                + ",\"p\":" + tp.partition() + ",\"offs\":[" + offsets + "]");
            next.put(tp, new OffsetAndMetadata(last + 1));
          }
          uncommitted.putAll(next);
          commit(new HashMap<>(uncommitted));
        }
      } catch (Exception e) {
        emit("error", id, "\"msg\":" + quote(String.valueOf(e)));
      } finally {
        try {
          consumer.close(Duration.ofSeconds(10));
        } catch (Exception e) {
          emit("error", id, "\"msg\":" + quote("close: " + e));
        }
        MEMBERS.remove(id);
        emit("closed", id, null);
      }
    }

    /** commit commits offsets synchronously and reports the outcome; poll thread only. */
    void commit(Map<TopicPartition, OffsetAndMetadata> offsets) {
      if (offsets.isEmpty()) {
        return;
      }
      try {
        consumer.commitSync(offsets);
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : offsets.entrySet()) {
          uncommitted.remove(e.getKey(), e.getValue());
          emit("committed", id, "\"topic\":" + quote(e.getKey().topic()) + ",\"p\":" + e.getKey().partition()
              + ",\"off\":" + e.getValue().offset());
        }
      } catch (WakeupException e) {
        // stop() interrupted the commit; the revocation on close commits again.
        commit(offsets);
      } catch (Exception e) {
        emit("commitfail", id, "\"msg\":" + quote(String.valueOf(e)));
      }
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      emit("assigned", id, "\"gen\":" + consumer.groupMetadata().generationId() + ",\"member\":"
          + quote(consumer.groupMetadata().memberId()) + ",\"parts\":" + parts(partitions) + ",\"all\":"
          + parts(consumer.assignment()));
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      Map<TopicPartition, OffsetAndMetadata> final_ = new HashMap<>();
      for (TopicPartition tp : partitions) {
        OffsetAndMetadata o = uncommitted.get(tp);
        if (o != null) {
          final_.put(tp, o);
        }
      }
      commit(final_);
      for (TopicPartition tp : partitions) {
        uncommitted.remove(tp);
      }
      emit("revoked", id, "\"gen\":" + consumer.groupMetadata().generationId() + ",\"parts\":" + parts(partitions));
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      for (TopicPartition tp : partitions) {
        uncommitted.remove(tp);
      }
      // While closing during a rebalance, Java reports the partitions lost, not revoked.
      emit("lost", id, "\"gen\":" + consumer.groupMetadata().generationId() + ",\"closing\":" + stopping
          + ",\"parts\":" + parts(partitions));
    }
  }

  private static String parts(Collection<TopicPartition> partitions) {
    StringBuilder b = new StringBuilder("[");
    for (TopicPartition tp : partitions) {
      if (b.length() > 1) {
        b.append(',');
      }
      b.append('[').append(quote(tp.topic())).append(',').append(tp.partition()).append(']');
    }
    return b.append(']').toString();
  }

  private static void emit(String event, String id, String fields) {
    Instant now = Instant.now();
    long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    String line = "{\"ev\":" + quote(event) + ",\"id\":" + quote(id) + ",\"t\":" + micros
        + (fields == null ? "" : "," + fields) + "}";
    synchronized (OUT) {
      OUT.println(line);
      OUT.flush();
    }
  }

  static Map<String, String> parse(String line) {
    Map<String, String> m = new HashMap<>();
    Matcher matcher = FIELD.matcher(line);
    while (matcher.find()) {
      m.put(matcher.group(1), matcher.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
    }
    return m;
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }
}
