package dev.basalt.server.regionserver;

import dev.basalt.server.cluster.ServerName;
import dev.basalt.util.Clock;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Where regions closed here for a move went, for two minutes after the close (HBase's {@code
 * TIMEOUT_REGION_MOVED}): a client still calling this server for such a region is told the new
 * location (RegionMovedException) and goes there without reading hbase:meta. Thread-safe.
 */
final class MovedRegions {
  static final long TIMEOUT_MILLIS = TimeUnit.MINUTES.toMillis(2);

  /** Where a region went and the sequence number the client caches with that location. */
  record Moved(ServerName to, long locationSeqNum, long expiresAtNanos) {}

  private final Clock clock;
  private final ConcurrentHashMap<String, Moved> byEncodedName = new ConcurrentHashMap<>();

  MovedRegions(Clock clock) {
    this.clock = clock;
  }

  /** Remembers a move; records past their time are dropped on the way (there are few). */
  void record(String encodedName, ServerName to, long locationSeqNum) {
    long now = clock.nanoTime();
    byEncodedName.values().removeIf(m -> now - m.expiresAtNanos() >= 0);
    byEncodedName.put(
        encodedName,
        new Moved(to, locationSeqNum, now + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS)));
  }

  /** The region's move, or null when there was none in the last two minutes. */
  Moved get(String encodedName) {
    Moved m = byEncodedName.get(encodedName);
    if (m != null && clock.nanoTime() - m.expiresAtNanos() >= 0) {
      byEncodedName.remove(encodedName, m);
      return null;
    }
    return m;
  }

  /** Forgets a region's move (it opens here again). */
  void forget(String encodedName) {
    byEncodedName.remove(encodedName);
  }
}
