package dev.basalt.server.meta;

import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import java.util.List;

/**
 * What hbase:meta's rows are made from: the tables, whether each is enabled, and for each region
 * where it was last open and what state it is in. A standalone server's single region server serves
 * every region of an enabled table ({@link DatabaseMetaSource}); a cluster's master knows locations
 * from its assignment state.
 */
public interface MetaSource {
  /**
   * One region's row.
   *
   * @param location the server the region was last OPEN on (meta's {@code info:server}, {@code
   *     serverstartcode}), or null when it never was; HBase keeps naming it while the region moves,
   *     so clients keep going there and are redirected
   * @param openSeqNum the sequence id of that open ({@code info:seqnumDuringOpen}); grows with
   *     every open
   * @param state HBase's region state name ({@code info:state}): OPEN, OPENING, CLOSING, CLOSED,
   *     ...
   * @param stateServer the server of the state ({@code info:sn}: the target of a transition, else
   *     the location), or null
   */
  record RegionRow(
      RegionInfo info,
      ServerName location,
      long openSeqNum,
      String state,
      ServerName stateServer) {}

  /** One table: its state and its regions, by start key. */
  record TableRow(TableName name, boolean enabled, List<RegionRow> regions) {}

  /** Every table, as of now. */
  List<TableRow> tables();

  /** One table as of now, or null when it does not exist. */
  TableRow table(TableName name);
}
