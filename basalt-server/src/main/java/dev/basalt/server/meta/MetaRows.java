package dev.basalt.server.meta;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.protocol.SchemaCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;

/**
 * The rows of hbase:meta for the catalog as it is now, with HBase's layout (protocol document
 * 3.2.3). In standalone mode the database catalog is the truth and meta is derived from it on every
 * read, so the two can never disagree.
 *
 * <table>
 *   <caption>rows and columns</caption>
 *   <tr><th>row</th><th>column</th><th>value</th></tr>
 *   <tr><td>region name</td><td>info:regioninfo</td><td>"PBUF" + RegionInfo</td></tr>
 *   <tr><td></td><td>info:seqnumDuringOpen</td><td>8-byte open sequence number (1)</td></tr>
 *   <tr><td></td><td>info:server</td><td>"host:port" (the last server, for closed regions)</td></tr>
 *   <tr><td></td><td>info:serverstartcode</td><td>8-byte start code</td></tr>
 *   <tr><td></td><td>info:sn</td><td>"host,port,startcode"</td></tr>
 *   <tr><td></td><td>info:state</td><td>"OPEN" or "CLOSED" (table disabled)</td></tr>
 *   <tr><td>table name</td><td>table:state</td><td>TableState, without "PBUF"</td></tr>
 * </table>
 *
 * <p>Regions of a disabled table keep their server, as in HBase (whose master leaves a closed
 * region's last location in meta, because the client wants a server to ask): the client sends its
 * request there, the region server answers NotServingRegionException, and the client's retry
 * re-reads the table state and fails with TableNotEnabledException. Without a server the client
 * would fail at once with NoServerForRegionException, which it does not retry. Cell timestamps are
 * the region id (region rows) or the server's start code.
 */
final class MetaRows {
  static final byte[] INFO = Bytes.toBytes("info");
  static final byte[] TABLE = Bytes.toBytes("table");
  static final byte[] REGIONINFO = Bytes.toBytes("regioninfo");
  static final byte[] SEQNUM = Bytes.toBytes("seqnumDuringOpen");
  static final byte[] SERVER = Bytes.toBytes("server");
  static final byte[] STARTCODE = Bytes.toBytes("serverstartcode");
  static final byte[] SN = Bytes.toBytes("sn");
  static final byte[] STATE = Bytes.toBytes("state");
  private static final byte[] PBUF = Bytes.toBytes("PBUF");

  private MetaRows() {}

  /**
   * Every row key, in meta order, with what builds that row (its cells in cell order). The tables
   * are read now; a row's cells are built only when asked for, since a scan (the region locator's,
   * say) usually reads a few rows of one table.
   */
  static NavigableMap<byte[], Supplier<List<Cell>>> snapshot(MetaSource source) {
    TreeMap<byte[], Supplier<List<Cell>>> rows = new TreeMap<>(MetaRowComparator.ROWS);
    for (MetaSource.TableRow t : source.tables()) {
      for (MetaSource.RegionRow r : t.regions()) {
        rows.put(r.info().getRegionName(), () -> regionRow(r));
      }
      rows.put(t.name().getName(), () -> tableRow(t.name(), t.enabled(), tableRowTime(t)));
    }
    return rows;
  }

  /**
   * The one row with this key, or null; built alone, since a Get (the client reads a table's state
   * on every retry) must not pay for the rows of every table.
   */
  static List<Cell> row(MetaSource source, byte[] key) {
    int comma = Bytes.indexOf(key, MetaRowComparator.COMMA, 0);
    TableName table;
    try {
      table = TableName.valueOf(comma < 0 ? key : Arrays.copyOf(key, comma));
    } catch (IllegalArgumentException notATableName) {
      return null;
    }
    MetaSource.TableRow t = source.table(table);
    if (t == null) {
      return null;
    }
    if (comma < 0) {
      return tableRow(table, t.enabled(), tableRowTime(t));
    }
    for (MetaSource.RegionRow r : t.regions()) {
      if (Arrays.equals(r.info().getRegionName(), key)) {
        return regionRow(r);
      }
    }
    return null;
  }

  /** A table row's timestamp: that of its regions' creation (all share one region id). */
  private static long tableRowTime(MetaSource.TableRow t) {
    return t.regions().isEmpty() ? 0 : t.regions().get(0).info().getRegionId();
  }

  /**
   * A region's row, as HBase writes it: the region info always; where it was last open (server,
   * start code, open sequence number) only once it has been open; its state and the server of that
   * state.
   */
  private static List<Cell> regionRow(MetaSource.RegionRow region) {
    RegionInfo r = region.info();
    byte[] row = r.getRegionName();
    long ts = r.getRegionId();
    List<Cell> cells = new ArrayList<>(6);
    cells.add(info(row, REGIONINFO, ts, Bytes.concat(PBUF, SchemaCodec.toProto(r).toByteArray())));
    ServerName location = region.location();
    if (location != null) {
      cells.add(info(row, SEQNUM, ts, Bytes.toBytes(region.openSeqNum())));
      cells.add(info(row, SERVER, ts, Bytes.toBytes(location.hostAndPort())));
      cells.add(info(row, STARTCODE, ts, Bytes.toBytes(location.startCode())));
    }
    if (region.stateServer() != null) {
      cells.add(info(row, SN, ts, Bytes.toBytes(region.stateServer().toString())));
    }
    cells.add(info(row, STATE, ts, Bytes.toBytes(region.state())));
    return cells;
  }

  private static List<Cell> tableRow(TableName table, boolean enabled, long ts) {
    HBaseProtos.TableState state =
        HBaseProtos.TableState.newBuilder()
            .setState(
                enabled
                    ? HBaseProtos.TableState.State.ENABLED
                    : HBaseProtos.TableState.State.DISABLED)
            .build();
    return List.of(
        KeyValue.of(table.getName(), TABLE, STATE, ts, CellType.PUT, state.toByteArray()));
  }

  private static Cell info(byte[] row, byte[] qualifier, long ts, byte[] value) {
    return KeyValue.of(row, INFO, qualifier, ts, CellType.PUT, value);
  }
}
