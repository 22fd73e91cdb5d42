package dev.basalt.util;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told to, for tests of TTL, timestamps and timeouts. Both readings
 * move together: {@link #nanoTime()} is the millisecond reading scaled to nanoseconds.
 */
public final class ManualClock implements Clock {
  private final AtomicLong millis;

  public ManualClock(long startMillis) {
    this.millis = new AtomicLong(startMillis);
  }

  @Override
  public long currentTimeMillis() {
    return millis.get();
  }

  @Override
  public long nanoTime() {
    return millis.get() * 1_000_000L;
  }

  public void set(long newMillis) {
    millis.set(newMillis);
  }

  /** Moves the clock forward and returns the new reading. */
  public long advance(long deltaMillis) {
    return millis.addAndGet(deltaMillis);
  }
}
