package io.kgroup.assignor.kafkabench;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One group as the Go side hands it over: the topics (partitions 0..n-1), the members with their
 * subscriptions, racks and generations, and what each member owns now (the last plan). Members and
 * topics are referred to by index everywhere, in the order given.
 *
 * <p>The text form, one record per line, fields separated by one space:
 *
 * <pre>
 * group LABEL
 * topics T
 * NAME PARTITIONS                        (T lines)
 * members M
 * ID GENERATION RACK|- K TOPIC...        (M lines; K topic indices)
 * owned L
 * MEMBER TOPIC PARTITION...              (L lines; one per member and topic)
 * end
 * </pre>
 */
final class GroupInput {
    String label;
    String[] topicNames;
    int[] topicPartitions;
    String[] memberIds;
    int[] generations;
    String[] racks; // null entries for members without a rack
    int[][] memberTopics;
    /** owned.get(m): rows {topic, partition...} of member m. */
    List<List<int[]>> owned;

    int partitions() {
        int n = 0;
        for (int p : topicPartitions) {
            n += p;
        }
        return n;
    }

    /** Reads the next group from in, or returns null at the end of the input. */
    static GroupInput read(BufferedReader in) throws IOException {
        String line = in.readLine();
        while (line != null && line.isEmpty()) {
            line = in.readLine();
        }
        if (line == null) {
            return null;
        }
        GroupInput g = new GroupInput();
        g.label = after(line, "group");
        int t = Integer.parseInt(after(in.readLine(), "topics"));
        g.topicNames = new String[t];
        g.topicPartitions = new int[t];
        for (int i = 0; i < t; i++) {
            String[] f = fields(in.readLine(), 2, g.label);
            g.topicNames[i] = f[0];
            g.topicPartitions[i] = Integer.parseInt(f[1]);
        }
        int m = Integer.parseInt(after(in.readLine(), "members"));
        g.memberIds = new String[m];
        g.generations = new int[m];
        g.racks = new String[m];
        g.memberTopics = new int[m][];
        g.owned = new ArrayList<>(m);
        for (int i = 0; i < m; i++) {
            String[] f = fields(in.readLine(), 4, g.label);
            g.memberIds[i] = f[0];
            g.generations[i] = Integer.parseInt(f[1]);
            g.racks[i] = f[2].equals("-") ? null : f[2];
            int k = Integer.parseInt(f[3]);
            if (f.length != 4 + k) {
                throw new IOException("group " + g.label + ": member " + f[0] + ": " + k + " topics announced, " + (f.length - 4) + " given");
            }
            g.memberTopics[i] = new int[k];
            for (int j = 0; j < k; j++) {
                g.memberTopics[i][j] = topicIndex(g, Integer.parseInt(f[4 + j]));
            }
            g.owned.add(new ArrayList<>());
        }
        int l = Integer.parseInt(after(in.readLine(), "owned"));
        for (int i = 0; i < l; i++) {
            String[] f = fields(in.readLine(), 2, g.label);
            int member = Integer.parseInt(f[0]);
            if (member < 0 || member >= m) {
                throw new IOException("group " + g.label + ": owned row " + i + ": member index " + member + " out of range");
            }
            int[] row = new int[f.length - 1];
            row[0] = topicIndex(g, Integer.parseInt(f[1]));
            for (int j = 2; j < f.length; j++) {
                row[j - 1] = Integer.parseInt(f[j]);
                if (row[j - 1] < 0 || row[j - 1] >= g.topicPartitions[row[0]]) {
                    throw new IOException("group " + g.label + ": member " + g.memberIds[member] + " owns " + g.topicNames[row[0]] + "-" + row[j - 1] + ", out of range");
                }
            }
            g.owned.get(member).add(row);
        }
        after(in.readLine(), "end");
        return g;
    }

    private static int topicIndex(GroupInput g, int t) throws IOException {
        if (t < 0 || t >= g.topicNames.length) {
            throw new IOException("group " + g.label + ": topic index " + t + " out of range");
        }
        return t;
    }

    private static String after(String line, String keyword) throws IOException {
        if (line == null) {
            throw new IOException("input ends where \"" + keyword + "\" was expected");
        }
        if (line.equals(keyword)) {
            return "";
        }
        if (!line.startsWith(keyword + " ")) {
            throw new IOException("expected \"" + keyword + "\", got \"" + abbreviate(line) + "\"");
        }
        return line.substring(keyword.length() + 1);
    }

    private static String[] fields(String line, int least, String label) throws IOException {
        if (line == null) {
            throw new IOException("group " + label + ": input ends inside the group");
        }
        String[] f = line.split(" ");
        if (f.length < least) {
            throw new IOException("group " + label + ": line \"" + abbreviate(line) + "\" has " + f.length + " fields, want at least " + least);
        }
        return f;
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 60) + "…";
    }
}
