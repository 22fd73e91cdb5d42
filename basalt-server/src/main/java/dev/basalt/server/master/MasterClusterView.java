package dev.basalt.server.master;

import dev.basalt.db.ClusterCatalog;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ClusterInfo;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.master.RegionAssignment.State;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ServerLoad;

/**
 * A cluster as its active master sees it: live region servers with the load each last reported,
 * dead ones, the standby masters registered in ZooKeeper, the balancer switch, and region counts
 * from the assignment records.
 */
final class MasterClusterView implements ClusterView {
  private final Supplier<ClusterInfo> info;
  private final ServerManager servers;
  private final AssignmentManager assignment;
  private final ClusterCatalog catalog;
  private final Supplier<List<ServerName>> backupMasters;
  private final BooleanSupplier balancerOn;

  MasterClusterView(
      Supplier<ClusterInfo> info,
      ServerManager servers,
      AssignmentManager assignment,
      ClusterCatalog catalog,
      Supplier<List<ServerName>> backupMasters,
      BooleanSupplier balancerOn) {
    this.info = info;
    this.servers = servers;
    this.assignment = assignment;
    this.catalog = catalog;
    this.backupMasters = backupMasters;
    this.balancerOn = balancerOn;
  }

  @Override
  public ClusterInfo info() {
    return info.get();
  }

  @Override
  public List<ServerName> backupMasters() {
    return backupMasters.get();
  }

  @Override
  public Map<ServerName, ServerLoad> liveServers() {
    return servers.liveServers();
  }

  @Override
  public List<ServerName> deadServers() {
    return servers.deadServers();
  }

  @Override
  public boolean balancerOn() {
    return balancerOn.getAsBoolean();
  }

  @Override
  public RegionCounts regionCounts(TableName table) {
    ClusterCatalog.TableEntry t = catalog.table(table);
    if (t == null) {
      return new RegionCounts(0, 0, 0, 0);
    }
    Map<String, RegionAssignment> states = assignment.snapshot();
    int open = 0;
    int moving = 0;
    for (ClusterCatalog.RegionEntry r : t.regions()) {
      RegionAssignment a = states.getOrDefault(r.info().getEncodedName(), RegionAssignment.NEW);
      if (a.state() == State.OPEN) {
        open++;
      } else if (a.inTransition()) {
        moving++;
      }
    }
    int total = t.regions().size();
    return new RegionCounts(open, moving, total - open - moving, total);
  }
}
