package dev.basalt.server.regionserver;

import dev.basalt.ops.Scan;
import dev.basalt.region.RegionScanner;
import dev.basalt.util.Clock;

/**
 * One open scanner: the region scanner and the client-visible state HBase keeps beside it, the
 * expected {@code next_call_seq}, the rows still allowed by the scan's limit, and the last access
 * for the lease. Calls for it are serialised with {@code synchronized (openScanner)}.
 */
final class OpenScanner {
  private final long id;
  private final RegionScanner scanner;
  private final Scan scan;
  private final byte[] regionName;
  private final Clock clock;
  private long nextCallSeq;
  private int rowsLeft;
  private volatile long lastAccess;
  private volatile boolean inUse;

  OpenScanner(
      long id, RegionScanner scanner, Scan scan, byte[] regionName, int rowLimit, Clock clock) {
    this.id = id;
    this.scanner = scanner;
    this.scan = scan;
    this.regionName = regionName;
    this.rowsLeft = rowLimit;
    this.clock = clock;
    this.lastAccess = clock.currentTimeMillis();
  }

  long id() {
    return id;
  }

  RegionScanner scanner() {
    return scanner;
  }

  Scan scan() {
    return scan;
  }

  byte[] regionName() {
    return regionName;
  }

  long nextCallSeq() {
    return nextCallSeq;
  }

  void advanceCallSeq() {
    nextCallSeq++;
  }

  int rowsLeft() {
    return rowsLeft;
  }

  void rowReturned() {
    rowsLeft--;
  }

  long lastAccess() {
    return lastAccess;
  }

  boolean inUse() {
    return inUse;
  }

  /** Marks the start of a call (the lease cannot expire during it). */
  void begin() {
    inUse = true;
    lastAccess = clock.currentTimeMillis();
  }

  /** Marks the end of a call; the lease runs from now. */
  void end() {
    lastAccess = clock.currentTimeMillis();
    inUse = false;
  }

  void closeScanner() {
    scanner.close();
  }
}
