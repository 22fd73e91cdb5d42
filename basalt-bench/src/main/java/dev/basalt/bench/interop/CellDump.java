package dev.basalt.bench.interop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A table's cells as one line each, {@code row/family:qualifier/timestamp/Type=value}, in scan
 * order, so that two clusters' copies of a table compare as two lists of strings and a difference
 * prints readably.
 */
final class CellDump {
  private CellDump() {}

  /**
   * Every version of every cell of one family, as a reader sees them (deletes applied), or with
   * {@code raw} as stored: delete markers and the cells they mask too.
   */
  static List<String> of(Connection conn, TableName table, byte[] family, boolean raw)
      throws IOException {
    List<String> out = new ArrayList<>();
    Scan scan = new Scan().addFamily(family).readAllVersions().setRaw(raw);
    try (Table t = conn.getTable(table);
        ResultScanner rs = t.getScanner(scan)) {
      for (Result r : rs) {
        for (Cell c : r.rawCells()) {
          out.add(line(c));
        }
      }
    }
    return out;
  }

  static String line(Cell c) {
    return Bytes.toStringBinary(CellUtil.cloneRow(c))
        + "/"
        + Bytes.toStringBinary(CellUtil.cloneFamily(c))
        + ":"
        + Bytes.toStringBinary(CellUtil.cloneQualifier(c))
        + "/"
        + c.getTimestamp()
        + "/"
        + c.getType()
        + "="
        + value(CellUtil.cloneValue(c));
  }

  /** A long value as its length and checksum, so that a difference prints in one line. */
  private static String value(byte[] v) {
    if (v.length <= 64) {
      return Bytes.toStringBinary(v);
    }
    CRC32 crc = new CRC32();
    crc.update(v);
    return Bytes.toStringBinary(v, 0, 16)
        + "... ("
        + v.length
        + " bytes, crc32 "
        + Long.toHexString(crc.getValue())
        + ")";
  }

  /** The first lines where two dumps differ (at most {@code max}), for a failure's report. */
  static List<String> differences(List<String> expected, List<String> actual, int max) {
    List<String> out = new ArrayList<>();
    List<String> missing = new ArrayList<>(expected);
    missing.removeAll(actual);
    List<String> extra = new ArrayList<>(actual);
    extra.removeAll(expected);
    for (String s : missing) {
      if (out.size() >= max) {
        break;
      }
      out.add("missing: " + s);
    }
    for (String s : extra) {
      if (out.size() >= max) {
        break;
      }
      out.add("extra:   " + s);
    }
    if (out.isEmpty() && !expected.equals(actual)) {
      out.add("same cells in another order");
    }
    return out;
  }
}
