package dev.basalt.bench.chaos;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/** The user regions' rows of hbase:meta as the stock client reads them (a scan of meta). */
public final class MetaRows {
  private static final byte[] INFO = Bytes.toBytes("info");

  private MetaRows() {}

  /** One region's row: where meta says it is and in which state. */
  public record Row(RegionInfo region, String server, long startCode, String state) {
    /** The server as {@code host,port,startcode}, or null without {@code info:server}. */
    public String serverName() {
      return server == null ? null : ServerName.valueOf(server, startCode).getServerName();
    }

    boolean isOpen() {
      return "OPEN".equals(state);
    }
  }

  /** Every user region's row, by table. */
  public static Map<TableName, List<Row>> read(Connection c) throws IOException {
    Map<TableName, List<Row>> byTable = new HashMap<>();
    try (Table meta = c.getTable(TableName.META_TABLE_NAME);
        ResultScanner s = meta.getScanner(new Scan().addFamily(INFO))) {
      for (Result r : s) {
        byte[] ri = r.getValue(INFO, Bytes.toBytes("regioninfo"));
        if (ri == null) {
          continue;
        }
        RegionInfo region = RegionInfo.parseFromOrNull(ri);
        if (region == null) {
          throw new IOException(
              "unparseable info:regioninfo in meta row " + Bytes.toStringBinary(r.getRow()));
        }
        byte[] server = r.getValue(INFO, Bytes.toBytes("server"));
        byte[] startCode = r.getValue(INFO, Bytes.toBytes("serverstartcode"));
        byte[] state = r.getValue(INFO, Bytes.toBytes("state"));
        byTable
            .computeIfAbsent(region.getTable(), k -> new ArrayList<>())
            .add(
                new Row(
                    region,
                    server == null ? null : Bytes.toString(server),
                    startCode == null ? -1 : Bytes.toLong(startCode),
                    state == null ? null : Bytes.toString(state)));
      }
    }
    return byTable;
  }

  /**
   * Null when every region of {@code tables} is OPEN in meta on a server other than {@code gone};
   * otherwise the first region that is not, for a message.
   */
  static String notOpenElsewhere(
      Map<TableName, List<Row>> meta, Collection<TableName> tables, Collection<String> gone) {
    for (TableName t : tables) {
      List<Row> rows = meta.get(t);
      if (rows == null || rows.isEmpty()) {
        return t + " has no region in meta";
      }
      for (Row r : rows) {
        if (!r.isOpen() || r.serverName() == null || gone.contains(r.serverName())) {
          return r.region().getRegionNameAsString() + " is " + r.state() + " on " + r.serverName();
        }
      }
    }
    return null;
  }
}
