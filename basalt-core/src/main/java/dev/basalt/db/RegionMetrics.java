package dev.basalt.db;

import dev.basalt.schema.RegionInfo;

/**
 * Figures of one open region at one moment (what the server exports per region): requests served
 * since the region opened (reads: gets and scanned rows; writes: mutations), its store files, its
 * memstore and the compactions queued for it. Immutable.
 */
public final class RegionMetrics {
  private final RegionInfo region;
  private final long readRequestCount;
  private final long writeRequestCount;
  private final int storeFileCount;
  private final long storeFileSize;
  private final long memstoreSize;
  private final int compactionQueueLength;

  RegionMetrics(
      RegionInfo region,
      long readRequestCount,
      long writeRequestCount,
      int storeFileCount,
      long storeFileSize,
      long memstoreSize,
      int compactionQueueLength) {
    this.region = region;
    this.readRequestCount = readRequestCount;
    this.writeRequestCount = writeRequestCount;
    this.storeFileCount = storeFileCount;
    this.storeFileSize = storeFileSize;
    this.memstoreSize = memstoreSize;
    this.compactionQueueLength = compactionQueueLength;
  }

  public RegionInfo getRegionInfo() {
    return region;
  }

  /** Gets and scanned rows served since the region opened. */
  public long getReadRequestCount() {
    return readRequestCount;
  }

  /** Mutations (each operation of a batch counts) since the region opened. */
  public long getWriteRequestCount() {
    return writeRequestCount;
  }

  /** Store files of every family. */
  public int getStoreFileCount() {
    return storeFileCount;
  }

  /** Bytes of the store files of every family. */
  public long getStoreFileSize() {
    return storeFileSize;
  }

  /** Heap bytes of the region's memstores (including any being flushed). */
  public long getMemstoreSize() {
    return memstoreSize;
  }

  /** Compactions of the region waiting in the database's queues. */
  public int getCompactionQueueLength() {
    return compactionQueueLength;
  }

  @Override
  public String toString() {
    return "RegionMetrics{"
        + region.getEncodedName()
        + ", reads="
        + readRequestCount
        + ", writes="
        + writeRequestCount
        + ", storeFiles="
        + storeFileCount
        + ", storeFileSize="
        + storeFileSize
        + ", memstore="
        + memstoreSize
        + ", compactionQueue="
        + compactionQueueLength
        + "}";
  }
}
