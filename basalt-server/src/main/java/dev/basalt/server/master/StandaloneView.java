package dev.basalt.server.master;

import dev.basalt.db.Database;
import dev.basalt.db.RegionMetrics;
import dev.basalt.db.TableNotFoundException;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ClusterInfo;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.regionserver.RegionLoads;
import dev.basalt.server.replication.ReplicationLoad;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ServerLoad;

/**
 * A standalone server as the status call shows it: one live region server serving every open
 * region, no backup, dead or unknown servers, no regions in transition and no balancer. Sizes are
 * whole MB rounded down, as HBase reports them.
 */
public final class StandaloneView implements ClusterView {

  private final Database db;
  private final Supplier<ClusterInfo> cluster;

  /**
   * @param cluster asked on each call, since the servers' ports are known only once they listen
   */
  private final ReplicationLoad replication;

  public StandaloneView(Database db, Supplier<ClusterInfo> cluster, ReplicationLoad replication) {
    this.db = db;
    this.cluster = cluster;
    this.replication = replication;
  }

  @Override
  public ClusterInfo info() {
    return cluster.get();
  }

  @Override
  public List<ServerName> backupMasters() {
    return List.of();
  }

  @Override
  public Map<ServerName, ServerLoad> liveServers() {
    return Map.of(cluster.get().regionServer(), serverLoad());
  }

  @Override
  public List<ServerName> deadServers() {
    return List.of();
  }

  @Override
  public boolean balancerOn() {
    return false;
  }

  /** Per table: all its regions open while it is enabled, all closed otherwise. */
  @Override
  public RegionCounts regionCounts(TableName table) {
    try {
      int total = db.getRegions(table).size();
      return db.isTableEnabled(table)
          ? new RegionCounts(total, 0, 0, total)
          : new RegionCounts(0, 0, total, total);
    } catch (TableNotFoundException deletedMeanwhile) {
      return new RegionCounts(0, 0, 0, 0);
    }
  }

  private ServerLoad serverLoad() {
    ServerLoad.Builder load = ServerLoad.newBuilder();
    Map<TableName, Integer> families = new HashMap<>();
    long requests = 0;
    for (RegionMetrics m : db.getRegionMetrics()) {
      TableName t = m.getRegionInfo().getTable();
      int stores = families.computeIfAbsent(t, this::familyCount);
      requests += m.getReadRequestCount() + m.getWriteRequestCount();
      load.addRegionLoads(RegionLoads.of(m).setStores(stores));
    }
    Runtime rt = Runtime.getRuntime();
    replication.addTo(load);
    return load.setTotalNumberOfRequests(requests)
        .setUsedHeapMB(RegionLoads.toMb(rt.totalMemory() - rt.freeMemory()))
        .setMaxHeapMB(RegionLoads.toMb(rt.maxMemory()))
        .build();
  }

  private int familyCount(TableName t) {
    try {
      return db.getDescriptor(t).getColumnFamilyCount();
    } catch (TableNotFoundException deletedMeanwhile) {
      return 0;
    }
  }
}
