package dev.basalt.db;

import dev.basalt.region.Region;
import dev.basalt.region.RegionSplitPoint;
import dev.basalt.schema.TableDescriptor;

/**
 * When a region splits by itself, as HBase's ConstantSizeRegionSplitPolicy decides: its largest
 * store holds more than the table's MAX_FILESIZE (or {@code hbase.hregion.max.filesize}), it reads
 * no parent's files any more (a daughter splits again only once compacted), and its table allows
 * splits ({@code SPLIT_ENABLED}).
 */
final class SplitPolicy {
  private SplitPolicy() {}

  static boolean wantsSplit(Region region, TableDescriptor table, long defaultMaxFileSize) {
    if (region.isClosed()) {
      return false;
    }
    String splitEnabled = table.getValue(TableDescriptor.SPLIT_ENABLED);
    if (splitEnabled != null && !Boolean.parseBoolean(splitEnabled)) {
      return false;
    }
    long max = table.getMaxFileSize() > 0 ? table.getMaxFileSize() : defaultMaxFileSize;
    return RegionSplitPoint.largestStoreSize(region) > max && !region.hasReferences();
  }
}
