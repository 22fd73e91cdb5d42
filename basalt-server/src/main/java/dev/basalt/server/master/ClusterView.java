package dev.basalt.server.master;

import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ClusterInfo;
import dev.basalt.server.cluster.ServerName;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ServerLoad;

/**
 * The cluster as {@code GetClusterStatus} reports it: who serves, who stands by, who died, what is
 * open where. A standalone server is one master and one region server serving every open region; a
 * cluster's master knows it from its region servers' reports and its assignment state.
 */
public interface ClusterView {
  /** Counts of one table's regions for the status call. */
  record RegionCounts(int open, int inTransition, int closed, int total) {}

  /** The cluster's id, the active master and the version it reports. */
  ClusterInfo info();

  List<ServerName> backupMasters();

  /** Each live region server with the load it last reported. */
  Map<ServerName, ServerLoad> liveServers();

  /** Region servers that died and whose recovery is not finished or that have not come back. */
  List<ServerName> deadServers();

  boolean balancerOn();

  /** Counts of the table's regions by state (open, in transition, closed). */
  RegionCounts regionCounts(TableName table);
}
