package dev.basalt.ops;

/**
 * A half-open range of timestamps {@code [min, max)}. Immutable.
 *
 * <p>Layout-free value object; the default is all time, {@code [0, Long.MAX_VALUE)}.
 */
public final class TimeRange {
  private static final TimeRange ALL = new TimeRange(0, Long.MAX_VALUE);

  private final long min;
  private final long max;

  private TimeRange(long min, long max) {
    this.min = min;
    this.max = max;
  }

  public static TimeRange allTime() {
    return ALL;
  }

  /**
   * {@code [min, max)}.
   *
   * @throws IllegalArgumentException when a bound is negative or max &lt; min
   */
  public static TimeRange between(long min, long max) {
    if (min < 0 || max < 0) {
      throw new IllegalArgumentException(
          "time range bounds cannot be negative: [" + min + ", " + max + ")");
    }
    if (max < min) {
      throw new IllegalArgumentException("time range max " + max + " is smaller than min " + min);
    }
    return min == 0 && max == Long.MAX_VALUE ? ALL : new TimeRange(min, max);
  }

  /** Exactly one timestamp: {@code [ts, ts + 1)}. */
  public static TimeRange at(long ts) {
    if (ts < 0 || ts == Long.MAX_VALUE) {
      throw new IllegalArgumentException("invalid timestamp for a time range: " + ts);
    }
    return new TimeRange(ts, ts + 1);
  }

  public long getMin() {
    return min;
  }

  public long getMax() {
    return max;
  }

  public boolean isAllTime() {
    return min == 0 && max == Long.MAX_VALUE;
  }

  public boolean withinTimeRange(long ts) {
    return ts >= min && ts < max;
  }

  /** True when {@code ts} is in the range or newer than it. */
  public boolean withinOrAfterTimeRange(long ts) {
    return ts >= min;
  }

  /** -1 when {@code ts} is older than the range, 0 inside it, 1 when newer. */
  public int compare(long ts) {
    if (ts < min) {
      return -1;
    }
    return ts < max ? 0 : 1;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TimeRange && ((TimeRange) o).min == min && ((TimeRange) o).max == max;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(min) * 31 + Long.hashCode(max);
  }

  @Override
  public String toString() {
    return "[" + min + ", " + max + ")";
  }
}
