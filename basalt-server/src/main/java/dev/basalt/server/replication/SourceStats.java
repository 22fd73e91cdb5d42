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

  /** Write time of the first edit of the batch being shipped, 0 when none is. */
  volatile long pendingWriteTime;

  /** At the last shipment, the age of the newest edit it carried. */
  volatile long ageAtLastShip;

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

  /** A batch whose first edit was written at {@code firstWriteTime} is being shipped. */
  void reading(long firstWriteTime) {
    pendingWriteTime = firstWriteTime;
    caughtUp = false;
  }

  /** The batch is done (shipped, or nothing in it was for the peer). */
  void read(long lastWriteTime) {
    lastReadWriteTime = lastWriteTime;
    pendingWriteTime = 0;
  }

  void shipped(int ops, long bytes, long newestWriteTime) {
    shippedBatches++;
    shippedOps += ops;
    shippedBytes += bytes;
    lastShippedWriteTime = Math.max(lastShippedWriteTime, newestWriteTime);
    ageAtLastShip = Math.max(0, System.currentTimeMillis() - newestWriteTime);
  }

  /** Everything read has shipped and the log has nothing more now. */
  void caughtUp() {
    caughtUp = true;
  }

  /**
   * HBase's ageOfLastShippedOp: at the last shipment, how old the newest edit it carried was; 0
   * once the source has caught up (HBase resets it when idle).
   */
  public long ageOfLastShippedOp(long now) {
    return caughtUp ? 0 : ageAtLastShip;
  }

  /**
   * HBase's replicationLag: how long the oldest edit not yet shipped has waited (it grows while a
   * peer is down); 0 when nothing waits.
   */
  public long replicationLag(long now) {
    long pending = pendingWriteTime;
    return pending == 0 ? 0 : Math.max(0, now - pending);
  }

  /** Write time of the next edit to ship, or of the last one read when nothing waits. */
  long nextToReplicate() {
    long pending = pendingWriteTime;
    return pending != 0 ? pending : lastReadWriteTime;
  }
}
