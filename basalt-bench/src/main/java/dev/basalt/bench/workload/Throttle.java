package dev.basalt.bench.workload;

/**
 * Paces one worker thread to a target rate the way YCSB does: operation k (counting from 0) is due
 * at start + k / rate, and the worker waits until it is due. A worker that falls behind (the store
 * was slower than the rate) is not held back until it has caught up, so the average rate over the
 * run still meets the target when the store can.
 *
 * <p>Pure arithmetic over times given by the caller, so the pacing logic is testable without
 * sleeping. Not thread-safe: one per worker; the run's target is divided among the workers.
 */
final class Throttle {
  private final long startNanos;
  private final double nanosPerOp;
  private long issued;

  /**
   * @param opsPerSecond this worker's target; zero or less means unthrottled
   * @param startNanos when the first operation is due
   */
  Throttle(double opsPerSecond, long startNanos) {
    this.startNanos = startNanos;
    this.nanosPerOp = opsPerSecond > 0 ? 1e9 / opsPerSecond : 0;
  }

  static Throttle unlimited() {
    return new Throttle(0, 0);
  }

  boolean limited() {
    return nanosPerOp > 0;
  }

  /**
   * Counts one more operation and returns how long to wait at {@code nowNanos} before issuing it (0
   * when it is due or overdue).
   */
  long delayBeforeNext(long nowNanos) {
    if (nanosPerOp == 0) {
      return 0;
    }
    long due = startNanos + (long) (issued * nanosPerOp);
    issued++;
    return Math.max(0, due - nowNanos);
  }
}
