package io.kgroup.assignor.kafkabench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.coordinator.group.assignor.RangeAssignor;
import org.apache.kafka.coordinator.group.assignor.UniformAssignor;

/**
 * Times one Kafka assignor on groups read from stdin (see {@link GroupInput}) and writes, per
 * group, every timed run and the last run's plan to stdout.
 *
 * <pre>
 * java -cp CLASSPATH io.kgroup.assignor.kafkabench.Main ASSIGNOR WARMUP TIMED CAP_MS
 *   ASSIGNOR  uniform | range (the broker's, kafka-group-coordinator)
 *             | uniform-hashmaps (uniform, the owners handed over in HashMaps as Kafka's
 *               jmh ServerSideAssignorBenchmark does, not the coordinator's TimelineHashMaps)
 *             | cooperative-sticky (the Java client's, kafka-clients)
 *   WARMUP    MIN,MAX,US,QMAX,QUS: untimed warm-up runs: at least MIN, then more while their
 *             assign() time totals under US microseconds, up to MAX, and more again while it
 *             totals under QUS, up to QMAX
 *   TIMED     the same for the timed runs; each after System.gc()
 *   CAP_MS    a run longer than this ends the group's runs ("capped 1")
 * </pre>
 *
 * <p>Per group: {@link Contender#load} once; then each run {@link Contender#handOver} (untimed) and
 * {@link Contender#assign}, whose wall time (System.nanoTime) alone is measured, with the bytes this
 * thread allocated and the garbage collections that ran during it. Output, per group:
 *
 * <pre>
 * result LABEL
 * subscription homogeneous|heterogeneous|-
 * warmup RUNS NANOS
 * times NANOS...
 * allocs BYTES...
 * gcs COUNT...
 * capped 0|1
 * plan L
 * MEMBER TOPIC PARTITION...      (L lines, partitions sorted)
 * end
 * </pre>
 *
 * preceded once by {@code jvm VERSION VM GC=NAMES ARGS=ARGUMENTS}. Errors go to stderr, naming the
 * group; the exit status is then 1 (2 for a bad command line).
 */
public final class Main {
    private static volatile Object sink;

    private Main() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            usage("want 4 arguments, got " + args.length);
        }
        Contender c = contender(args[0]);
        long[] warmup = budget(args[1]);
        long[] timed = budget(args[2]);
        long capNanos = Long.parseLong(args[3]) * 1_000_000L;
        if (timed[0] < 1) {
            usage("at least one timed run");
        }

        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 20);
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 20);
        out.write("jvm " + System.getProperty("java.version") + " " + System.getProperty("java.vm.name").replace(' ', '_')
            + " gc=" + gcNames() + " args=" + String.join(",", ManagementFactory.getRuntimeMXBean().getInputArguments()) + "\n");
        GroupInput g;
        while (true) {
            String label = "?";
            try {
                g = GroupInput.read(in);
                if (g == null) {
                    break;
                }
                label = g.label;
                run(c, g, warmup, timed, capNanos, out);
            } catch (IOException | RuntimeException e) {
                out.flush();
                System.err.println("kafkabench: " + args[0] + ": group " + label + ": " + e);
                e.printStackTrace(System.err);
                System.exit(1);
            }
            out.flush();
        }
        out.flush();
    }

    private static void run(Contender c, GroupInput g, long[] warmup, long[] timed, long capNanos, Writer out) throws IOException {
        c.load(g);
        boolean capped = false;
        int warmRuns = 0;
        long warmNanos = 0;
        while (!capped && more(warmRuns, warmNanos, warmup)) {
            c.handOver();
            long start = System.nanoTime();
            sink = c.assign();
            long elapsed = System.nanoTime() - start;
            warmRuns++;
            warmNanos += elapsed;
            capped = elapsed > capNanos;
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<Long> times = new ArrayList<>();
        List<Long> allocs = new ArrayList<>();
        List<Long> gcs = new ArrayList<>();
        long spent = 0;
        Object last = null;
        while (!capped && more(times.size(), spent, timed)) {
            c.handOver();
            System.gc();
            long gc0 = gcCount();
            long alloc0 = threads.getCurrentThreadAllocatedBytes();
            long start = System.nanoTime();
            last = c.assign();
            long elapsed = System.nanoTime() - start;
            long alloc1 = threads.getCurrentThreadAllocatedBytes();
            long gc1 = gcCount();
            times.add(elapsed);
            allocs.add(alloc1 - alloc0);
            gcs.add(gc1 - gc0);
            spent += elapsed;
            capped = elapsed > capNanos;
        }
        sink = last;

        StringBuilder b = new StringBuilder();
        b.append("result ").append(g.label).append('\n');
        b.append("subscription ").append(c.subscriptionType()).append('\n');
        b.append("warmup ").append(warmRuns).append(' ').append(warmNanos).append('\n');
        list(b, "times", times);
        list(b, "allocs", allocs);
        list(b, "gcs", gcs);
        b.append("capped ").append(capped ? 1 : 0).append('\n');
        List<int[]> rows = last == null ? List.of() : c.plan(last);
        b.append("plan ").append(rows.size()).append('\n');
        out.write(b.toString());
        for (int[] row : rows) {
            b.setLength(0);
            for (int i = 0; i < row.length; i++) {
                if (i > 0) {
                    b.append(' ');
                }
                b.append(row[i]);
            }
            b.append('\n');
            out.write(b.toString());
        }
        out.write("end\n");
    }

    /** Whether another run is due (see the budgets in the class comment). */
    private static boolean more(int runs, long nanos, long[] budget) {
        return runs < budget[0]
            || (runs < budget[1] && nanos < budget[2] * 1_000L)
            || (runs < budget[3] && nanos < budget[4] * 1_000L);
    }

    private static void list(StringBuilder b, String name, List<Long> values) {
        b.append(name);
        for (long v : values) {
            b.append(' ').append(v);
        }
        b.append('\n');
    }

    private static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    private static String gcNames() {
        List<String> names = new ArrayList<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            names.add(gc.getName().replace(' ', '_'));
        }
        return String.join(",", names);
    }

    private static Contender contender(String name) {
        switch (name) {
            case "uniform":
                return new BrokerAssignor(new UniformAssignor(), false);
            case "uniform-hashmaps":
                return new BrokerAssignor(new UniformAssignor(), true);
            case "range":
                return new BrokerAssignor(new RangeAssignor(), false);
            case "cooperative-sticky":
                return new ClientCooperativeSticky();
            default:
                usage("unknown assignor \"" + name + "\" (want uniform, uniform-hashmaps, range or cooperative-sticky)");
                return null;
        }
    }

    private static long[] budget(String s) {
        String[] f = s.split(",");
        if (f.length != 5) {
            usage("budget \"" + s + "\": want MIN,MAX,US,QMAX,QUS");
        }
        long[] b = new long[5];
        for (int i = 0; i < 5; i++) {
            b[i] = Long.parseLong(f[i]);
        }
        return b;
    }

    private static void usage(String why) {
        System.err.println("kafkabench: " + why);
        System.err.println("usage: Main uniform|uniform-hashmaps|range|cooperative-sticky WARMUP_BUDGET TIMED_BUDGET CAP_MS < groups");
        System.exit(2);
    }
}
