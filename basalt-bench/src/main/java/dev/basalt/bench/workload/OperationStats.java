package dev.basalt.bench.workload;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Latency and outcome counts per operation type for one phase, written by every worker without
 * locking (HdrHistogram {@link Recorder}s and {@link LongAdder}s) and sampled by one reader at a
 * time: the progress reporter takes interval histograms, which are also added to the totals the
 * phase reports.
 */
final class OperationStats {
  /** Latencies above this (microseconds) are recorded as this. */
  static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);

  private final Map<Operation, Recorder> recorders = new EnumMap<>(Operation.class);
  private final Map<Operation, Histogram> totals = new EnumMap<>(Operation.class);
  private final Map<Operation, LongAdder> errors = new EnumMap<>(Operation.class);
  private final Map<Operation, LongAdder> notFound = new EnumMap<>(Operation.class);
  private final LongAdder completed = new LongAdder();
  private long sampledCompleted;

  OperationStats() {
    for (Operation op : Operation.values()) {
      recorders.put(op, new Recorder(1, HIGHEST_MICROS, 3));
      totals.put(op, new Histogram(1, HIGHEST_MICROS, 3));
      errors.put(op, new LongAdder());
      notFound.put(op, new LongAdder());
    }
  }

  void record(Operation op, long micros) {
    recorders.get(op).recordValue(Math.max(1, Math.min(micros, HIGHEST_MICROS)));
  }

  void error(Operation op) {
    errors.get(op).increment();
  }

  void notFound(Operation op) {
    notFound.get(op).increment();
  }

  /** One top-level operation (the unit of throughput) finished. */
  void completed() {
    completed.increment();
  }

  long completedCount() {
    return completed.sum();
  }

  /** What happened since the previous sample; also folded into the totals. */
  synchronized Interval sample() {
    Map<Operation, Histogram> interval = new EnumMap<>(Operation.class);
    for (Operation op : Operation.values()) {
      Histogram h = recorders.get(op).getIntervalHistogram();
      totals.get(op).add(h);
      if (h.getTotalCount() > 0) {
        interval.put(op, h);
      }
    }
    long now = completed.sum();
    long delta = now - sampledCompleted;
    sampledCompleted = now;
    return new Interval(delta, interval);
  }

  /** Totals per operation type that was used, in enum order; call after a final {@link #sample}. */
  synchronized List<OpResult> results() {
    List<OpResult> out = new ArrayList<>();
    for (Operation op : Operation.values()) {
      Histogram h = totals.get(op);
      long errs = errors.get(op).sum();
      if (h.getTotalCount() == 0 && errs == 0) {
        continue;
      }
      out.add(
          new OpResult(
              op.label(),
              h.getTotalCount(),
              errs,
              notFound.get(op).sum(),
              h.getTotalCount() == 0 ? 0 : h.getMean(),
              h.getValueAtPercentile(50),
              h.getValueAtPercentile(95),
              h.getValueAtPercentile(99),
              h.getValueAtPercentile(99.9),
              h.getMaxValue()));
    }
    return out;
  }

  /**
   * @param completed top-level operations finished in the interval
   */
  record Interval(long completed, Map<Operation, Histogram> histograms) {}
}
