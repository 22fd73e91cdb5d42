package dev.basalt.db;

import dev.basalt.region.Region;
import dev.basalt.schema.RegionInfo;
import java.util.concurrent.atomic.LongAdder;

/**
 * An open region as the database serves it: the region and the request counts the database keeps
 * for it (reads: gets and scanned rows; writes: mutations). Thread-safe.
 */
final class ServedRegion {
  private final Region region;
  private final LongAdder reads = new LongAdder();
  private final LongAdder writes = new LongAdder();

  ServedRegion(Region region) {
    this.region = region;
  }

  Region region() {
    return region;
  }

  RegionInfo info() {
    return region.getRegionInfo();
  }

  void countReads(long n) {
    reads.add(n);
  }

  void countWrites(long n) {
    writes.add(n);
  }

  long readRequests() {
    return reads.sum();
  }

  long writeRequests() {
    return writes.sum();
  }

  @Override
  public String toString() {
    return region.toString();
  }
}
