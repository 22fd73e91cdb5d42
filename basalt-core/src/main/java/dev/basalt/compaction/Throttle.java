package dev.basalt.compaction;

import dev.basalt.util.Clock;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;

/**
 * Limits how fast a compaction writes, so that it does not starve foreground reads and writes of
 * disk bandwidth: after each chunk of output it sleeps long enough to keep the average rate at most
 * the limit. Not thread-safe; one per compaction.
 */
public final class Throttle {
  /** How the throttle waits; tests substitute one that moves a manual clock. */
  @FunctionalInterface
  public interface Sleeper {
    void sleepNanos(long nanos) throws InterruptedException;
  }

  private final long bytesPerSecond;
  private final Clock clock;
  private final Sleeper sleeper;
  private final long start;
  private long bytes;

  /**
   * @param bytesPerSecond the limit; 0 or less means none
   */
  public Throttle(long bytesPerSecond, Clock clock) {
    this(bytesPerSecond, clock, TimeUnit.NANOSECONDS::sleep);
  }

  public Throttle(long bytesPerSecond, Clock clock, Sleeper sleeper) {
    this.bytesPerSecond = bytesPerSecond;
    this.clock = clock;
    this.sleeper = sleeper;
    this.start = clock.nanoTime();
  }

  /** Records {@code n} more bytes written and waits if the rate is above the limit. */
  public void wrote(long n) throws InterruptedIOException {
    bytes += n;
    if (bytesPerSecond <= 0) {
      return;
    }
    long due = start + (long) (bytes * 1e9 / bytesPerSecond);
    long ahead = due - clock.nanoTime();
    if (ahead > TimeUnit.MILLISECONDS.toNanos(1)) {
      try {
        sleeper.sleepNanos(ahead);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("compaction interrupted while throttled");
      }
    }
  }

  public long bytes() {
    return bytes;
  }
}
