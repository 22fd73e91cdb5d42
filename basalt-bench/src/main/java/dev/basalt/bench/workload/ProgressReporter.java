package dev.basalt.bench.workload;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Prints one progress line per interval while a phase runs: elapsed time, operations so far and in
 * the last interval, and each operation type's p50/p99 over the last interval. Called by the phase
 * runner's status thread.
 */
final class ProgressReporter {
  private final PrintStream out;
  private final String prefix;
  private final long startNanos;
  private long lastNanos;

  ProgressReporter(PrintStream out, String label, String phase, long startNanos) {
    this.out = out;
    this.prefix = "[" + label + " " + phase + "]";
    this.startNanos = startNanos;
    this.lastNanos = startNanos;
  }

  void report(PhaseControl control, OperationStats stats, long nowNanos) {
    double elapsed = (nowNanos - startNanos) / 1e9;
    if (!control.measuring()) {
      out.printf(Locale.ROOT, "%s %6.0f s  warming up%n", prefix, elapsed);
      lastNanos = nowNanos;
      return;
    }
    OperationStats.Interval interval = stats.sample();
    double seconds = Math.max(1e-9, (nowNanos - lastNanos) / 1e9);
    lastNanos = nowNanos;
    out.println(line(prefix, elapsed, stats.completedCount(), interval, seconds));
  }

  static String line(
      String prefix,
      double elapsedSeconds,
      long totalOps,
      OperationStats.Interval interval,
      double intervalSeconds) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "%s %6.0f s  %,d ops  %,.0f ops/s",
            prefix,
            elapsedSeconds,
            totalOps,
            interval.completed() / intervalSeconds));
    for (Map.Entry<Operation, Histogram> e : interval.histograms().entrySet()) {
      Histogram h = e.getValue();
      sb.append(
          String.format(
              Locale.ROOT,
              "  %s p50 %,d p99 %,d us",
              e.getKey().label(),
              h.getValueAtPercentile(50),
              h.getValueAtPercentile(99)));
    }
    return sb.toString();
  }
}
