package dev.basalt.server.master;

import dev.basalt.schema.RegionInfo;
import dev.basalt.server.cluster.ServerName;
import java.io.IOException;

/**
 * The commands the master sends region servers to open and close regions (AdminService OpenRegion
 * and CloseRegion; docs/formats/cluster.md). Both are idempotent on the region server, which
 * answers at once and reports the outcome later (ReportRegionStateTransition), echoing the
 * operation id. The master's epoch travels with each, so a region server ignores an old master.
 */
interface RegionCommands {
  void open(ServerName server, RegionInfo region, long op) throws IOException;

  /**
   * @param destination where the region goes next (the region server then answers its clients with
   *     RegionMovedException naming it), or null
   */
  void close(ServerName server, RegionInfo region, ServerName destination, long op)
      throws IOException;

  /**
   * Hands open regions over to new ones (a split or a merge planned by the master): the region
   * server closes them, writes the new regions' directories and reports SPLIT or MERGED (or
   * SPLIT_REVERTED / MERGE_REVERTED when it could not, having reopened them).
   *
   * @param plan HBase's READY_TO_SPLIT {@code [parent, daughterA, daughterB]} or READY_TO_MERGE
   *     {@code [merged, regionA, regionB]} transition
   */
  void handOver(
      ServerName server,
      org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos
              .RegionStateTransition
          plan,
      long op)
      throws IOException;
}
