package dev.basalt.server.regionserver;

import dev.basalt.db.RegionMetrics;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionLoad;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier.RegionSpecifierType;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * A region's figures as HBase reports them (RegionLoad in a server's load, GetRegionLoad): named by
 * its full region name, sizes in whole MB, request counts since the region opened. What needs the
 * open region (its store count, compaction state) the caller adds.
 */
public final class RegionLoads {
  private static final long MB = 1024 * 1024;

  private RegionLoads() {}

  public static RegionLoad.Builder of(RegionMetrics m) {
    return RegionLoad.newBuilder()
        .setRegionSpecifier(
            RegionSpecifier.newBuilder()
                .setType(RegionSpecifierType.REGION_NAME)
                .setValue(ByteString.copyFrom(m.getRegionInfo().getRegionName())))
        .setStorefiles(m.getStoreFileCount())
        .setStorefileSizeMB(toMb(m.getStoreFileSize()))
        .setMemStoreSizeMB(toMb(m.getMemstoreSize()))
        .setReadRequestsCount(m.getReadRequestCount())
        .setWriteRequestsCount(m.getWriteRequestCount());
  }

  /** Whole megabytes, rounded down. */
  public static int toMb(long bytes) {
    return (int) Math.min(Integer.MAX_VALUE, bytes / MB);
  }
}
