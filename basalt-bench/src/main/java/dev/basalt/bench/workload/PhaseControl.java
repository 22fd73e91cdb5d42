package dev.basalt.bench.workload;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the workers of one phase share: whether operations are being measured yet (after warm-up),
 * how many measured operations remain, whether the phase was stopped (time limit, or all operations
 * handed out), and the first error seen. Thread-safe.
 */
final class PhaseControl {
  /** What a worker should do next. */
  enum Ticket {
    /** Do an operation and do not record it. */
    WARMUP,
    /** Do an operation and record it. */
    MEASURED,
    /** Stop. */
    STOP
  }

  private final AtomicLong remaining;
  private final AtomicReference<Throwable> firstError = new AtomicReference<>();
  private volatile boolean measuring;
  private volatile boolean stopped;

  /**
   * @param operations measured operations the phase performs in all
   */
  PhaseControl(long operations, boolean warmup) {
    this.remaining = new AtomicLong(operations);
    this.measuring = !warmup;
  }

  Ticket next() {
    if (stopped) {
      return Ticket.STOP;
    }
    if (!measuring) {
      return Ticket.WARMUP;
    }
    if (remaining.getAndDecrement() > 0) {
      return Ticket.MEASURED;
    }
    stopped = true;
    return Ticket.STOP;
  }

  void startMeasuring() {
    measuring = true;
  }

  boolean measuring() {
    return measuring;
  }

  void stop() {
    stopped = true;
  }

  boolean stopped() {
    return stopped;
  }

  void error(Throwable t) {
    firstError.compareAndSet(null, t);
  }

  Throwable firstError() {
    return firstError.get();
  }
}
