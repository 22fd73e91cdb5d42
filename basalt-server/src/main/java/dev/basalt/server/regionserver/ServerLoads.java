package dev.basalt.server.regionserver;

import dev.basalt.db.RegionMetrics;
import dev.basalt.region.Region;
import dev.basalt.server.replication.ReplicationLoad;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionLoad;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ServerLoad;

/**
 * The load a region server reports to the master every interval (RegionServerReport): one
 * RegionLoad per online region, named by its full region name, with HBase's units (sizes in whole
 * MB, counts since the region opened here), the server's request count (total, and since the last
 * report) and its heap. The master places regions by the region list and shows the figures in
 * {@code status}. Used by the report thread only.
 */
public final class ServerLoads implements Supplier<ServerLoad> {
  private final HostedRegions regions;
  private final ReplicationLoad replication;
  private long lastTotal;
  private long lastReportMillis = System.currentTimeMillis();

  public ServerLoads(HostedRegions regions, ReplicationLoad replication) {
    this.regions = regions;
    this.replication = replication;
  }

  @Override
  public ServerLoad get() {
    long start = lastReportMillis;
    long now = System.currentTimeMillis();
    ServerLoad.Builder b = ServerLoad.newBuilder();
    long total = 0;
    for (RegionMetrics m : regions.regionMetrics()) {
      total += m.getReadRequestCount() + m.getWriteRequestCount();
      b.addRegionLoads(regionLoad(m));
    }
    Runtime rt = Runtime.getRuntime();
    b.setTotalNumberOfRequests(total)
        .setNumberOfRequests(Math.max(0, total - lastTotal))
        .setUsedHeapMB(RegionLoads.toMb(rt.totalMemory() - rt.freeMemory()))
        .setMaxHeapMB(RegionLoads.toMb(rt.maxMemory()))
        .setReportStartTime(start)
        .setReportEndTime(now)
        .setInfoServerPort(0);
    replication.addTo(b);
    lastTotal = total;
    lastReportMillis = now;
    return b.build();
  }

  private RegionLoad regionLoad(RegionMetrics m) {
    RegionLoad.Builder b = RegionLoads.of(m);
    Region region = regions.online(m.getRegionInfo().getRegionName());
    if (region != null) { // else closed since the figures were taken
      b.setStores(region.getTableDescriptor().getColumnFamilyCount());
    }
    return b.build();
  }
}
