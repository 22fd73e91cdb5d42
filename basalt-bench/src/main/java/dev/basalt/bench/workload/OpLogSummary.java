package dev.basalt.bench.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Says what a phase's latency tail is made of, from a runner's {@code --op-log} file ({@link
 * OpLog}):
 *
 * <ul>
 *   <li>p50 and p99 per operation;
 *   <li>for scans, latency by the rows asked for (ten bands up to the longest): a tail made by long
 *       scans shows as p99 growing with length, one made by stalls as the same p99 in every band;
 *   <li>stretches in which no operation finished: how many were longer than 1, 3 and 10 ms, against
 *       how many a Poisson process of the same rate would have. Far more than that means stalls
 *       that held every client thread at once (pauses of either JVM, the CPUs taken by something
 *       else), not a queue of slow operations.
 * </ul>
 *
 * <pre>
 * java -cp benchmarks.jar dev.basalt.bench.workload.OpLogSummary FILE [PHASE]
 * </pre>
 */
public final class OpLogSummary {
  static final long[] GAP_MICROS = {1_000, 3_000, 10_000};

  private OpLogSummary() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1 || args.length > 2 || args[0].startsWith("-")) {
      System.err.println("usage: OpLogSummary OP_LOG_FILE [PHASE]");
      System.exit(2);
    }
    Map<String, Phase> phases;
    try {
      phases = read(Path.of(args[0]));
    } catch (IllegalArgumentException e) {
      System.err.println(args[0] + ": " + e.getMessage());
      System.exit(1);
      return;
    }
    if (args.length == 2 && !phases.containsKey(args[1])) {
      System.err.println(
          "no phase '" + args[1] + "' in " + args[0] + "; it has " + phases.keySet());
      System.exit(1);
    }
    for (Phase p : phases.values()) {
      if (args.length == 1 || p.name.equals(args[1])) {
        p.print(System.out);
      }
    }
  }

  /** The file's phases, in the order they appear. */
  static Map<String, Phase> read(Path file) throws IOException {
    Map<String, Phase> phases = new LinkedHashMap<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String header = in.readLine();
      if (!OpLog.HEADER.equals(header)) {
        throw new IllegalArgumentException(
            "not an op log: the first line should be '" + OpLog.HEADER + "', got '" + header + "'");
      }
      int lineNo = 1;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lineNo++;
        if (line.isEmpty()) {
          continue;
        }
        String[] f = line.split(",", -1);
        if (f.length != 6) {
          throw new IllegalArgumentException(
              "line " + lineNo + ": expected 6 fields, got " + f.length + ": '" + line + "'");
        }
        try {
          phases
              .computeIfAbsent(f[0], Phase::new)
              .add(f[2], Long.parseLong(f[3]), Long.parseLong(f[4]), Integer.parseInt(f[5]));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "line " + lineNo + ": not a number (" + e.getMessage() + "): '" + line + "'");
        }
      }
    }
    return phases;
  }

  /** One phase's operations. */
  static final class Phase {
    final String name;
    private final Map<String, LongList> latencyByOp = new TreeMap<>();
    private final LongList starts = new LongList();
    private final LongList ends = new LongList(); // in the same order as starts
    private final LongList scanLatency = new LongList();
    private final LongList scanLength = new LongList();
    private long firstStart = Long.MAX_VALUE;
    private long[] sortedEnds; // null: not sorted since the last add

    Phase(String name) {
      this.name = name;
    }

    void add(String op, long startMicros, long latencyMicros, int length) {
      latencyByOp.computeIfAbsent(op, k -> new LongList()).add(latencyMicros);
      starts.add(startMicros);
      ends.add(startMicros + latencyMicros);
      sortedEnds = null;
      firstStart = Math.min(firstStart, startMicros);
      if (op.equals(Operation.SCAN.label())) {
        scanLatency.add(latencyMicros);
        scanLength.add(length);
      }
    }

    private long[] sortedEnds() {
      if (sortedEnds == null) {
        sortedEnds = ends.sorted();
      }
      return sortedEnds;
    }

    /**
     * The stretches longer than {@code micros} in which no operation finished: how many, how long
     * in all, and how many operations were in flight across a whole one (each of those took at
     * least that long, whatever its own work).
     */
    Stalls stalls(long micros) {
      long[] e = sortedEnds();
      LongList gapStarts = new LongList();
      LongList gapEnds = new LongList();
      long total = 0;
      for (int i = 1; i < e.length; i++) {
        if (e[i] - e[i - 1] > micros) {
          gapStarts.add(e[i - 1]);
          gapEnds.add(e[i]);
          total += e[i] - e[i - 1];
        }
      }
      long[] gs = gapStarts.toArray(); // sorted, since e is
      long[] ge = gapEnds.toArray();
      long[] st = starts.toArray();
      long[] en = ends.toArray();
      long inFlight = 0;
      for (int i = 0; i < st.length; i++) {
        int g = Arrays.binarySearch(gs, st[i]);
        g = g >= 0 ? g : -g - 1; // the first stretch starting at or after this operation
        if (g < gs.length && ge[g] <= en[i]) {
          inFlight++;
        }
      }
      return new Stalls(gs.length, total, inFlight);
    }

    /**
     * How many stretches longer than {@code micros} without a completion independent completions at
     * the same mean rate (a Poisson process) would have.
     */
    double poissonGapsLongerThan(long micros) {
      long[] e = sortedEnds();
      if (e.length < 2) {
        return 0;
      }
      double span = e[e.length - 1] - firstStart;
      double rate = e.length / span; // per microsecond
      return (e.length - 1) * Math.exp(-rate * micros);
    }

    /** Latency percentiles of scans by the rows they asked for: {from, to, count, p50, p99}. */
    List<long[]> scansByLength() {
      List<long[]> out = new ArrayList<>();
      long[] lengths = scanLength.toArray();
      if (lengths.length == 0) {
        return out;
      }
      long max = Arrays.stream(lengths).max().getAsLong();
      long band = Math.max(1, (max + 9) / 10);
      long[] latencies = scanLatency.toArray();
      for (long from = 1; from <= max; from += band) {
        LongList in = new LongList();
        for (int i = 0; i < lengths.length; i++) {
          if (lengths[i] >= from && lengths[i] < from + band) {
            in.add(latencies[i]);
          }
        }
        long[] s = in.sorted();
        if (s.length > 0) {
          out.add(
              new long[] {
                from, Math.min(from + band - 1, max), s.length, at(s, 0.50), at(s, 0.99)
              });
        }
      }
      return out;
    }

    void print(PrintStream out) {
      long[] e = sortedEnds();
      double seconds = e.length == 0 ? 0 : (e[e.length - 1] - firstStart) / 1e6;
      out.printf(
          Locale.ROOT,
          "phase %s: %,d operations in %.1f s (%,.0f/s)%n",
          name,
          e.length,
          seconds,
          seconds > 0 ? e.length / seconds : 0.0);
      for (Map.Entry<String, LongList> op : latencyByOp.entrySet()) {
        long[] s = op.getValue().sorted();
        out.printf(
            Locale.ROOT,
            "  %-18s %,9d  p50 %,7d us  p99 %,7d us%n",
            op.getKey(),
            s.length,
            at(s, 0.50),
            at(s, 0.99));
      }
      List<long[]> bands = scansByLength();
      if (!bands.isEmpty()) {
        out.println("  scans by rows asked for:");
        for (long[] b : bands) {
          out.printf(
              Locale.ROOT,
              "    %4d-%-4d %,9d  p50 %,7d us  p99 %,7d us%n",
              b[0],
              b[1],
              b[2],
              b[3],
              b[4]);
        }
      }
      out.println("  stretches with no operation finishing:");
      for (long g : GAP_MICROS) {
        Stalls st = stalls(g);
        out.printf(
            Locale.ROOT,
            "    > %2d ms: %,7d (independent completions at this rate: %,.0f), %,d ms in all;"
                + " %,d operations (%.2f%%) in flight across one%n",
            g / 1000,
            st.count(),
            poissonGapsLongerThan(g),
            st.micros() / 1000,
            st.inFlight(),
            e.length == 0 ? 0.0 : 100.0 * st.inFlight() / e.length);
      }
    }
  }

  /**
   * Stretches in which no operation finished: how many, microseconds inside them, and operations in
   * flight across a whole one.
   */
  record Stalls(long count, long micros, long inFlight) {}

  /** The value at quantile {@code q} of sorted values (nearest rank). */
  static long at(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    int i = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  /** A growable list of longs. */
  private static final class LongList {
    private long[] values = new long[1024];
    private int size;

    void add(long v) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = v;
    }

    long[] toArray() {
      return Arrays.copyOf(values, size);
    }

    long[] sorted() {
      long[] s = toArray();
      Arrays.sort(s);
      return s;
    }
  }
}
