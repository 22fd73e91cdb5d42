package dev.basalt.server.master;

import dev.basalt.db.Database;
import dev.basalt.db.RegionMetrics;
import dev.basalt.db.TableNotFoundException;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ClusterInfo;
import dev.basalt.server.protocol.SchemaCodec;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterIdProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ClusterStatus;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.LiveServerInfo;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.Option;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionLoad;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionStatesCount;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ServerLoad;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.TableRegionStatesCount;
import org.apache.hadoop.hbase.shaded.protobuf.generated.FSProtos.HBaseVersionFileContent;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetClusterStatusRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetClusterStatusResponse;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * {@code GetClusterStatus}: the cluster as {@code Admin.getClusterMetrics} shows it. Basalt has one
 * live region server serving every open region and no backup, dead or unknown servers, no regions
 * in transition and no balancer. The parts the request's options name are filled; no option means
 * all of them (HBase's rule, kept for old clients). Sizes are whole MB rounded down, as HBase
 * reports them. Stateless.
 */
final class ClusterStatusReport {
  private static final long MB = 1024 * 1024;

  private final Database db;
  private final Supplier<ClusterInfo> cluster;

  ClusterStatusReport(Database db, Supplier<ClusterInfo> cluster) {
    this.db = db;
    this.cluster = cluster;
  }

  GetClusterStatusResponse status(GetClusterStatusRequest q) {
    EnumSet<Option> options =
        q.getOptionsCount() == 0 ? EnumSet.allOf(Option.class) : EnumSet.copyOf(q.getOptionsList());
    ClusterInfo info = cluster.get();
    ClusterStatus.Builder b = ClusterStatus.newBuilder();
    if (options.contains(Option.HBASE_VERSION)) {
      b.setHbaseVersion(HBaseVersionFileContent.newBuilder().setVersion(info.version()));
    }
    if (options.contains(Option.CLUSTER_ID)) {
      b.setClusterId(ClusterIdProtos.ClusterId.newBuilder().setClusterId(info.clusterId()));
    }
    if (options.contains(Option.LIVE_SERVERS)) {
      b.addLiveServers(
          LiveServerInfo.newBuilder()
              .setServer(info.regionServer().toProto())
              .setServerLoad(serverLoad()));
    }
    if (options.contains(Option.MASTER)) {
      b.setMaster(info.master().toProto());
    }
    if (options.contains(Option.BALANCER_ON)) {
      b.setBalancerOn(false);
    }
    if (options.contains(Option.SERVERS_NAME)) {
      b.addServersName(info.regionServer().toProto());
    }
    if (options.contains(Option.TABLE_TO_REGIONS_COUNT)) {
      addRegionCounts(b);
    }
    return GetClusterStatusResponse.newBuilder().setClusterStatus(b).build();
  }

  private ServerLoad serverLoad() {
    ServerLoad.Builder load = ServerLoad.newBuilder();
    Map<TableName, Integer> families = new HashMap<>();
    long requests = 0;
    for (RegionMetrics m : db.getRegionMetrics()) {
      TableName t = m.getRegionInfo().getTable();
      int stores = families.computeIfAbsent(t, this::familyCount);
      requests += m.getReadRequestCount() + m.getWriteRequestCount();
      load.addRegionLoads(
          RegionLoad.newBuilder()
              .setRegionSpecifier(
                  RegionSpecifier.newBuilder()
                      .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
                      .setValue(ByteString.copyFrom(m.getRegionInfo().getRegionName())))
              .setStores(stores)
              .setStorefiles(m.getStoreFileCount())
              .setStorefileSizeMB(toMb(m.getStoreFileSize()))
              .setMemStoreSizeMB(toMb(m.getMemstoreSize()))
              .setReadRequestsCount(m.getReadRequestCount())
              .setWriteRequestsCount(m.getWriteRequestCount()));
    }
    Runtime rt = Runtime.getRuntime();
    return load.setTotalNumberOfRequests(requests)
        .setUsedHeapMB(toMb(rt.totalMemory() - rt.freeMemory()))
        .setMaxHeapMB(toMb(rt.maxMemory()))
        .build();
  }

  private int familyCount(TableName t) {
    try {
      return db.getDescriptor(t).getColumnFamilyCount();
    } catch (TableNotFoundException deletedMeanwhile) {
      return 0;
    }
  }

  /** Per table: all its regions open while it is enabled, all closed otherwise. */
  private void addRegionCounts(ClusterStatus.Builder b) {
    for (TableDescriptor d : db.listTables()) {
      TableName t = d.getTableName();
      int total;
      boolean enabled;
      try {
        total = db.getRegions(t).size();
        enabled = db.isTableEnabled(t);
      } catch (TableNotFoundException deletedMeanwhile) {
        continue;
      }
      b.addTableRegionStatesCount(
          TableRegionStatesCount.newBuilder()
              .setTableName(SchemaCodec.toProto(t))
              .setRegionStatesCount(
                  RegionStatesCount.newBuilder()
                      .setOpenRegions(enabled ? total : 0)
                      .setClosedRegions(enabled ? 0 : total)
                      .setSplitRegions(0)
                      .setRegionsInTransition(0)
                      .setTotalRegions(total)));
    }
  }

  private static int toMb(long bytes) {
    return (int) Math.min(Integer.MAX_VALUE, bytes / MB);
  }
}
