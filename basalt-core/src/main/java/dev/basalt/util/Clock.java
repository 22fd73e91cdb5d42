package dev.basalt.util;

/**
 * The source of time for engine code: server-assigned timestamps, TTL expiry, lock timeouts. Engine
 * code never calls {@code System.currentTimeMillis()} directly, so tests can drive time.
 * Implementations are thread-safe.
 */
public interface Clock {

  /** Wall-clock milliseconds since the epoch; used for cell timestamps and TTL. */
  long currentTimeMillis();

  /** A monotonic nanosecond counter; used for timeouts and durations only. */
  long nanoTime();

  /** The real clock. */
  static Clock system() {
    return SystemClock.INSTANCE;
  }
}
