package dev.basalt.server.regionserver;

import dev.basalt.ops.Scan;
import dev.basalt.region.RegionScanner;
import dev.basalt.util.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The region server's open scanners, by the id the client quotes on every call after the open. Each
 * has a lease: a scanner idle for longer than the lease period (HBase's {@code
 * hbase.client.scanner.timeout.period}, 60 s by default) is closed, and later calls for it get
 * {@code UnknownScannerException}, upon which the client reopens from its last row.
 *
 * <p>Ids of scanners the server closed itself (region exhausted, row limit reached, lease expired)
 * are remembered for a while, because the client still sends a close for them; HBase answers such a
 * close with an empty success, and so do we (see {@link #wasClosed}).
 *
 * <p>Thread-safe. Calls for one scanner are serialised by the caller through {@link OpenScanner}'s
 * monitor.
 */
final class ScannerRegistry {
  /** How many closed ids are remembered; older ones are forgotten first. */
  private static final int CLOSED_IDS_KEPT = 10_000;

  private final Map<Long, OpenScanner> open = new ConcurrentHashMap<>();
  private final Map<Long, Boolean> recentlyClosed =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
          return size() > CLOSED_IDS_KEPT;
        }
      };
  private final AtomicLong nextId;
  private final Clock clock;
  private final long leaseMillis;

  /**
   * @param firstId where ids start; servers start from their start time so that ids of a restarted
   *     server do not repeat those its clients may still hold
   */
  ScannerRegistry(Clock clock, long leaseMillis, long firstId) {
    this.clock = clock;
    this.leaseMillis = leaseMillis;
    this.nextId = new AtomicLong(firstId);
  }

  long leaseMillis() {
    return leaseMillis;
  }

  OpenScanner register(RegionScanner scanner, Scan scan, byte[] regionName, int rowLimit) {
    long id = nextId.incrementAndGet();
    OpenScanner s = new OpenScanner(id, scanner, scan, regionName, rowLimit, clock);
    open.put(id, s);
    return s;
  }

  /** The open scanner with this id, or null (never opened, closed, or expired). */
  OpenScanner get(long id) {
    return open.get(id);
  }

  /** Closes and forgets a scanner; its id is remembered as closed by the server. */
  void close(OpenScanner s) {
    if (open.remove(s.id(), s)) {
      synchronized (recentlyClosed) {
        recentlyClosed.put(s.id(), Boolean.TRUE);
      }
    }
    s.closeScanner();
  }

  /** Whether the server itself closed a scanner with this id recently. */
  boolean wasClosed(long id) {
    synchronized (recentlyClosed) {
      return recentlyClosed.containsKey(id);
    }
  }

  /**
   * Closes scanners idle for longer than the lease period.
   *
   * @return how many were closed
   */
  int expireIdle() {
    long now = clock.currentTimeMillis();
    List<OpenScanner> expired = new ArrayList<>();
    for (Iterator<OpenScanner> it = open.values().iterator(); it.hasNext(); ) {
      OpenScanner s = it.next();
      if (!s.inUse() && now - s.lastAccess() > leaseMillis) {
        expired.add(s);
      }
    }
    for (OpenScanner s : expired) {
      close(s);
    }
    return expired.size();
  }

  int openCount() {
    return open.size();
  }

  /** Closes every scanner (server shutdown). */
  void closeAll() {
    for (OpenScanner s : new ArrayList<>(open.values())) {
      close(s);
    }
  }
}
