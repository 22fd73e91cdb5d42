package dev.basalt.server.replication;

import dev.basalt.wal.WalPosition;

/**
 * The figures of one replication source, HBase's names (MetricsSource, ReplicationLoadSource):
 * written by the source's thread, read by load reports and metrics.
 */
public final class SourceStats {
  final String peerId;
  final String queue;
  final boolean recovered;
  final long startedAt = System.currentTimeMillis();
  volatile boolean running;
  volatile WalPosition position;
  volatile int sizeOfLogQueue = 1;
  volatile long editsRead;
  volatile long editsFiltered;
  volatile long logReadBytes;
  volatile long shippedBatches;
  volatile long shippedOps;
  volatile long shippedBytes;
  volatile long failedBatches;

  /** Write time of the newest edit shipped (HBase's timeStampOfLastShippedOp), 0: none yet. */
  volatile long lastShippedWriteTime;

  /** Write time of the newest edit read, shipped or not. */
  volatile long lastReadWriteTime;

  /** Whether everything read has been shipped and the log has nothing more now. */
  volatile boolean caughtUp;

  /** A serial peer's source waiting for another queue to ship a region's earlier edits. */
  volatile boolean heldForOrder;

  SourceStats(String peerId, String queue, boolean recovered) {
    this.peerId = peerId;
    this.queue = queue;
    this.recovered = recovered;
  }

  public String peerId() {
    return peerId;
  }

  public String queue() {
    return queue;
  }

  public boolean recovered() {
    return recovered;
  }

  public boolean running() {
    return running;
  }

  public long shippedOps() {
    return shippedOps;
  }

  public long shippedBatches() {
    return shippedBatches;
  }

  public long shippedBytes() {
    return shippedBytes;
  }

  public long failedBatches() {
    return failedBatches;
  }

  public long editsRead() {
    return editsRead;
  }

  public long editsFiltered() {
    return editsFiltered;
  }

  public int sizeOfLogQueue() {
    return sizeOfLogQueue;
  }

  public long lastShippedWriteTime() {
    return lastShippedWriteTime;
  }

  /** Where the source is in its log (null before its first read). */
  public WalPosition position() {
    return position;
  }

  void shipped(int ops, long bytes, long newestWriteTime) {
    shippedBatches++;
    shippedOps += ops;
    shippedBytes += bytes;
    lastShippedWriteTime = Math.max(lastShippedWriteTime, newestWriteTime);
    caughtUp = false;
  }

  void caughtUp() {
    caughtUp = true;
  }

  /**
   * HBase's ageOfLastShippedOp: ms between the newest shipped edit's write and now; 0 once the
   * source has caught up (HBase resets it to 0 when idle).
   */
  public long ageOfLastShippedOp(long now) {
    long last = lastShippedWriteTime;
    return caughtUp || last == 0 ? 0 : Math.max(0, now - last);
  }

  /**
   * HBase's replicationLag: how far behind the source is, 0 when caught up; else the age of the
   * oldest edit not yet known shipped, approximated by the newest shipped one's.
   */
  public long replicationLag(long now) {
    return caughtUp ? 0 : ageOfLastShippedOp(now);
  }
}
