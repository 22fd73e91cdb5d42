package dev.basalt.server.master;

import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ClusterInfo;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.protocol.SchemaCodec;
import java.util.EnumSet;
import java.util.Map;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterIdProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ClusterStatus;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.LiveServerInfo;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.Option;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionStatesCount;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ServerLoad;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.TableRegionStatesCount;
import org.apache.hadoop.hbase.shaded.protobuf.generated.FSProtos.HBaseVersionFileContent;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetClusterStatusRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetClusterStatusResponse;

/**
 * {@code GetClusterStatus}: the cluster as {@code Admin.getClusterMetrics} shows it, from a {@link
 * ClusterView}. The parts the request's options name are filled; no option means all of them
 * (HBase's rule, kept for old clients). Stateless.
 */
final class ClusterStatusReport {
  private final ClusterAdmin admin;
  private final ClusterView view;

  ClusterStatusReport(ClusterAdmin admin, ClusterView view) {
    this.admin = admin;
    this.view = view;
  }

  GetClusterStatusResponse status(GetClusterStatusRequest q) {
    EnumSet<Option> options =
        q.getOptionsCount() == 0 ? EnumSet.allOf(Option.class) : EnumSet.copyOf(q.getOptionsList());
    ClusterInfo info = view.info();
    ClusterStatus.Builder b = ClusterStatus.newBuilder();
    if (options.contains(Option.HBASE_VERSION)) {
      b.setHbaseVersion(HBaseVersionFileContent.newBuilder().setVersion(info.version()));
    }
    if (options.contains(Option.CLUSTER_ID)) {
      b.setClusterId(ClusterIdProtos.ClusterId.newBuilder().setClusterId(info.clusterId()));
    }
    Map<ServerName, ServerLoad> live = view.liveServers();
    if (options.contains(Option.LIVE_SERVERS)) {
      for (Map.Entry<ServerName, ServerLoad> e : live.entrySet()) {
        b.addLiveServers(
            LiveServerInfo.newBuilder()
                .setServer(e.getKey().toProto())
                .setServerLoad(e.getValue()));
      }
    }
    if (options.contains(Option.DEAD_SERVERS)) {
      for (ServerName dead : view.deadServers()) {
        b.addDeadServers(dead.toProto());
      }
    }
    if (options.contains(Option.MASTER)) {
      b.setMaster(info.master().toProto());
    }
    if (options.contains(Option.BACKUP_MASTERS)) {
      for (ServerName backup : view.backupMasters()) {
        b.addBackupMasters(backup.toProto());
      }
    }
    if (options.contains(Option.BALANCER_ON)) {
      b.setBalancerOn(view.balancerOn());
    }
    if (options.contains(Option.SERVERS_NAME)) {
      for (ServerName s : live.keySet()) {
        b.addServersName(s.toProto());
      }
    }
    if (options.contains(Option.TABLE_TO_REGIONS_COUNT)) {
      addRegionCounts(b);
    }
    return GetClusterStatusResponse.newBuilder().setClusterStatus(b).build();
  }

  private void addRegionCounts(ClusterStatus.Builder b) {
    for (TableDescriptor d : admin.listTables()) {
      TableName t = d.getTableName();
      ClusterView.RegionCounts c = view.regionCounts(t);
      b.addTableRegionStatesCount(
          TableRegionStatesCount.newBuilder()
              .setTableName(SchemaCodec.toProto(t))
              .setRegionStatesCount(
                  RegionStatesCount.newBuilder()
                      .setOpenRegions(c.open())
                      .setClosedRegions(c.closed())
                      .setSplitRegions(0)
                      .setRegionsInTransition(c.inTransition())
                      .setTotalRegions(c.total())));
    }
  }
}
