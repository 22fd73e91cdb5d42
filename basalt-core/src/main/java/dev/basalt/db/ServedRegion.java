package dev.basalt.db;

import dev.basalt.region.Region;
import dev.basalt.schema.RegionInfo;

/**
 * An open region as the database serves it. (The region counts its own read and write requests, so
 * that requests reaching it directly, as the region server's do, count as well.) Thread-safe.
 */
final class ServedRegion {
  private final Region region;

  ServedRegion(Region region) {
    this.region = region;
  }

  Region region() {
    return region;
  }

  RegionInfo info() {
    return region.getRegionInfo();
  }

  @Override
  public String toString() {
    return region.toString();
  }
}
