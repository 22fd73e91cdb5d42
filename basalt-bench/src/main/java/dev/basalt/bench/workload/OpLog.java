package dev.basalt.bench.workload;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Every measured operation of one phase, kept for {@code --op-log}: when it started, how long it
 * took, and for a scan how many rows it asked for. The histograms say how long the tail is; this
 * says what it is made of (which operations, whether long scans or stalls that hit every thread at
 * once; see {@link OpLogSummary}).
 *
 * <p>Each worker thread appends to its own {@link Writer} (three longs per operation, no lock); the
 * phase runner writes them all out after the phase. The file is CSV with one header line:
 *
 * <pre>
 * column        meaning
 * phase         the phase's name (load, A, ..., reload)
 * thread        the worker's number within the phase
 * operation     READ, UPDATE, INSERT, SCAN or READ-MODIFY-WRITE (the top-level operation)
 * start_us      when it started, microseconds after the phase started (warm-up included)
 * latency_us    how long it took, microseconds
 * scan_length   the rows a scan asked for; 0 for other operations
 * </pre>
 */
final class OpLog {
  static final String HEADER = "phase,thread,operation,start_us,latency_us,scan_length";

  private final List<Writer> writers = new ArrayList<>();

  /** A new writer for one worker thread. */
  synchronized Writer writer() {
    Writer w = new Writer();
    writers.add(w);
    return w;
  }

  /**
   * Appends this phase's operations to {@code file}, after a header when {@code first} (which
   * replaces what the file held).
   */
  synchronized void appendTo(Path file, boolean first, String phase, long phaseStartNanos)
      throws IOException {
    StandardOpenOption mode =
        first ? StandardOpenOption.TRUNCATE_EXISTING : StandardOpenOption.APPEND;
    if (first && file.getParent() != null) {
      Files.createDirectories(file.getParent());
    }
    try (BufferedWriter out =
        Files.newBufferedWriter(
            file,
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            mode)) {
      if (first) {
        out.write(HEADER);
        out.write('\n');
      }
      Operation[] ops = Operation.values();
      StringBuilder line = new StringBuilder();
      for (int t = 0; t < writers.size(); t++) {
        Writer w = writers.get(t);
        for (int i = 0; i < w.size; i += 3) {
          long packed = w.entries[i + 2];
          line.setLength(0);
          line.append(phase)
              .append(',')
              .append(t)
              .append(',')
              .append(ops[(int) (packed & 0xff)].label())
              .append(',')
              .append((w.entries[i] - phaseStartNanos) / 1000)
              .append(',')
              .append(w.entries[i + 1])
              .append(',')
              .append(packed >>> 8)
              .append('\n');
          out.append(line);
        }
      }
    }
  }

  /** One worker's operations. Not thread-safe: one thread appends, the runner reads after. */
  static final class Writer {
    private long[] entries = new long[3 * 1024];
    private int size;

    void add(long startNanos, Operation op, long latencyMicros, int scanLength) {
      if (size + 3 > entries.length) {
        entries = Arrays.copyOf(entries, entries.length * 2);
      }
      entries[size] = startNanos;
      entries[size + 1] = latencyMicros;
      entries[size + 2] = ((long) scanLength << 8) | op.ordinal();
      size += 3;
    }
  }
}
