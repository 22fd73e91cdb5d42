package dev.basalt.server.master;

import dev.basalt.db.ClusterCatalog;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.meta.MetaSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * hbase:meta of a cluster: the catalog's tables and regions with the assignment manager's records.
 * As HBase writes meta, a region's location ({@code info:server}) is where it was last OPEN, kept
 * while it moves, so clients go on calling there and are redirected by RegionMovedException; the
 * state and its server say what is happening now.
 */
final class AssignmentMetaSource implements MetaSource {
  private final ClusterCatalog catalog;
  private final AssignmentManager assignment;

  AssignmentMetaSource(ClusterCatalog catalog, AssignmentManager assignment) {
    this.catalog = catalog;
    this.assignment = assignment;
  }

  @Override
  public List<TableRow> tables() {
    Map<String, RegionAssignment> states = assignment.snapshot();
    List<TableRow> out = new ArrayList<>();
    for (ClusterCatalog.TableEntry t : catalog.tables()) {
      out.add(row(t, states));
    }
    return out;
  }

  @Override
  public TableRow table(TableName name) {
    ClusterCatalog.TableEntry t = catalog.table(name);
    return t == null ? null : row(t, assignment.snapshot());
  }

  private static TableRow row(ClusterCatalog.TableEntry t, Map<String, RegionAssignment> states) {
    List<RegionRow> regions = new ArrayList<>(t.regions().size());
    for (ClusterCatalog.RegionEntry r : t.regions()) {
      RegionAssignment a = states.getOrDefault(r.info().getEncodedName(), RegionAssignment.NEW);
      ServerName stateServer = a.target() != null ? a.target() : a.location();
      regions.add(
          new RegionRow(r.info(), a.location(), a.openSeqNum(), a.state().name(), stateServer));
    }
    return new TableRow(t.name(), t.enabled(), regions);
  }
}
