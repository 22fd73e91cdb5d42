package dev.basalt.server.replication;

/**
 * A peer's bandwidth limit for one source: each shipment may start only once the bytes shipped
 * before it have had their time at the limit, so the average rate stays at or under it while a
 * single large batch still goes out whole. Used by one source thread.
 */
final class ShipThrottle {
  private long nextAllowedMillis;

  /**
   * How long to wait before shipping {@code bytes} at {@code now}, and books them.
   *
   * @param bytesPerSecond the limit; 0 or less: none
   */
  long delayBefore(long bytes, long bytesPerSecond, long now) {
    if (bytesPerSecond <= 0) {
      return 0;
    }
    long start = Math.max(now, nextAllowedMillis);
    nextAllowedMillis = start + bytes * 1000L / bytesPerSecond;
    return start - now;
  }
}
